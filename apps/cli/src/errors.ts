import { EXIT_USAGE } from './exit-codes.js';
import { versioned } from './output/json-output.js';

/** A failure the user can act on: printed without a stack trace, with a chosen exit code. */
export class CliError extends Error {
  readonly exitCode: number;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly code: string;
  /** Every problem when there are several; `message` sums them up for one-line contexts. */
  readonly problems: ProblemReport[] | undefined;

  constructor(
    message: string,
    options: { exitCode?: number; code?: string; file?: string; line?: number; column?: number; problems?: ProblemReport[] } = {},
  ) {
    super(message);
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? EXIT_USAGE;
    this.code = options.code ?? 'usage';
    this.file = options.file;
    this.line = options.line;
    this.column = options.column;
    this.problems = options.problems;
  }
}

/** The fields @ratchet/store's errors carry (StoreError and subclasses); duck-typed to keep start-up lean. */
interface PlacedError {
  code?: unknown;
  /** The message without the path and place prefix (StoreError.reason). */
  reason?: unknown;
  path?: unknown;
  line?: unknown;
  column?: unknown;
  pointer?: unknown;
  /** Every problem found (jixo-log's JixoParseError and the like); the message names only the first. */
  diagnostics?: unknown;
}

/** One of several problems in the same input, each printed on its own line. */
export interface ProblemReport {
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

export interface ErrorReport {
  code: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  pointer?: string;
  /** Present when the input had more than one error: all of them, in file order. */
  problems?: ProblemReport[];
}

/** Normalise anything thrown by a command into a report that names the file and place. */
export function toErrorReport(err: unknown): ErrorReport {
  if (err instanceof CliError) {
    const report = strip({ code: err.code, message: err.message, file: err.file, line: err.line, column: err.column });
    if (err.problems !== undefined && err.problems.length > 1) report.problems = err.problems;
    return report;
  }
  if (err instanceof Error) {
    const placed = err as Error & PlacedError;
    const report: ErrorReport = {
      code: typeof placed.code === 'string' ? placed.code : 'internal',
      message: typeof placed.reason === 'string' ? placed.reason : err.message,
    };
    if (typeof placed.path === 'string') report.file = placed.path;
    if (typeof placed.line === 'number') report.line = placed.line;
    if (typeof placed.column === 'number') report.column = placed.column;
    if (typeof placed.pointer === 'string') report.pointer = placed.pointer;
    // Only for errors about a file: a diagnostic without one would print as a bare message.
    const problems = report.file === undefined ? [] : errorProblems(placed.diagnostics, report.file);
    if (problems.length > 1) report.problems = problems;
    return report;
  }
  return { code: 'internal', message: String(err) };
}

/**
 * The error-severity entries of a `diagnostics` array that carry a message (warnings are not why
 * the command failed). Items without a line keep the file alone.
 */
function errorProblems(diagnostics: unknown, file: string | undefined): ProblemReport[] {
  if (!Array.isArray(diagnostics)) return [];
  const out: ProblemReport[] = [];
  for (const d of diagnostics as unknown[]) {
    if (d === null || typeof d !== 'object') continue;
    const { message, severity, line, column } = d as Record<string, unknown>;
    if (typeof message !== 'string' || (severity !== undefined && severity !== 'error')) continue;
    const problem: ProblemReport = { message };
    if (file !== undefined) problem.file = file;
    if (typeof line === 'number') problem.line = line;
    if (typeof column === 'number') problem.column = column;
    out.push(problem);
  }
  return out;
}

/**
 * `file:line:col: message` — the form editors and terminals turn into links. Several problems in
 * one input print one per line, so a user fixes them all in one pass instead of one per run.
 */
export function formatErrorReport(report: ErrorReport): string {
  if (report.problems !== undefined) return report.problems.map(formatPlaced).join('\n');
  return formatPlaced(report);
}

function formatPlaced(report: { message: string; file?: string | undefined; line?: number | undefined; column?: number | undefined }): string {
  if (report.file === undefined) return `ratchet: ${report.message}`;
  let place = report.file;
  if (report.line !== undefined) {
    place += `:${report.line}`;
    if (report.column !== undefined) place += `:${report.column}`;
  }
  return `${place}: ${report.message}`;
}

/** Store errors that mean "the input is bad" (exit 2) rather than a bug in Ratchet. */
export function isInputError(err: unknown): boolean {
  if (err instanceof CliError) return true;
  if (!(err instanceof Error)) return false;
  const placed = err as Error & PlacedError;
  return typeof placed.path === 'string' && typeof placed.code === 'string';
}

function strip(report: ErrorReport): ErrorReport {
  const out: ErrorReport = { code: report.code, message: report.message };
  if (report.file !== undefined) out.file = report.file;
  if (report.line !== undefined) out.line = report.line;
  if (report.column !== undefined) out.column = report.column;
  return out;
}

/** The exit code of an unexpected exception: a bug in Ratchet (EX_SOFTWARE). */
export const EXIT_INTERNAL = 70;

/** How every face reports a failure: the exit code, the `--json` error document and its one-line text. */
export interface Failure {
  exitCode: number;
  document: { $schema: string; ok: false; error: ErrorReport };
  /** The message as the CLI prints it on stderr (`file:line:col: message`). */
  text: string;
  /** Not an input error: an unexpected exception, whose stack should be shown. */
  internal: boolean;
}

/**
 * `show`: how the face names a file (paths.ts `shownPath`: relative to --cwd when inside it, as every
 * other message names files; libraries report the absolute path they opened). A parameter, so this
 * module stays free of Node's modules: the dashboard's browser code shares it.
 */
export function failureOf(err: unknown, show: (path: string) => string = (path) => path): Failure {
  const report = toErrorReport(err);
  if (report.file !== undefined) report.file = show(report.file);
  for (const p of report.problems ?? []) if (p.file !== undefined) p.file = show(p.file);
  const document = versioned('error', { ok: false as const, error: report });
  if (isInputError(err)) return { exitCode: err instanceof CliError ? err.exitCode : EXIT_USAGE, document, text: formatErrorReport(report), internal: false };
  return { exitCode: EXIT_INTERNAL, document, text: `internal error: ${report.message}`, internal: true };
}
