import type { Context } from '../../context.js';
import { reportStep, reportStepResult, type StepResultInput, type StepVerification } from '../../operations/orchestrator-run.js';
import { withInput } from '../../option-values.js';
import { printDirective } from '../../task-session.js';
import { stepResultInput } from './inputs.js';

/**
 * `ratchet run done [--failed --message M]`: report the current step's result
 * (src/operations/orchestrator-run.ts: what is checked before a step is recorded done, and what a
 * changed or missing sub-plan does). A failed step exits 1; so does a step refused as not done.
 */
async function runDone(ctx: Context, input: StepResultInput): Promise<number> {
  const outcome = await reportStep(ctx, input);
  const result = reportStepResult(ctx, outcome);
  if (ctx.json) {
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  if (outcome.kind === 'unfinished') {
    ctx.io.stderr(`ratchet: ${outcome.message}\n`);
    return result.exitCode;
  }
  if (outcome.kind === 'plan-changed') {
    ctx.io.stderr(`ratchet: ${outcome.error.message}\n`);
    printDirective(ctx, outcome.session);
    return result.exitCode;
  }
  const { step, check, message, runError } = outcome;
  if (runError) ctx.io.stderr(`ratchet: ${runError.message}\n`);
  ctx.out(outcome.failed ? `✘ failed: ${step.line}${message ? ` (${message})` : ''}` : `✔ done: ${step.line}${check ? ` ${verifiedText(check)}` : ''}`);
  printDirective(ctx, outcome.session);
  return result.exitCode;
}

/** What the reply says about the check: `(checked: src/a.ts changed)` or `(taken on trust: ...)`. */
function verifiedText(check: StepVerification): string {
  return check.verified === 'trust' ? `(taken on trust: ${check.detail})` : `(checked: ${check.detail})`;
}

export default withInput(stepResultInput, runDone);
