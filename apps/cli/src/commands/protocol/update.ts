import type { Context } from '../../context.js';
import { updateProtocolResult, updateProtocolSource, type ProtocolUpdated, type UpdateProtocolInput } from '../../operations/protocol.js';
import { withInput } from '../../option-values.js';
import { updateInput } from './inputs.js';
import { displayPath, reportProblems } from './shared.js';

/** `ratchet protocol update add-tool|update-rule|deprecate-tool ...` */
async function update(ctx: Context, input: UpdateProtocolInput): Promise<number> {
  let updated: ProtocolUpdated;
  try {
    updated = await updateProtocolSource(ctx, input);
  } catch (err) {
    return reportProblems(ctx, err);
  }
  const { dryRun, result } = updated;
  const outcome = updateProtocolResult(ctx, updated);
  const file = displayPath(ctx, result.file);
  if (ctx.json) ctx.emitJson(outcome.document);
  else {
    ctx.out(`${file}: ${result.message}${!result.changed ? ' (nothing to change)' : dryRun ? ' (dry run: not written)' : ''}`);
    if (dryRun && result.diff !== '') ctx.out(result.diff.trimEnd());
    if (result.changed && !dryRun) ctx.note('run `ratchet protocol compile` to update AGENTS.md');
  }
  return outcome.exitCode;
}
export default withInput(updateInput, update);
