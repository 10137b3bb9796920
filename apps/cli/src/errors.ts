import { EXIT_USAGE } from './exit-codes.js';

/** A failure the user can act on: printed without a stack trace, with a chosen exit code. */
export class CliError extends Error {
  readonly exitCode: number;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly code: string;

  constructor(
    message: string,
    options: { exitCode?: number; code?: string; file?: string; line?: number; column?: number } = {},
  ) {
    super(message);
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? EXIT_USAGE;
    this.code = options.code ?? 'usage';
    this.file = options.file;
    this.line = options.line;
    this.column = options.column;
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
}

export interface ErrorReport {
  code: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  pointer?: string;
}

/** Normalise anything thrown by a command into a report that names the file and place. */
export function toErrorReport(err: unknown): ErrorReport {
  if (err instanceof CliError) {
    return strip({ code: err.code, message: err.message, file: err.file, line: err.line, column: err.column });
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
    return report;
  }
  return { code: 'internal', message: String(err) };
}

/** `file:line:col: message` — the form editors and terminals turn into links. */
export function formatErrorReport(report: ErrorReport): string {
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
