/**
 * Typed errors. Field names match @ratchet/store's errors (`code`, `path`, `reason`, `line`,
 * `column`, `pointer`) so the CLI reports both the same way: `file:line:col: reason`, exit 2.
 * A gate that does not hold is not an error: it is a refusal result (see runner.ts).
 */

export type FlowErrorCode =
  | 'flow-parse-error'
  | 'invalid-flow'
  | 'invalid-settings'
  | 'unknown-flow'
  | 'missing-content'
  | 'unknown-session'
  | 'session-exists'
  | 'bad-session-id'
  | 'session-not-active'
  | 'artifact-outside-project'
  | 'bad-input'
  | 'wrong-step-type'
  | 'unknown-branch'
  | 'flow-changed'
  | 'user-required';

/** One problem in a flow file, addressed by JSON pointer (and placed in the file when known). */
export interface FlowProblem {
  pointer: string;
  message: string;
  line?: number;
  column?: number;
}

export class FlowError extends Error {
  readonly code: FlowErrorCode;
  /** The message without the path and place prefix. */
  readonly reason: string;
  readonly path: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly pointer: string | undefined;
  /** Every problem, for `invalid-flow` (the message shows the first). */
  readonly problems: readonly FlowProblem[];

  constructor(
    code: FlowErrorCode,
    reason: string,
    place: { path?: string | undefined; line?: number | undefined; column?: number | undefined; pointer?: string | undefined; problems?: readonly FlowProblem[] } = {},
  ) {
    const where = place.line !== undefined ? ` (line ${place.line}, column ${place.column ?? 1})` : place.pointer !== undefined ? ` (at ${place.pointer || '/'})` : '';
    super(place.path !== undefined ? `${place.path}: ${reason}${where}` : `${reason}${where}`);
    this.name = 'FlowError';
    this.code = code;
    this.reason = reason;
    this.path = place.path;
    this.line = place.line;
    this.column = place.column;
    this.pointer = place.pointer;
    this.problems = place.problems ?? [];
  }
}
