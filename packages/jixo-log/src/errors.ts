/**
 * Typed errors. They carry `code`, `reason` (the message without the place) and, when a file is
 * concerned, `path`/`line`/`column`, the fields the CLI maps to `file:line:col: message` and exit 2.
 */
import type { Diagnostic } from './types.js';

export type JixoErrorCode =
  | 'parse-error'
  | 'illegal-transition'
  | 'unknown-task'
  | 'not-a-task'
  | 'wrong-runner'
  | 'lock-not-held'
  | 'already-locked'
  | 'bad-argument'
  | 'unknown-clarification'
  | 'not-planner'
  | 'rejected-edit';

export class JixoError extends Error {
  readonly code: JixoErrorCode;
  readonly reason: string;
  readonly path: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  constructor(code: JixoErrorCode, reason: string, place: { path?: string | undefined; line?: number | undefined; column?: number | undefined } = {}) {
    const where = place.path === undefined ? '' : `${place.path}${place.line === undefined ? '' : `:${place.line}:${place.column ?? 1}`}: `;
    super(`${where}${reason}`);
    this.name = 'JixoError';
    this.code = code;
    this.reason = reason;
    this.path = place.path;
    this.line = place.line;
    this.column = place.column;
  }
}

/** A file with error diagnostics: never rewritten. `line`/`column` are the first error's. */
export class JixoParseError extends JixoError {
  readonly diagnostics: Diagnostic[];
  constructor(path: string | undefined, diagnostics: Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    const first = errors[0] ?? diagnostics[0];
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    super('parse-error', `${first?.message ?? 'does not parse'}${more}`, { path, line: first?.line, column: first?.column });
    this.name = 'JixoParseError';
    this.diagnostics = diagnostics;
  }
}

/** A task status move the state machine does not allow. */
export class IllegalTransitionError extends JixoError {
  readonly taskId: string;
  readonly from: string;
  readonly to: string;
  readonly legal: readonly string[];
  constructor(taskId: string, from: string, to: string, legal: readonly string[]) {
    super('illegal-transition', `task ${taskId}: ${from} -> ${to} is not allowed; from ${from} the task can go to ${legal.length > 0 ? legal.join(', ') : '(nothing: final)'}`);
    this.name = 'IllegalTransitionError';
    this.taskId = taskId;
    this.from = from;
    this.to = to;
    this.legal = legal;
  }
}
