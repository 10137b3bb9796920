/**
 * Typed errors. They carry the fields the CLI's error mapper duck-types (`code`, `path`, `reason`,
 * `line`, `column`, `pointer`), so every problem prints as `file:line:col: message` without the CLI
 * importing this package's classes. Loading a protocols directory reports every problem it finds
 * (all files, all schema violations) in `problems`, not just the first.
 */

export type ProtocolErrorCode =
  | 'parse-error'
  | 'schema-violation'
  | 'duplicate-id'
  | 'duplicate-rule-id'
  | 'bad-version'
  | 'bad-schema'
  | 'bad-config'
  | 'unpaired-prose'
  | 'bad-markers'
  | 'unknown-tool'
  | 'unsafe-path'
  | 'not-found'
  | 'edit-failed'
  // Raised by @ratchet/store's guarded reader and carried through unchanged.
  | 'unsafe-input'
  | 'binary-file'
  | 'file-too-large'
  | 'not-a-file'
  | 'io-error';

export interface ProtocolIssue {
  /** RFC 6901 pointer into the protocol JSON. */
  pointer: string;
  message: string;
  line?: number | undefined;
  column?: number | undefined;
}

/** One problem in one file, with its place. */
export interface ProtocolProblem {
  code: ProtocolErrorCode;
  file: string;
  message: string;
  pointer?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
}

export class ProtocolError extends Error {
  readonly code: ProtocolErrorCode;
  readonly path: string;
  readonly reason: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly pointer: string | undefined;
  /** Every schema problem of this file (schema-violation only); the error's own place is the first one's. */
  readonly issues: readonly ProtocolIssue[];
  /** Every problem found (this one first): all files, all schema violations. */
  readonly problems: readonly ProtocolProblem[];

  constructor(
    code: ProtocolErrorCode,
    path: string,
    reason: string,
    place: {
      line?: number | undefined;
      column?: number | undefined;
      pointer?: string | undefined;
      issues?: readonly ProtocolIssue[];
      problems?: readonly ProtocolProblem[];
    } = {},
  ) {
    const where = place.line !== undefined ? `:${place.line}:${place.column ?? 1}` : '';
    super(`${path}${where}: ${reason}`);
    this.name = 'ProtocolError';
    this.code = code;
    this.path = path;
    this.reason = reason;
    this.line = place.line;
    this.column = place.column;
    this.pointer = place.pointer;
    this.issues = place.issues ?? [];
    this.problems = place.problems ?? [{ code, file: path, message: reason, pointer: place.pointer, line: place.line, column: place.column }];
  }
}

/** `/pointer: message` (the pointer only when there is one). */
export function describeProblem(problem: ProtocolProblem): string {
  return problem.pointer !== undefined ? `${problem.pointer === '' ? '(document root)' : problem.pointer}: ${problem.message}` : problem.message;
}

/** One error for a list of problems: the first one's code and place, all of them in `problems`. */
export function problemsError(problems: readonly ProtocolProblem[]): ProtocolError {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
  return new ProtocolError(first.code, first.file, `${describeProblem(first)}${more}`, {
    line: first.line,
    column: first.column,
    pointer: first.pointer,
    issues: problems.filter((p) => p.file === first.file && p.code === 'schema-violation').map((p) => ({ pointer: p.pointer ?? '', message: p.message, line: p.line, column: p.column })),
    problems,
  });
}

/** The problems an error stands for: a ProtocolError's list, or a placed error (the store's) as one. */
export function problemsOf(err: unknown): ProtocolProblem[] | undefined {
  if (err instanceof ProtocolError) return [...err.problems];
  const e = err as { code?: unknown; path?: unknown; reason?: unknown; line?: unknown; column?: unknown; pointer?: unknown; diagnostics?: unknown } | null;
  if (e === null || typeof e !== 'object' || typeof e.code !== 'string' || typeof e.path !== 'string' || typeof e.reason !== 'string') return undefined;
  // An error listing several problems of one file (self-correction's LessonsError): each on its own.
  if (Array.isArray(e.diagnostics) && e.diagnostics.length > 0) {
    const file = e.path;
    const code = e.code as ProtocolErrorCode;
    return (e.diagnostics as { message?: unknown; line?: unknown; column?: unknown }[]).map((d) => ({
      code,
      file,
      message: typeof d.message === 'string' ? d.message : String(d.message),
      line: typeof d.line === 'number' ? d.line : undefined,
      column: typeof d.column === 'number' ? d.column : undefined,
    }));
  }
  return [
    {
      code: e.code as ProtocolErrorCode,
      file: e.path,
      message: e.reason,
      pointer: typeof e.pointer === 'string' ? e.pointer : undefined,
      line: typeof e.line === 'number' ? e.line : undefined,
      column: typeof e.column === 'number' ? e.column : undefined,
    },
  ];
}
