import type { Context } from '../../context.js';
import { completeFlowBranch, type FlowBranchInput } from '../../operations/flows.js';
import { withInput } from '../../option-values.js';
import { branchInput } from './inputs.js';
import { printView } from './project.js';

/** `ratchet flow complete-branch STEP:BRANCH --session S`. */
async function completeBranchCommand(ctx: Context, input: FlowBranchInput): Promise<number> {
  return printView(ctx, await completeFlowBranch(ctx, input));
}
export default withInput(branchInput, completeBranchCommand);
