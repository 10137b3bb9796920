import { resetCommand } from '@ratchet/orchestrator';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import { allowedCommands, lifecycleMachine, taskSessionAt, printDirective } from '../../task-session.js';
import { runStatusResult } from '../../operations/orchestrator.js';
import type { TaskSessionInput } from '../../operations/orchestrator-input.js';
import { withInput } from '../../option-values.js';
import { taskSessionInput } from './inputs.js';

/** `ratchet run status`: lifecycle state, the commands allowed in it, the plan stack, the current step, recent history. Read-only. */
async function runStatus(ctx: Context, input: TaskSessionInput): Promise<number> {
  if (ctx.json) {
    const result = await runStatusResult(ctx, input);
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  const { session: file, exists } = taskSessionAt(ctx, input.session);
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

export default withInput(taskSessionInput, runStatus);
