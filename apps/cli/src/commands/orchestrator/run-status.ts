import { resetCommand } from '@ratchet/orchestrator';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import { allowedCommands, lifecycleMachine, openTaskSession, printDirective } from '../../task-session.js';
import { runStatusResult } from '../../operations/orchestrator.js';
import { stringOption } from '../../option-values.js';

/** `ratchet run status`: lifecycle state, the commands allowed in it, the plan stack, the current step, recent history. Read-only. */
export default async function runStatus(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  if (ctx.json) {
    const result = await runStatusResult(ctx, { session: stringOption(options, 'session') });
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  const { session: file, exists } = openTaskSession(ctx, options);
  if (!exists) {
    ctx.out(`No task session at ${displayPath(ctx, file.path)}.`);
    printDirective(ctx, undefined);
    return EXIT_OK;
  }
  const session = file.readSync();
  ctx.out(`Task     ${session.taskId}${session.sessionId ? ` (session ${session.sessionId})` : ''}`);
  ctx.out(`State    ${session.state}`);
  // The commands, not the lifecycle's trigger names: what the agent can type.
  ctx.out(`Allowed  ${allowedCommands(session, await lifecycleMachine(ctx)).join(', ') || `(no command moves the task on from ${session.state}: ${resetCommand(session.taskId)}, by a person)`}`);
  if (session.stack.length > 0) {
    ctx.out('Stack');
    session.stack.forEach((frame, depth) => ctx.out(`  ${'  '.repeat(depth)}${frame.planPath}  step ${Math.min(frame.current + 1, frame.steps.length)}/${frame.steps.length}`));
  }
  if (session.research) ctx.out(`Research ${session.research.topic} (${session.research.planPath})`);
  if (session.postMortem) ctx.out(`Post-mortem ${session.postMortem.path} (${session.postMortem.outcome})`);
  const recent = session.history.slice(-5);
  if (recent.length > 0) {
    ctx.out('History (latest last)');
    for (const h of recent) ctx.out(`  ${h.at}  ${h.from} -${h.trigger}-> ${h.to}${h.message ? `  ${h.message}` : ''}`);
  }
  printDirective(ctx, session);
  return EXIT_OK;
}
