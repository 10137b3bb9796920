/**
 * Typed errors. They carry the fields the CLI's error mapper duck-types (`code`, `path`, `reason`,
 * `line`, `column`, `pointer`), so every problem prints as `file:line:col: message` without the CLI
 * importing this package's classes.
 */

export type ProtocolErrorCode =
  | 'parse-error'
  | 'schema-violation'
  | 'duplicate-id'
  | 'bad-version'
  | 'bad-schema'
  | 'unpaired-prose'
  | 'bad-markers'
  | 'not-found'
  | 'edit-failed';

export interface ProtocolIssue {
  /** RFC 6901 pointer into the protocol JSON. */
  pointer: string;
  message: string;
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
  /** Every schema problem (schema-violation only); the error's own place is the first one's. */
  readonly issues: readonly ProtocolIssue[];

  constructor(
    code: ProtocolErrorCode,
    path: string,
    reason: string,
    place: { line?: number | undefined; column?: number | undefined; pointer?: string | undefined; issues?: readonly ProtocolIssue[] } = {},
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
  }
}
