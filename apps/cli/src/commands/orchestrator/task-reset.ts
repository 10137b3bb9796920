import type { Session } from '@ratchet/orchestrator';
import { pinnedActor } from '../../actor.js';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { withInput } from '../../option-values.js';
import { activityLogOf, checkTaskId, entryOf, printDirective, requireSessionAt, sessionJson } from '../../task-session.js';
import { taskResetInput, type TaskResetInput } from './inputs.js';

/** Where a person may put a task: states whose next moves need nothing the reset would have to invent. */
const TARGETS = ['ERROR', 'PLANNING', 'START'] as const;
type Target = (typeof TARGETS)[number];

/**
 * `ratchet task reset --task-id ID --reason R [--to ERROR|PLANNING|START]`: a person's way out of a
 * state no lifecycle command leaves (a session edited by hand and accepted with `doctor --accept`, a
 * state a custom lifecycle strands). Refused where RATCHET_ACTOR=agent: resetting the task is not
 * the agent's to decide. The move is recorded in the history (trigger `reset`, with the reason) and
 * the activity log (TASK_RESET); the running plan, its pins and expansion, the research and
 * post-mortem records are dropped, since none of them belongs to the state the task lands in.
 * ERROR (default): the agent re-orients (`task start`) or abandons with a FAILURE post-mortem
 * (`task close`). PLANNING: a new plan. START: the task is over, a new one can start.
 */
async function taskReset(ctx: Context, input: TaskResetInput): Promise<number> {
  if (pinnedActor(ctx) === 'agent') {
    throw new CliError('task reset is refused: this environment sets RATCHET_ACTOR=agent (moving a task out of its lifecycle is for a person, from their own shell)', { code: 'actor-pinned' });
  }
  const taskId = checkTaskId(input.taskId);
  const reason = input.reason?.replace(/\s+/g, ' ').trim() ?? '';
  if (reason === '') throw new CliError('task reset needs --reason "<why>": it is recorded in the history and the activity log', { code: 'no-reason' });
  const to = input.to ?? 'ERROR';
  if (!(TARGETS as readonly string[]).includes(to)) throw new CliError(`--to ${to}: a task can be reset to ${TARGETS.join(', ')}`, { code: 'bad-target' });
  const { file, session, machine } = await requireSessionAt(ctx, input.session);
  if (session.taskId !== taskId) throw new CliError(`--task-id ${taskId}: the session's task is ${session.taskId}`, { code: 'wrong-task' });
  const now = new Date().toISOString();
  let from = session.state;
  const reset = await file.update((s) => {
    if (s.taskId !== taskId) throw new CliError(`--task-id ${taskId}: the session's task is ${s.taskId}`, { code: 'wrong-task' });
    from = s.state;
    return resetTo(s, to as Target, `reset by a person: ${reason}`, now);
  });
  await (await activityLogOf(ctx)).append([entryOf(ctx, { ...reset, state: from }, { type: 'TASK_RESET', status: 'INFO', message: reason, details: { from, to } }, () => new Date(now))]);
  if (ctx.json) {
    ctx.emitJson({ ok: true, ...sessionJson(reset, machine), from, next: printDirective({ ...ctx, out: () => undefined }, reset) });
    return EXIT_OK;
  }
  ctx.out(`Task ${taskId} reset from ${from} to ${to}: ${reason}`);
  printDirective(ctx, reset);
  return EXIT_OK;
}

function resetTo(s: Session, to: Target, message: string, at: string): Session {
  const { expansion: _e, pins: _p, stepBaseline: _b, research: _r, postMortem: _m, registry: _g, ...kept } = s;
  return { ...kept, state: to, stack: [], history: [...s.history, { at, from: s.state, trigger: 'reset', to, message }], updatedAt: at };
}

export default withInput(taskResetInput, taskReset);
