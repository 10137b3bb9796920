import type { Context } from '../../context.js';
import { startFlowSession, type FlowStartInput } from '../../operations/flows.js';
import { withInput } from '../../option-values.js';
import { startInput } from './inputs.js';
import { printView } from './project.js';

/** `ratchet flow start <flow> --session S [--input k=v] [--agent] [--then FLOW]`. */
async function start(ctx: Context, input: FlowStartInput): Promise<number> {
  return printView(ctx, await startFlowSession(ctx, input));
}
export default withInput(startInput, start);
