import { flowStatus, surveySessions } from '@ratchet/flows';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { flowStatusResult, type FlowStatusInput } from '../../operations/flows.js';
import { withInput } from '../../option-values.js';
import { statusInput } from './inputs.js';
import { guard, printSessions, printView, runnerOptions } from './project.js';

/** `ratchet flow status [--session S]`: one session's current step again, or every session. */
async function status(ctx: Context, input: FlowStatusInput): Promise<number> {
  const { session } = input;
  if (ctx.json) {
    const result = await flowStatusResult(ctx, input);
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  if (session !== undefined) return printView(ctx, await guard(ctx, async () => flowStatus(await runnerOptions(ctx), session)));
  // One session that cannot be read is reported (exit 1); the others are still listed.
  const { sessions, unreadable } = await guard(ctx, async () => surveySessions(ctx.cwd));
  if (sessions.length === 0 && unreadable.length === 0) ctx.out('no flow sessions in .ratchet/flows/ (start one with `ratchet flow start <flow> --session <id>`)');
  else printSessions(ctx, sessions, unreadable);
  return unreadable.length === 0 ? EXIT_OK : EXIT_PROBLEMS;
}
export default withInput(statusInput, status);
