import type { Context } from '../context.js';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from '../exit-codes.js';
import { loadFsmFileAny, type PlacedDiagnostic } from '../fsm-file.js';
import { countDiagnostics, formatStylish, formatSummary } from '../output/diagnostics.js';
import { makeStyle } from '../style.js';
import { formatErrorReport, isInputError, toErrorReport, type ErrorReport } from '../errors.js';
import { withInput } from '../option-values.js';
import { fsmCheckInput, type FsmCheckInput } from './fsm-inputs.js';

interface FileResult {
  file: string;
  states?: number;
  symbols?: number;
  diagnostics: PlacedDiagnostic[];
  error?: ErrorReport;
}

/** `ratchet fsm check <file...>`: every problem in every file; one unreadable file does not hide the others. */
async function fsmCheck(ctx: Context, { files, strict }: FsmCheckInput): Promise<number> {
  const style = makeStyle(ctx.color);
  const results: FileResult[] = [];
  for (const path of files) {
    try {
      const loaded = await loadFsmFileAny(ctx, path);
      const result: FileResult = { file: loaded.file, diagnostics: loaded.diagnostics };
      if (loaded.machine) {
        result.states = loaded.machine.states.length;
        result.symbols = loaded.machine.alphabet.length;
      }
      results.push(result);
    } catch (err) {
      if (!isInputError(err)) throw err;
      results.push({ file: path, diagnostics: [], error: toErrorReport(err) });
    }
  }

  const all = results.flatMap((r) => r.diagnostics);
  const counts = countDiagnostics(all);
  const unreadable = results.filter((r) => r.error !== undefined).length;
  const failed = counts.errors > 0 || (strict && counts.warnings > 0);
  const exitCode = unreadable > 0 ? EXIT_USAGE : failed ? EXIT_PROBLEMS : EXIT_OK;

  if (ctx.json) {
    ctx.emitJson({ ok: exitCode === EXIT_OK, errorCount: counts.errors, warningCount: counts.warnings, files: results });
    return exitCode;
  }
  for (const r of results) {
    if (r.error) {
      ctx.io.stderr(`${formatErrorReport(r.error)}\n`);
      continue;
    }
    for (const line of formatStylish(r.file, r.diagnostics, style)) ctx.out(line);
    if (r.diagnostics.length === 0) ctx.out(`${style.green('✔')} ${r.file}: ${r.states} states, ${r.symbols} symbols, no problems`);
  }
  if (all.length > 0) ctx.out(formatSummary(counts, style));
  return exitCode;
}
export default withInput(fsmCheckInput, fsmCheck);
