import type { Machine } from '@ratchet/fsm-core';
import { advanceResearch, currentStep, moveTo, nextDirective, stepTriggers, type CurrentStep, type Session, type SessionFile } from '@ratchet/orchestrator';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { PlanRefusedError, advancePinned } from '../../plan-pins.js';
import { checkResearchReport, reportDueAt, reportErrorCode } from '../../research-report.js';
import { checkStep, patcherFor, stepDialect, withBaseline, type StepCheck } from '../../step-effect.js';
import { isPlanRunError, logActivity, planStackOptions, printDirective, requireSession, requireTrigger, sessionJson } from '../../task-session.js';
import { versioned } from '../../output/json-output.js';

/**
 * `ratchet run done [--failed --message M]`: report the current step's result. Success moves to the
 * next step (into sub-plans, out of finished ones, plan_complete after the last); failure moves the
 * task to ERROR and exits 1 (it reports a failure).
 *
 * Before a step is recorded done it is checked for what can be checked (step-effect.ts): a read's file
 * exists, a create's file exists, a write or edit changed its file since the step began (a code-change
 * plan's edit: exactly the diff applied), a delete or move is seen on disk, a scoping step's words are
 * given with --message; not so, the step is refused (exit 1) and stays current. Anything else is
 * taken on trust, and the reply says so. The last step of a research plan (in the research cycle or
 * called as a sub-plan) also needs its report with findings.
 *
 * A sub-plan that cannot be loaded at run time (missing, over the depth limit) is a step failure: the
 * task goes to ERROR with the reason (exit 1). A sub-plan that changed since `run plan` (or one lint
 * never read) is refused: the task goes back to PLANNING (exit 1), and `run plan` lints the new plan
 * whole. In RESEARCHING the step is the research plan's (its own triggers; after its last step the
 * task waits for `research done`).
 */
export default async function runDone(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const failed = options.failed === true;
  const message = options.message as string | undefined;
  if (message !== undefined && !failed && message === '') throw new CliError('--message must not be empty');
  const { file, session, machine } = await requireSession(ctx, options);
  const triggers = stepTriggers(session);
  const trigger = failed ? triggers.failed : triggers.done;
  // Checked before the trigger so the answer does not depend on timing: a caller that lost a race
  // with the plan's last step gets the same exit 1 as one that came after it.
  const seen = currentStep(session);
  if (seen === undefined) throw noStep(session);
  requireTrigger(session, trigger, machine);
  const dialect = stepDialect(ctx, session);
  const check = failed ? undefined : checkStep(ctx, session, seen, dialect, message);
  if (check?.verified === 'refused') return refuseUnfinishedStep(ctx, session, machine, seen.line, check.problem);
  // Research is done when its findings are written down: the plan's last step waits for the report.
  const report = failed ? undefined : reportDueAt(session, seen);
  const reportProblem = report === undefined ? undefined : checkResearchReport(ctx, report);
  if (reportProblem !== undefined) {
    const why = `${reportProblem.message}: write the findings of ${seen.planPath} into it`;
    return refuseUnfinishedStep(ctx, session, machine, seen.line, why, reportErrorCode(reportProblem), report);
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

  if (ctx.json) {
    ctx.emitJson(
      versioned('task-transition', {
        ok: !runError,
        ...sessionJson(next, machine),
        done: step,
        ...(check ? { verified: verifiedJson(check) } : {}),
        ...(runError ? { error: { code: (runError as { code?: string }).code, message: runError.message } } : {}),
        next: printDirective({ ...ctx, out: () => undefined }, next),
      }),
    );
  } else {
    if (runError) ctx.io.stderr(`ratchet: ${runError.message}\n`);
    ctx.out(failed ? `✘ failed: ${step.line}${message ? ` (${message})` : ''}` : `✔ done: ${step.line}${check ? ` ${verifiedText(check)}` : ''}`);
    printDirective(ctx, next);
  }
  // A failed step is a failure report: exit 1 like any check that found a problem.
  return failed || runError ? EXIT_PROBLEMS : EXIT_OK;
}

/** What the reply says about the check: `(checked: src/a.ts changed)` or `(taken on trust: ...)`. */
function verifiedText(check: Exclude<StepCheck, { verified: 'refused' }>): string {
  return check.verified === 'trust' ? `(taken on trust: ${check.detail})` : `(checked: ${check.detail})`;
}

function verifiedJson(check: Exclude<StepCheck, { verified: 'refused' }>): { how: 'disk' | 'message' | 'trust'; detail: string } {
  return { how: check.verified, detail: check.detail };
}

async function refuseChangedPlan(ctx: Context, file: SessionFile, machine: Machine, err: PlanRefusedError): Promise<number> {
  const now = (): Date => new Date();
  const back = await file.update((s) => {
    const { expansion: _unused, stepBaseline: _none, ...planning } = moveTo(s, 'PLANNING', { now, machine, message: err.message });
    return { ...planning, stack: [] };
  });
  await logActivity(ctx, back, { type: 'PLAN_REJECTED', status: 'FAILURE', message: err.message, phase: 'EXECUTING', details: { changed: err.path } });
  if (ctx.json) ctx.emitJson({ ok: false, ...sessionJson(back, machine), error: { code: err.code, message: err.message, file: err.path }, next: printDirective({ ...ctx, out: () => undefined }, back) });
  else {
    ctx.io.stderr(`ratchet: ${err.message}\n`);
    printDirective(ctx, back);
  }
  return EXIT_PROBLEMS;
}

function refuseUnfinishedStep(ctx: Context, session: Session, machine: Machine, line: string, problem: string, code = 'effect-not-seen', file?: string): number {
  const message = `\`${line}\` is not done: ${problem}. Do the step, then run \`ratchet run done\` (or \`ratchet run done --failed --message "<why>"\`)`;
  if (ctx.json) ctx.emitJson({ ok: false, ...sessionJson(session, machine), error: { code, message, ...(file !== undefined ? { file } : {}) } });
  else ctx.io.stderr(`ratchet: ${message}\n`);
  return EXIT_PROBLEMS;
}

/** Nothing to report: the plan finished (perhaps by a concurrent `run done`) or none is running. */
function noStep(session: Session): CliError {
  const directive = nextDirective(session);
  return new CliError(`no step pending: task ${session.taskId} is in ${session.state}. ${directive.instruction} Next: ${directive.commands.join('  or  ')}`, {
    code: 'no-step',
    exitCode: EXIT_PROBLEMS,
  });
}
