/**
 * `ratchet goals plan check FILE`: a plan in the seed's format (narrative, then `## Step N: name`
 * sections) parsed and checked by @ratchet/goals. Exit 1 when it has errors, 2 when it cannot be read.
 */
import { resolve } from 'node:path';
import { parsePlan } from '@ratchet/goals';
import { readTextFile } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { countDiagnostics, formatStylish, formatSummary } from '../../output/diagnostics.js';
import { displayPath } from '../../paths.js';
import { makeStyle } from '../../style.js';
import type { Options } from './shared.js';

/** Plans are a page or two; a larger file is not one (and is refused before it is read). */
const MAX_PLAN_BYTES = 1024 * 1024;

export default async function plan(ctx: Context, args: string[], _options: Options): Promise<number> {
  const [command, file] = args;
  if (command !== 'check' || file === undefined) throw new CliError('goals plan check: missing <file>');
  let text: string;
  let shown: string;
  if (file === '-') {
    text = await ctx.io.readStdin();
    shown = '<stdin>';
  } else {
    const read = await readTextFile(resolve(ctx.cwd, file), { maxBytes: MAX_PLAN_BYTES });
    text = read.text;
    shown = displayPath(ctx, read.path);
  }
  const parsed = parsePlan(text);
  if (ctx.json) {
    ctx.emitJson({ file: shown, ...parsed });
    return parsed.ok ? EXIT_OK : EXIT_PROBLEMS;
  }
  const style = makeStyle(ctx.color);
  const diagnostics = parsed.issues.map((i) => ({ ruleId: i.rule, severity: i.severity, message: i.message, pointer: '', line: i.line, column: i.column }));
  for (const line of formatStylish(shown, diagnostics, style)) ctx.out(line);
  if (diagnostics.length > 0) ctx.out(formatSummary(countDiagnostics(diagnostics), style));
  if (parsed.ok) {
    ctx.out(`${style.green('✔')} ${shown}: ${parsed.steps.length} step${parsed.steps.length === 1 ? '' : 's'} in ${parsed.waves.length} wave${parsed.waves.length === 1 ? '' : 's'}`);
    parsed.waves.forEach((w, i) => ctx.out(`  wave ${i + 1}: ${w.map((n) => `Step ${n} (${parsed.steps[n - 1]!.name})`).join(', ')}`));
  }
  return parsed.ok ? EXIT_OK : EXIT_PROBLEMS;
}
