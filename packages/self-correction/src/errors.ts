/**
 * Typed errors with the fields the CLI's error mapper duck-types (`code`, `path`, `reason`, `line`,
 * `column`), so they print as `file:line:col: message` and exit 2.
 */
export type LessonsErrorCode = 'no-section' | 'no-substance' | 'unsafe-path' | 'diff-does-not-apply' | 'bad-diff' | 'unknown-lesson' | 'bad-lesson';

/** One of several problems an error carries (the CLI prints each as `file:line:col: message`). */
export interface LessonsDiagnostic {
  message: string;
  line?: number | undefined;
  column?: number | undefined;
}

export class LessonsError extends Error {
  readonly code: LessonsErrorCode;
  readonly path: string;
  readonly reason: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** Every problem found, in file order (the message names the first). */
  readonly diagnostics: LessonsDiagnostic[] | undefined;

  constructor(code: LessonsErrorCode, path: string, reason: string, place: { line?: number | undefined; column?: number | undefined } = {}, diagnostics?: LessonsDiagnostic[]) {
    super(`${path}${place.line !== undefined ? `:${place.line}:${place.column ?? 1}` : ''}: ${reason}`);
    this.name = 'LessonsError';
    this.code = code;
    this.path = path;
    this.reason = reason;
    this.line = place.line;
    this.column = place.column;
    this.diagnostics = diagnostics;
  }
}
