/**
 * Typed errors. The library throws, never prints. Errors about a file carry `path` and, when known,
 * `line`/`column`/`pointer`, with `reason` being the message without the place (the CLI's error
 * mapper reads these fields, as it does for @ratchet/store's errors).
 */
export type GoalsErrorCode =
  | 'invalid-registry'
  | 'invalid-input'
  | 'unsafe-input'
  | 'not-found'
  | 'duplicate-id'
  | 'conflict'
  | 'owner-violation'
  | 'invalid-transition'
  | 'confirmation-required'
  | 'completion-guard'
  | 'deprecated-type'
  | 'proposal-state'
  | 'turn-mismatch'
  | 'plan-state'
  | 'scratch-state'
  | 'untrusted-registry'
  | 'trace-state'
  | 'scope-violation';

export interface RegistryIssue {
  pointer: string;
  message: string;
  line?: number | undefined;
  column?: number | undefined;
}

export class GoalsError extends Error {
  readonly code: GoalsErrorCode;
  readonly reason: string;
  readonly path: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** Where in the input: a JSON pointer (set at construction, or once by `at` by whoever knows the input). */
  pointer: string | undefined;
  /** Every problem found, each with its pointer (validation of a whole input); the message shows the first. */
  readonly issues: readonly RegistryIssue[];

  constructor(
    code: GoalsErrorCode,
    reason: string,
    place: { path?: string | undefined; line?: number | undefined; column?: number | undefined; pointer?: string | undefined; issues?: readonly RegistryIssue[] | undefined } = {},
  ) {
    let message = reason;
    if (place.path !== undefined) {
      const at = [place.line !== undefined ? `line ${place.line}, column ${place.column ?? 1}` : undefined, place.pointer !== undefined && place.pointer !== '' ? `at ${place.pointer}` : undefined].filter(Boolean);
      message = `${place.path}: ${reason}${at.length > 0 ? ` (${at.join(', ')})` : ''}`;
    }
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.reason = reason;
    this.path = place.path;
    this.line = place.line;
    this.column = place.column;
    this.pointer = place.pointer;
    this.issues = place.issues ?? [];
  }

  /** Place the error in the input it came from (e.g. `/new_actions/1` of a turn commit), unless it is placed already. */
  at(pointer: string): this {
    if (this.pointer === undefined) {
      this.pointer = pointer;
      if (this.path === undefined) this.message = `${this.reason} (at ${pointer})`;
    }
    return this;
  }
}

/** A registry that does not validate: every problem, each with its pointer (and line/column from a file). */
export class RegistryError extends GoalsError {
  constructor(issues: readonly RegistryIssue[], path?: string) {
    const first = issues[0];
    super('invalid-registry', `invalid action-type registry: ${first?.message ?? 'no details'}${more(issues)}`, { path, line: first?.line, column: first?.column, pointer: first?.pointer, issues });
  }
}

const more = (issues: readonly unknown[]): string => (issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '');

/** `expected_version` did not match: someone else committed first. Re-read and retry (see `withRetry`). */
export class ConflictError extends GoalsError {
  readonly expected: number;
  readonly actual: number;
  constructor(expected: number, actual: number, path?: string) {
    super('conflict', `version conflict: expected version ${expected}, the state is at version ${actual}; re-read and retry`, { path });
    this.expected = expected;
    this.actual = actual;
  }
}

/** The agent tried to complete a user-owned item, or to own a type it may not. */
export class OwnerError extends GoalsError {
  constructor(reason: string) {
    super('owner-violation', reason);
  }
}

/**
 * The agent acted under a registry the user has not approved: a file other than the project's, or
 * the project's file changed since a user last merged (or first used) it. Owner rules come from the
 * registry, so an agent that could edit it could grant itself anything.
 */
export class UntrustedRegistryError extends GoalsError {
  constructor(path: string, reason: string) {
    super('untrusted-registry', reason, { path });
  }
}

/** The type's status machine has no edge from the current status to the requested one. */
export class TransitionError extends GoalsError {
  readonly from: string;
  readonly to: string;
  readonly allowed: readonly string[];
  constructor(type: string, id: string, from: string, to: string, allowed: readonly string[]) {
    super('invalid-transition', `${id} (${type}): cannot go from "${from}" to "${to}"; allowed: ${allowed.length > 0 ? allowed.join(', ') : 'none (terminal status)'}`);
    this.from = from;
    this.to = to;
    this.allowed = allowed;
  }
}

export class ConfirmationRequiredError extends GoalsError {
  constructor(id: string) {
    super('confirmation-required', `${id} requires the user's confirmation before it can be completed (ratchet actions confirm ${id} --as user)`);
  }
}

export class InputError extends GoalsError {
  constructor(
    reason: string,
    code: 'invalid-input' | 'not-found' | 'duplicate-id' | 'unsafe-input' | 'deprecated-type' | 'proposal-state' | 'turn-mismatch' | 'completion-guard' | 'plan-state' | 'scratch-state' = 'invalid-input',
    place: { pointer?: string | undefined; issues?: readonly RegistryIssue[] | undefined } = {},
  ) {
    super(code, reason, place);
  }

  /** An input (a turn commit, a proposal) that does not match its schema: every problem, the first in the message. */
  static invalid(what: string, issues: readonly RegistryIssue[]): InputError {
    const first = issues[0];
    const where = first?.pointer ? ` at ${first.pointer}` : '';
    return new InputError(`invalid ${what}: ${first?.message ?? 'no details'}${where}${more(issues)}`, 'invalid-input', { pointer: first?.pointer, issues });
  }
}

/**
 * An agent read or changed an item outside its access scope (agent_id / org_id) that no ACL entry
 * grants it. The message names the item's scope, the acting agent and how access is granted.
 */
export class ScopeError extends GoalsError {
  constructor(reason: string) {
    super('scope-violation', reason);
  }
}
