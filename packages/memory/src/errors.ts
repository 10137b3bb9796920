/**
 * Typed errors. The CLI maps them to exit codes: `not-found`, `bad-input`, `duplicate-name` and
 * `unsafe-regex` are input errors (exit 2); a quality-gate refusal is a check result (exit 1),
 * returned, not thrown, by the add functions. `embedder-unavailable`: the transformer embedder is
 * configured but its package or model files are missing (an input error too: the fix is an install).
 */
export type MemoryErrorCode = 'not-found' | 'bad-input' | 'duplicate-name' | 'unsafe-regex' | 'verify-failed' | 'embedder-unavailable';

export class MemoryError extends Error {
  override readonly name = 'MemoryError';
  readonly code: MemoryErrorCode;
  /** The message without context, for `file:line:col: reason` reports. */
  readonly reason: string;
  /** The memory file, when the error is about one. */
  readonly path: string | undefined;

  constructor(code: MemoryErrorCode, reason: string, options: { path?: string } = {}) {
    super(options.path === undefined ? reason : `${options.path}: ${reason}`);
    this.code = code;
    this.reason = reason;
    this.path = options.path;
  }
}
