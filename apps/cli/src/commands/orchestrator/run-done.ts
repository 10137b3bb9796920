import { advance, currentStep, moveTo, nextDirective, type CurrentStep, type Session } from '@ratchet/orchestrator';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { isPlanRunError, logActivity, planStackOptions, printDirective, requireSession, requireTrigger, sessionJson } from '../../task-session.js';

/**
 * `ratchet run done [--failed --message M]`: report the current step's result. Success moves to the
 * next step (into sub-plans, out of finished ones, plan_complete after the last); failure moves the
 * task to ERROR. A sub-plan that cannot be loaded at run time (missing, over the depth limit) is a
 * step failure too: the task goes to ERROR with the reason (exit 1).
 */
export default async function runDone(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const failed = options.failed === true;
  const message = options.message as string | undefined;
  if (message !== undefined && !failed && message === '') throw new CliError('--message must not be empty');
  const { file, session } = await requireSession(ctx, options);
  const trigger = failed ? 'step_failed' : 'step_complete';
  // Checked before the trigger so the answer does not depend on timing: a caller that lost a race
  // with the plan's last step gets the same exit 1 as one that came after it.
  if (currentStep(session) === undefined) throw noStep(session);
  requireTrigger(session, trigger);

  const stackOptions = await planStackOptions(ctx, session.registry);
  // The step, the reply and the log entry come from the session as read inside the lock: another
  // `run done` may have advanced it (or completed the plan) since the read above.
  let before: Session = session;
  let step: CurrentStep = currentStep(session)!;
  let runError: Error | undefined;
  const next = await file.update((s) => {
    const pending = currentStep(s);
    if (pending === undefined) throw noStep(s);
    requireTrigger(s, trigger);
    before = s;
    step = pending;
    try {
      return advance(s, { failed, ...(message !== undefined ? { message } : {}) }, stackOptions);
    } catch (err) {
      if (!isPlanRunError(err)) throw err;
      // The step itself is done; what follows cannot run. Record it as a failure of the task.
      runError = err;
      return moveTo(s, 'ERROR', { now: stackOptions.now, message: err.message });
    }
  });

  const status = failed || runError ? 'FAILURE' : 'SUCCESS';
  const type = failed || runError ? 'STEP_FAILED' : 'STEP_COMPLETE';
  await logActivity(ctx, before, {
    type,
    status,
    message: runError?.message ?? message ?? step.line,
    details: { line: step.line, plan: step.planPath, chain: step.chain, ...(next.state === 'AWAITING_ANALYSIS' ? { planComplete: true } : {}) },
  });

  if (ctx.json) {
    ctx.emitJson({ ok: !runError, ...sessionJson(next), done: step, ...(runError ? { error: { code: (runError as { code?: string }).code, message: runError.message } } : {}), next: printDirective({ ...ctx, out: () => undefined }, next) });
  } else {
    if (runError) ctx.io.stderr(`ratchet: ${runError.message}\n`);
    ctx.out(`${failed ? '✘ failed' : '✔ done'}: ${step.line}${failed && message ? ` (${message})` : ''}`);
    printDirective(ctx, next);
  }
  return runError ? EXIT_PROBLEMS : EXIT_OK;
}

/** Nothing to report: the plan finished (perhaps by a concurrent `run done`) or none is running. */
function noStep(session: Session): CliError {
  const directive = nextDirective(session);
  return new CliError(`no step pending: task ${session.taskId} is in ${session.state}. ${directive.instruction} Next: ${directive.commands.join('  or  ')}`, {
    code: 'no-step',
    exitCode: EXIT_PROBLEMS,
  });
}
