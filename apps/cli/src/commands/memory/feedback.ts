import type { Context } from '../../context.js';
import { giveMemoryFeedback, memoryFeedbackResult, type MemoryFeedbackInput } from '../../operations/memory.js';
import { withInput } from '../../option-values.js';
import { feedbackInput } from './inputs.js';

/** `ratchet memory feedback <name> --helped|--failed`. */
async function feedback(ctx: Context, input: MemoryFeedbackInput): Promise<number> {
  const given = await giveMemoryFeedback(ctx, input);
  const result = memoryFeedbackResult(given);
  const { name, outcome, entry: e, helpRatio } = given;
  if (ctx.json) ctx.emitJson(result.document);
  else ctx.out(`${name}: ${outcome} (helped ${e.times_helped}, failed ${e.times_failed}; help ratio ${helpRatio.toFixed(2)})`);
  return result.exitCode;
}
export default withInput(feedbackInput, feedback);
