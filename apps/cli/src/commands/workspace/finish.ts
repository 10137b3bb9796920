import type { Context } from '../../context.js';
import { blockTaskWorkspace, completeTaskWorkspace, showWorkspaceResult } from '../../operations/workspace.js';
import { withInput } from '../../option-values.js';
import { displayPath } from '../../paths.js';
import { finishInput, type FinishInput } from './inputs.js';

/** `ratchet workspace complete|block SEQ ...` */
async function finish(ctx: Context, { outcome, input }: FinishInput): Promise<number> {
  const finished = outcome === 'block' ? await blockTaskWorkspace(ctx, input) : await completeTaskWorkspace(ctx, input);
  const result = showWorkspaceResult(ctx, finished);
  if (ctx.json) ctx.emitJson(result.document);
  else ctx.out(`${finished.record.status} ${displayPath(ctx, finished.path)}`);
  return result.exitCode;
}
export default withInput(finishInput, finish);
