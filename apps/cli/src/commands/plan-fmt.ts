import { formatPlan } from '@ratchet/plan-lint';
import { readTextFileSync, writeFileAtomic } from '@ratchet/store';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK } from '../exit-codes.js';
import { withInput } from '../option-values.js';
import { displayPath, resolvePath } from '../paths.js';
import { PLAN_MAX_BYTES } from '../plan-project.js';
import { planFmtInput, type PlanFmtInput } from './plan-inputs.js';

/**
 * `ratchet plan fmt <plan> [--write]`: the plan in the one canonical grammar (one command per line),
 * whichever of the two Jules grammars it was written in. A plan with a syntax error is refused with
 * its place (exit 2) and never rewritten: formatting must not turn a mistake into something else.
 */
async function planFmt(ctx: Context, { plan, write }: PlanFmtInput): Promise<number> {
  const abs = resolvePath(ctx, plan);
  const file = displayPath(ctx, abs);
  // The guarded read (size, binary, UTF-8) drops a BOM; the rewrite never writes one back.
  const { text: source } = readTextFileSync(abs, { maxBytes: PLAN_MAX_BYTES });
  const result = formatPlan(source, file);
  const first = result.errors[0];
  if (first !== undefined) {
    const more = result.errors.length > 1 ? ` (and ${result.errors.length - 1} more)` : '';
    throw new CliError(`${first.message} [${first.ruleId}]${more}; not formatted`, {
      file: abs,
      line: first.line,
      column: first.column,
      code: 'plan-syntax',
      problems: result.errors.map((e) => ({ message: `${e.message} [${e.ruleId}]`, file: abs, line: e.line, column: e.column })),
    });
  }
  const [lossy] = result.multiLineArguments;
  if (write && lossy !== undefined) {
    // The one-line form joins argument lines with spaces: a file's content would lose its line breaks.
    throw new CliError(`the command here has arguments on ${result.multiLineArguments.length > 1 ? 'several' : 'more than one'} line(s); the one-line grammar would join them with spaces and lose the line breaks, so the plan is not rewritten (plan lint reads it as it is)`, {
      file: abs,
      line: lossy,
      column: 1,
      code: 'plan-fmt-lossy',
    });
  }
  if (write && result.changed) await writeFileAtomic(abs, result.text);
  if (ctx.json) ctx.emitJson({ file, grammar: result.grammar, changed: result.changed, written: write && result.changed, ...(write ? {} : { text: result.text }) });
  else if (write) ctx.out(result.changed ? `formatted ${file} (${result.grammar} grammar -> one command per line)` : `${file}: already formatted`);
  else ctx.io.stdout(result.text);
  return EXIT_OK;
}
export default withInput(planFmtInput, planFmt);
