import type { Context } from '../../context.js';
import { checkJixoFile, checkJixoFileResult } from '../../operations/jixo.js';
import type { JixoCheckInput } from '../../operations/jixo-input.js';
import { withInput } from '../../option-values.js';
import { checkInput } from './inputs.js';

/** `ratchet jixo check <file>`: every diagnostic of a log or job file, with its line (exit 1 on errors). */
async function check(ctx: Context, input: JixoCheckInput): Promise<number> {
  const checked = await checkJixoFile(ctx, input);
  const result = checkJixoFileResult(checked);
  if (ctx.json) ctx.emitJson(result.document);
  else {
    for (const d of checked.diagnostics) ctx.out(`${checked.file}:${d.line}:${d.column}: ${d.severity} ${d.message} (${d.rule})`);
    if (checked.diagnostics.length === 0) ctx.out(`${checked.file}: ok`);
  }
  return result.exitCode;
}
export default withInput(checkInput, check);
