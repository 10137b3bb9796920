import { flowStatus, listSessions } from '@ratchet/flows';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import { guard, printView, runnerOptions } from './project.js';

/** `ratchet flow status [--session S]`: one session's current step again, or every session. */
export default async function status(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  if (typeof options.session === 'string') {
    const session = options.session;
    return printView(ctx, await guard(ctx, async () => flowStatus(await runnerOptions(ctx), session)));
  }
  const sessions = await guard(ctx, async () => listSessions(ctx.cwd));
  if (ctx.json) ctx.emitJson({ ok: true, sessions: sessions.map((s) => ({ ...s, file: displayPath(ctx, s.file) })) });
  else if (sessions.length === 0) ctx.out('no flow sessions in .ratchet/flows/ (start one with `ratchet flow start <flow> --session <id>`)');
  else for (const s of sessions) ctx.out(`${s.sessionId}  ${s.flow}  ${s.status}${s.current !== null ? `  step ${s.current}` : ''}`);
  return EXIT_OK;
}
