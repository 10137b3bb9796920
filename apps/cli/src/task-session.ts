/**
 * What `ratchet task|run|research` share: the session file (`.ratchet/session.json` unless
 * `--session`), the activity log, plan-stack options read from the project, and the directive every
 * command ends with. The lifecycle logic itself is @ratchet/orchestrator's; this is the shell.
 */
import { actingAs } from './actor.js';
import { ruleFile } from './rule-pins.js';
import {
  ACTIVITY_LOG_PATH,
  IllegalMoveError,
  PlanStackError,
  RecursionDepthError,
  activityEntry,
  legalTriggers,
  nextDirective,
  orchestratorMachine,
  openActivityLogStore,
  openSession,
  type ActivityEntry,
  type ActivityInput,
  type ActivityLogStore,
  type Directive,
  type PlanStackOptions,
  type Session,
  type SessionFile,
} from '@ratchet/orchestrator';
import { existsSync } from 'node:fs';
import type { Machine } from '@ratchet/fsm-core';
import type { Context } from './context.js';
import { CliError } from './errors.js';
import { EXIT_PROBLEMS } from './exit-codes.js';
import { displayPath, resolvePath } from './paths.js';
import { loadFsmFile, loadFsmFileAny, type LoadedFsm } from './fsm-file.js';
import { sharedStorageOf } from './storage.js';
import { DEFAULT_REGISTRY, listFiles, planReader } from './plan-project.js';

export const DEFAULT_SESSION = '.ratchet/session.json';
/** Task ids name files (postmortems/<id>.md): no separators, no leading dot. */
const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function checkTaskId(id: unknown): string {
  if (typeof id !== 'string' || !TASK_ID.test(id)) {
    throw new CliError(`--task-id ${JSON.stringify(id)}: use letters, digits, ".", "_" and "-" (at most 128, not starting with "." or "-")`, { code: 'bad-task-id' });
  }
  return id;
}

/** The project's lifecycle definition; without one, the built-in copy (the same file as shipped) runs. */
export const LIFECYCLE_FSM = 'protocols/orchestrator.fsm.json';
/** The states the orchestrator's commands move to by name: a project lifecycle must keep them. */
const REQUIRED_STATES = ['START', 'ORIENTING', 'PLANNING', 'RESEARCHING', 'AWAITING_RESULT', 'EXECUTING', 'AWAITING_ANALYSIS', 'POST_MORTEM', 'SELF_CORRECTING', 'AWAITING_SUBMISSION', 'DONE', 'ERROR'];

/** The lifecycle written in YAML, as the original Jules toolchain allowed (read when there is no JSON one). */
const LIFECYCLE_FSM_YAML = ['protocols/orchestrator.fsm.yaml', 'protocols/orchestrator.fsm.yml'];

/**
 * The lifecycle this project runs: its protocols/orchestrator.fsm.json (or, without one, its
 * orchestrator.fsm.yaml), validated with fsm-core (an invalid one is exit 2 at its file:line:col,
 * never silently replaced), else the built-in one. The JSON path stays synchronous and loads no
 * YAML parser: `run next` and `run status` read it on every call.
 */
export async function lifecycleMachine(ctx: Context): Promise<Machine> {
  // While a task runs, its pinned copies (rule-pins.ts): an edit of the lifecycle applies to the next task.
  const json = ruleFile(ctx.cwd, resolvePath(ctx, LIFECYCLE_FSM));
  if (json.exists) return checkedLifecycle(loadFsmFile(ctx, json.path));
  const yaml = LIFECYCLE_FSM_YAML.map((p) => ruleFile(ctx.cwd, resolvePath(ctx, p))).find((p) => p.exists);
  return yaml === undefined ? orchestratorMachine() : checkedLifecycle(await loadFsmFileAny(ctx, yaml.path));
}

function checkedLifecycle(loaded: LoadedFsm): Machine {
  const first = loaded.diagnostics.find((d) => d.severity === 'error');
  if (loaded.machine === undefined || first !== undefined) {
    throw new CliError(`invalid lifecycle: ${first?.message ?? 'the definition does not load'}; run \`ratchet fsm check ${loaded.file}\``, {
      code: 'invalid-lifecycle',
      file: loaded.file,
      ...(first?.line !== undefined ? { line: first.line, column: first.column ?? 1 } : {}),
    });
  }
  const machine = loaded.machine;
  const missing = REQUIRED_STATES.filter((st) => !machine.stateIndex.has(st));
  if (missing.length > 0) throw new CliError(`invalid lifecycle: the orchestrator needs the states ${missing.join(', ')}`, { code: 'invalid-lifecycle', file: loaded.file });
  return machine;
}

export interface TaskFiles {
  session: SessionFile;
  /** Whether the session file exists (a missing one reads as a fresh session at START). */
  exists: boolean;
}

/** The task session file `sessionFile` (default .ratchet/session.json), relative to the project. */
export function taskSessionAt(ctx: Context, sessionFile: string | undefined, taskId = 'unnamed'): TaskFiles {
  const path = resolvePath(ctx, sessionFile ?? DEFAULT_SESSION);
  return { session: openSession(path, { taskId, now: () => new Date(), createParentDirs: true, root: ctx.cwd }), exists: existsSync(path) };
}

/** The session and the project's lifecycle machine, or a usage error when there is no session yet. */
export async function requireSessionAt(ctx: Context, sessionFile: string | undefined): Promise<{ file: SessionFile; session: Session; machine: Machine }> {
  const { session: file, exists } = taskSessionAt(ctx, sessionFile);
  // No task is a state like any other the command is not allowed in: exit 1, not a usage error.
  if (!exists) throw new CliError(`no task session at ${displayPath(ctx, file.path)}: start one with \`ratchet task start --task-id <id>\``, { code: 'no-session', exitCode: EXIT_PROBLEMS });
  const machine = await lifecycleMachine(ctx);
  return { file, session: await file.read(), machine };
}

/**
 * The project's activity log: logs/activity.log.jsonl, or on a shared backend (RATCHET_STORE=
 * postgres://...) the log with that key there, so every machine's entries land in one log. On files
 * an append is `appendFast`: the lock, then an O_APPEND write that never re-reads or rewrites earlier
 * lines, so a log kept before Ratchet (with lines in the original's shape, or a bad one) is kept
 * byte for byte and does not stop the command.
 */
export async function activityLogOf(ctx: Context): Promise<ActivityLogStore> {
  const backend = await sharedStorageOf(ctx);
  return openActivityLogStore(resolvePath(ctx, ACTIVITY_LOG_PATH), { createParentDirs: true, root: ctx.cwd, ...(backend === undefined ? {} : { backend, key: ACTIVITY_LOG_PATH }) });
}

/** An activity entry for `session` made by this command: it records who acted and through which channel. */
export function entryOf(ctx: Context, session: Session, input: ActivityInput, now: () => Date = () => new Date()): ActivityEntry {
  return activityEntry(session, { actor: actingAs(ctx), ...input }, { now });
}

/** Append one entry to the project's activity log. */
export async function logActivity(ctx: Context, session: Session, input: ActivityInput): Promise<void> {
  await (await activityLogOf(ctx)).append([entryOf(ctx, session, input)]);
}

/**
 * Where a plan step's sub-plans and globs come from: the project, read only when needed, and the
 * registry the plan was accepted with (`run plan --registry`, kept in the session).
 */
export async function planStackOptions(ctx: Context, registryPath: string = DEFAULT_REGISTRY): Promise<PlanStackOptions> {
  let files: string[] | undefined;
  let registry: Record<string, string> = {};
  if (existsSync(resolvePath(ctx, registryPath))) {
    const { readRegistry } = await import('@ratchet/plan-lint/registry');
    registry = await readRegistry(registryPath, ctx.cwd);
  }
  return {
    now: () => new Date(),
    machine: await lifecycleMachine(ctx),
    registry,
    files: () => (files ??= listFiles(ctx.cwd)),
    readPlan: planReader(ctx.cwd),
  };
}

/** The command that fires each lifecycle trigger: refusals and `run status` speak in commands, never in trigger names. */
const COMMAND_OF: Record<string, string> = {
  begin_task: 'task start',
  orientation_complete: 'task start',
  orientation_failed: 'task start',
  reorient: 'task start',
  plan_accepted: 'run plan',
  plan_rejected: 'run plan',
  research_needed: 'research plan',
  research_complete: 'research done',
  research_resumed: 'research done',
  research_step_complete: 'run done',
  research_plan_complete: 'run done',
  research_failed: 'research done --failed',
  step_complete: 'run done',
  plan_complete: 'run done',
  plan_changed: 'run done',
  step_failed: 'run done --failed',
  analysis_complete: 'task close',
  abandon_task: 'task close --abandon',
  post_mortem_complete: 'task submit',
  lessons_applied: 'task submit',
  submit: 'task submit',
};

/**
 * The commands that move the task on from its state (`ratchet run done`, ...), from the lifecycle's
 * legal triggers, in the machine's order, each once. A trigger of a project's own lifecycle that no
 * command fires is left out: the agent could not use it.
 */
export function allowedCommands(session: Session, machine: Machine): string[] {
  const out: string[] = [];
  for (const trigger of legalTriggers(session, machine)) {
    const cmd = Object.hasOwn(COMMAND_OF, trigger) ? COMMAND_OF[trigger] : undefined;
    if (cmd !== undefined && !out.includes(`ratchet ${cmd}`)) out.push(`ratchet ${cmd}`);
  }
  return out;
}

/**
 * Lifecycle refusals name the command the agent ran and the one to run instead (from
 * `nextDirective`), e.g. "`ratchet task close` is not allowed while EXECUTING: ...". Exit 1, like
 * every refusal by the task's state or a gate (README: exit codes); 2 is for usage and input errors.
 */
export function asCliError(err: unknown, session: Session, command?: string): never {
  if (err instanceof IllegalMoveError) {
    const directive = nextDirective(session);
    const cmd = command ?? (err.trigger !== undefined ? COMMAND_OF[err.trigger] : undefined);
    const what = cmd !== undefined ? `\`ratchet ${cmd}\`` : 'this command';
    throw new CliError(`${what} is not allowed while task ${session.taskId} is ${session.state}: ${directive.instruction} Next: ${directive.commands.map((c) => `\`${c}\``).join(' or ')}`, {
      code: err.code,
      exitCode: EXIT_PROBLEMS,
    });
  }
  throw err;
}

/** Refuse (exit 1, naming the command to run instead) unless `trigger` is legal now. */
export function requireTrigger(session: Session, trigger: string, machine: Machine, command?: string): void {
  const legal = legalTriggers(session, machine);
  if (!legal.includes(trigger)) asCliError(new IllegalMoveError({ state: session.state, trigger, legal }), session, command);
}

export function isPlanRunError(err: unknown): err is PlanStackError | RecursionDepthError {
  return err instanceof PlanStackError || err instanceof RecursionDepthError;
}

/** Print what to do next (human) or return it for the JSON document. */
export function printDirective(ctx: Context, session: Session | undefined): Directive {
  const directive = nextDirective(session);
  if (directive.step) {
    const { step } = directive;
    ctx.out('');
    ctx.out(`Step ${step.index + 1}/${step.total} of ${step.chain.join(' > ')}:`);
    ctx.out(`  ${step.line}`);
  } else {
    ctx.out('');
    ctx.out(directive.instruction);
  }
  ctx.out(`Next: ${directive.commands.join('\n      ')}`);
  return directive;
}

export function sessionJson(session: Session, machine: Machine): Record<string, unknown> {
  return { taskId: session.taskId, sessionId: session.sessionId, state: session.state, legal: legalTriggers(session, machine) };
}
