/**
 * Running a task's plan as typed operations (`ratchet run plan|done`; the MCP tools `run_plan`,
 * `run_done`): the PLANNING gate and the report of each step, each a lock-protected update of the
 * task session with its activity log entry, answered with a typed outcome; `xxxResult` turns it into
 * the document `--json` prints (task-transition.v1, or the refusal's own document) and the exit code.
 */
import { resolve } from 'node:path';
import type { Machine } from '@ratchet/fsm-core';
import { advanceResearch, currentStep, fire, moveTo, nextDirective, pinsOf, startPlan, stepTriggers, type CurrentStep, type Session, type SessionFile } from '@ratchet/orchestrator';
import { formatJson, hasErrors, lintPlan, type Finding } from '@ratchet/plan-lint';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import { versioned } from '../output/json-output.js';
import { displayPath } from '../paths.js';
import { PlanRefusedError, advancePinned } from '../plan-pins.js';
import { defaultDialectPath, dialectMeaning, loadPlanProject } from '../plan-project.js';
import { checkResearchReport, reportDueAt, reportErrorCode } from '../research-report.js';
import { pinnedSource } from '../rule-pins.js';
import { checkStep, patcherFor, stepDialect, withBaseline, type StepCheck } from '../step-effect.js';
import { asCliError, isPlanRunError, logActivity, planStackOptions, requireSessionAt, requireTrigger, sessionJson } from '../task-session.js';
import type { OperationResult } from './invoke.js';
import type { RunPlanInput, StepResultInput } from './orchestrator-input.js';

export type { RunPlanInput, StepResultInput } from './orchestrator-input.js';

// ---------------------------------------------------------------------------------------------
// run plan

/** The plan rejected for its lint errors (the task stays in PLANNING), or accepted and executing. */
export interface RunPlanOutcome {
  accepted: boolean;
  session: Session;
  machine: Machine;
  /** The plan as the project names it (relative to the root). */
  entry: string;
  /** Every finding; errors when rejected, warnings only when accepted. */
  findings: Finding[];
}

/**
 * The orchestrator's PLANNING gate. The plan is linted (FSM, closure, files, call_plan); with errors
 * the task stays in PLANNING (plan_rejected); a clean plan goes on the stack and its first step is
 * the directive. Its for_each_file loops iterate what lint's simulated file system held at each loop
 * (files the plan creates first included), stored in the session for the sub-plans still to be called.
 */
export async function submitPlan(ctx: Context, input: RunPlanInput): Promise<RunPlanOutcome> {
  const { plan, registry, dialect } = input;
  const { file, session, machine } = await requireSessionAt(ctx, input.session);
  requireTrigger(session, 'plan_accepted', machine);

  // A started task is checked against the project's own language: a per-call dialect cannot lower the bar.
  if (dialect !== undefined) {
    const own = defaultDialectPath(ctx.cwd);
    if (dialectMeaning(resolve(ctx.cwd, dialect), ctx.cwd) !== dialectMeaning(own, ctx.cwd)) {
      const source = pinnedSource(ctx.cwd, own);
      const shown = source === undefined ? displayPath(ctx, own) : `${source} (as pinned when the task started)`;
      throw new CliError(`--dialect ${dialect} differs from ${shown} (or the FSM it names): a task's plans are checked against the project's dialect and FSM; drop --dialect, or change the project's protocols`, {
        code: 'dialect-differs',
        file: resolve(ctx.cwd, dialect),
      });
    }
  }
  const project = await loadPlanProject(ctx, plan, { root: ctx.cwd, dialect, registry });
  // Every plan lint reads, as it read it: the run starts from these texts and pins each one
  // ({file} targets included), so a plan edited after this lint is never the one that runs.
  const read = new Map<string, string>();
  const host = {
    readPlan: (rel: string): ReturnType<typeof project.host.readPlan> => {
      const text = read.get(rel) ?? project.host.readPlan(rel);
      if (typeof text === 'string') read.set(rel, text);
      return text;
    },
  };
  // The expansion: what each for_each_file iterates in lint's simulated file system, which the run serves.
  const { findings, expansion } = lintPlan({ ...project, host, expansion: true });
  const now = (): Date => new Date();

  if (hasErrors(findings)) {
    const errors = findings.filter((f) => f.severity === 'error').length;
    const rejected = await file.update((s) => fire(s, 'plan_rejected', { now, machine, message: `${project.entry}: ${errors} lint error(s)` }));
    await logActivity(ctx, rejected, { type: 'PLAN_REJECTED', status: 'FAILURE', message: `${errors} lint error(s)`, details: { plan: project.entry, rules: [...new Set(findings.map((f) => f.ruleId))] } });
    return { accepted: false, session: rejected, machine, entry: project.entry, findings };
  }

  let started: Session;
  // A code-change plan's first step may be its edit: its diff is known before the step is served.
  const patch = await patcherFor(ctx, read.keys());
  try {
    // The registry is remembered: `run done` resolves later call_plan names through the same one.
    started = await file.update((s) => {
      const { registry: _previous, ...next } = startPlan(s, project.entry, { now, machine, registry: project.registry, files: () => [...project.files.list()], readPlan: host.readPlan, expansion });
      // The content that was linted, and the registry it was linted with: a sub-plan that differs when called is refused.
      const pinned = withBaseline(ctx, { ...next, pins: pinsOf(read, project.registry) }, project.dialect, patch);
      return registry === undefined ? pinned : { ...pinned, registry };
    });
  } catch (err) {
    if (isPlanRunError(err)) throw new CliError(err.message, { code: err.code, exitCode: EXIT_PROBLEMS });
    asCliError(err, session);
  }
  await logActivity(ctx, started, { type: 'PLAN_ACCEPTED', status: 'SUCCESS', message: `${project.entry} accepted`, phase: 'PLANNING', details: { plan: project.entry } });
  return { accepted: true, session: started, machine, entry: project.entry, findings };
}

/** task-transition.v1 with the warnings' count (exit 0), or the rejection with its findings (exit 1). */
export function submitPlanResult(_ctx: Context, o: RunPlanOutcome): OperationResult {
  if (!o.accepted) return { exitCode: EXIT_PROBLEMS, document: { ok: false, ...sessionJson(o.session, o.machine), plan: o.entry, findings: JSON.parse(formatJson(o.findings)) as unknown } };
  return { exitCode: EXIT_OK, document: versioned('task-transition', { ok: true, ...sessionJson(o.session, o.machine), plan: o.entry, warnings: o.findings.length, next: nextDirective(o.session) }) };
}

// ---------------------------------------------------------------------------------------------
// run done

/** How a step reported done was checked: on disk, by its message, or taken on trust. */
export type StepVerification = Exclude<StepCheck, { verified: 'refused' }>;

export type RunDoneOutcome =
  /** The step is not done (its effect is not seen, or a research report is missing): nothing changed. */
  | { kind: 'unfinished'; session: Session; machine: Machine; code: string; message: string; file?: string | undefined }
  /** A sub-plan changed since `run plan`: the task went back to PLANNING. */
  | { kind: 'plan-changed'; session: Session; machine: Machine; error: PlanRefusedError }
  /** The step is recorded (done or failed); `runError` when what follows cannot run (the task is in ERROR). */
  | { kind: 'recorded'; session: Session; machine: Machine; step: CurrentStep; failed: boolean; message?: string | undefined; check?: StepVerification | undefined; runError?: Error | undefined };

/**
 * Report the current step's result. Success moves to the next step (into sub-plans, out of finished
 * ones, plan_complete after the last); failure moves the task to ERROR (exit 1: it reports a failure).
 *
 * Before a step is recorded done it is checked for what can be checked (step-effect.ts): a read's file
 * exists, a create's file exists, a write or edit changed its file since the step began (a code-change
 * plan's edit: exactly the diff applied), a delete or move is seen on disk, a scoping step's words are
 * given with the message; not so, the step is refused (exit 1) and stays current. Anything else is
 * taken on trust, and the reply says so. The last step of a research plan (in the research cycle or
 * called as a sub-plan) also needs its report with findings.
 *
 * A sub-plan that cannot be loaded at run time (missing, over the depth limit) is a step failure: the
 * task goes to ERROR with the reason (exit 1). A sub-plan that changed since `run plan` (or one lint
 * never read) is refused: the task goes back to PLANNING (exit 1), and `run plan` lints the new plan
 * whole. In RESEARCHING the step is the research plan's (its own triggers; after its last step the
 * task waits for `research done`).
 */
export async function reportStep(ctx: Context, input: StepResultInput): Promise<RunDoneOutcome> {
  const failed = input.failed === true;
  const message = input.message;
  if (message !== undefined && !failed && message === '') throw new CliError('--message must not be empty');
  const { file, session, machine } = await requireSessionAt(ctx, input.session);
  const triggers = stepTriggers(session);
  const trigger = failed ? triggers.failed : triggers.done;
  // Checked before the trigger so the answer does not depend on timing: a caller that lost a race
  // with the plan's last step gets the same exit 1 as one that came after it.
  const seen = currentStep(session);
  if (seen === undefined) throw noStep(session);
  requireTrigger(session, trigger, machine);
  const dialect = stepDialect(ctx, session);
  const check = failed ? undefined : checkStep(ctx, session, seen, dialect, message);
  if (check?.verified === 'refused') return unfinished(session, machine, seen.line, check.problem);
  // Research is done when its findings are written down: the plan's last step waits for the report.
  const report = failed ? undefined : reportDueAt(session, seen);
  const reportProblem = report === undefined ? undefined : checkResearchReport(ctx, report);
  if (reportProblem !== undefined) {
    const why = `${reportProblem.message}: write the findings of ${seen.planPath} into it`;
    return unfinished(session, machine, seen.line, why, reportErrorCode(reportProblem), report);
  }

  const stackOptions = await planStackOptions(ctx, session.registry);
  // The diff code is loaded only when a plan of this run is a code-change plan (<name>.plan beside <name>.diff).
  const patch = await patcherFor(ctx, [...Object.keys(session.pins?.plans ?? {}), ...session.stack.map((f) => f.planPath)]);
  // The step, the reply and the log entry come from the session as read inside the lock: another
  // `run done` may have advanced it (or completed the plan) since the read above.
  let before: Session = session;
  let step: CurrentStep = seen;
  const inLock = (s: Session): void => {
    const pending = currentStep(s);
    if (pending === undefined) throw noStep(s);
    requireTrigger(s, trigger, machine);
    before = s;
    step = pending;
  };
  let next: Session;
  let runError: Error | undefined;
  try {
    const result = { failed, ...(message !== undefined ? { message } : {}) };
    // Whatever step is current next, its file is recorded as it is now: the next `run done` checks it changed.
    next =
      session.state === 'RESEARCHING'
        ? await file.update((s) => {
            inLock(s);
            return withBaseline(ctx, advanceResearch(s, result, stackOptions), dialect, patch);
          })
        : await advancePinned(file, result, stackOptions, inLock, (s) => withBaseline(ctx, s, stepDialect(ctx, s), patch));
  } catch (err) {
    if (err instanceof PlanRefusedError) return refuseChangedPlan(ctx, file, machine, err);
    if (!isPlanRunError(err)) throw err;
    // The step itself is done; what follows cannot run. Record it as a failure of the task.
    runError = err;
    next = await file.update((s) => moveTo(s, 'ERROR', { now: stackOptions.now, machine, message: err.message }));
  }

  const status = failed || runError ? 'FAILURE' : 'SUCCESS';
  const type = failed || runError ? 'STEP_FAILED' : 'STEP_COMPLETE';
  await logActivity(ctx, before, {
    type,
    status,
    message: runError?.message ?? message ?? step.line,
    details: {
      line: step.line,
      plan: step.planPath,
      chain: step.chain,
      ...(check ? { verified: check.verified === 'trust' ? 'on trust' : check.detail } : {}),
      ...(next.state === 'AWAITING_ANALYSIS' ? { planComplete: true } : {}),
      ...(before.state === 'RESEARCHING' && next.state === 'AWAITING_RESULT' ? { researchPlanComplete: true } : {}),
    },
  });
  return { kind: 'recorded', session: next, machine, step, failed, message, check, runError };
}

/** task-transition.v1 (exit 0; exit 1 for a failed step, a failure report), or the refusal's document (exit 1). */
export function reportStepResult(_ctx: Context, o: RunDoneOutcome): OperationResult {
  const base = sessionJson(o.session, o.machine);
  if (o.kind === 'unfinished') return { exitCode: EXIT_PROBLEMS, document: { ok: false, ...base, error: { code: o.code, message: o.message, ...(o.file !== undefined ? { file: o.file } : {}) } } };
  if (o.kind === 'plan-changed') return { exitCode: EXIT_PROBLEMS, document: { ok: false, ...base, error: { code: o.error.code, message: o.error.message, file: o.error.path }, next: nextDirective(o.session) } };
  const { check, runError } = o;
  return {
    // A failed step is a failure report: exit 1 like any check that found a problem.
    exitCode: o.failed || runError ? EXIT_PROBLEMS : EXIT_OK,
    document: versioned('task-transition', {
      ok: !runError,
      ...base,
      done: o.step,
      ...(check ? { verified: { how: check.verified, detail: check.detail } } : {}),
      ...(runError ? { error: { code: (runError as { code?: string }).code, message: runError.message } } : {}),
      next: nextDirective(o.session),
    }),
  };
}

async function refuseChangedPlan(ctx: Context, file: SessionFile, machine: Machine, err: PlanRefusedError): Promise<RunDoneOutcome> {
  const now = (): Date => new Date();
  const back = await file.update((s) => {
    const { expansion: _unused, stepBaseline: _none, ...planning } = moveTo(s, 'PLANNING', { now, machine, message: err.message });
    return { ...planning, stack: [] };
  });
  await logActivity(ctx, back, { type: 'PLAN_REJECTED', status: 'FAILURE', message: err.message, phase: 'EXECUTING', details: { changed: err.path } });
  return { kind: 'plan-changed', session: back, machine, error: err };
}

function unfinished(session: Session, machine: Machine, line: string, problem: string, code = 'effect-not-seen', file?: string): RunDoneOutcome {
  const message = `\`${line}\` is not done: ${problem}. Do the step, then run \`ratchet run done\` (or \`ratchet run done --failed --message "<why>"\`)`;
  return { kind: 'unfinished', session, machine, code, message, file };
}

/** Nothing to report: the plan finished (perhaps by a concurrent `run done`) or none is running. */
function noStep(session: Session): CliError {
  const directive = nextDirective(session);
  return new CliError(`no step pending: task ${session.taskId} is in ${session.state}. ${directive.instruction} Next: ${directive.commands.join('  or  ')}`, {
    code: 'no-step',
    exitCode: EXIT_PROBLEMS,
  });
}
