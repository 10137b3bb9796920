/** Stylish (eslint-like) text for placed diagnostics, grouped by file, with a summary line. */
import type { Style } from '../style.js';

/** What the stylish format needs of a diagnostic (an FSM check's, a goals plan check's...). */
export interface StylishDiagnostic {
  ruleId: string;
  severity: 'error' | 'warning';
  message: string;
  /** Shown when there is no line. */
  pointer: string;
  line?: number | undefined;
  column?: number | undefined;
}

export interface DiagnosticCounts {
  errors: number;
  warnings: number;
}

export function countDiagnostics(diagnostics: readonly Pick<StylishDiagnostic, 'severity'>[]): DiagnosticCounts {
  let errors = 0;
  let warnings = 0;
  for (const d of diagnostics) {
    if (d.severity === 'error') errors++;
    else warnings++;
  }
  return { errors, warnings };
}

export function formatStylish(file: string, diagnostics: readonly StylishDiagnostic[], style: Style): string[] {
  if (diagnostics.length === 0) return [];
  const lines = [style.underline(file)];
  const places = diagnostics.map((d) => (d.line === undefined ? (d.pointer === '' ? '/' : d.pointer) : `${d.line}:${d.column ?? 1}`));
  const width = Math.max(...places.map((p) => p.length));
  diagnostics.forEach((d, i) => {
    const severity = d.severity === 'error' ? style.red('error  ') : style.yellow('warning');
    lines.push(`  ${style.dim((places[i] ?? '').padEnd(width))}  ${severity}  ${d.message}  ${style.dim(d.ruleId)}`);
  });
  lines.push('');
  return lines;
}

export function formatSummary(counts: DiagnosticCounts, style: Style): string {
  const total = counts.errors + counts.warnings;
  const text = `${total} problem${total === 1 ? '' : 's'} (${counts.errors} error${counts.errors === 1 ? '' : 's'}, ${counts.warnings} warning${counts.warnings === 1 ? '' : 's'})`;
  return counts.errors > 0 ? style.red(style.bold(`✖ ${text}`)) : style.yellow(style.bold(`⚠ ${text}`));
}
