import { flowStatus, surveySessions } from '@ratchet/flows';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import { guard, printSessions, printView, runnerOptions, unreadableRow } from './project.js';

/** `ratchet flow status [--session S]`: one session's current step again, or every session. */
export default async function status(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  if (typeof options.session === 'string') {
    const session = options.session;
    return printView(ctx, await guard(ctx, async () => flowStatus(await runnerOptions(ctx), session)));
  }
  // One session that cannot be read is reported (exit 1); the others are still listed.
  const { sessions, unreadable } = await guard(ctx, async () => surveySessions(ctx.cwd));
  if (ctx.json) ctx.emitJson({ ok: unreadable.length === 0, sessions: sessions.map((s) => ({ ...s, file: displayPath(ctx, s.file) })), unreadableSessions: unreadable.map((u) => unreadableRow(ctx, u)) });
  else if (sessions.length === 0 && unreadable.length === 0) ctx.out('no flow sessions in .ratchet/flows/ (start one with `ratchet flow start <flow> --session <id>`)');
  else printSessions(ctx, sessions, unreadable);
  return unreadable.length === 0 ? EXIT_OK : EXIT_PROBLEMS;
}
