import type { Context } from '../../context.js';
import { haltFlowSession, type FlowHaltInput } from '../../operations/flows.js';
import { withInput } from '../../option-values.js';
import { haltInput } from './inputs.js';
import { printView } from './project.js';

/** `ratchet flow halt --session S --reason TEXT`. */
async function halt(ctx: Context, input: FlowHaltInput): Promise<number> {
  return printView(ctx, await haltFlowSession(ctx, input));
}
export default withInput(haltInput, halt);
