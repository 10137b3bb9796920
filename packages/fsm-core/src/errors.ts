/**
 * Typed errors for programmer-facing failures (a bad argument, an unknown state name, a snapshot
 * that does not fit its machines). Problems in a user's definition file are never thrown: they
 * are diagnostics. Every class carries a stable `code` so callers can switch without `instanceof`.
 */
import type { Diagnostic } from './diagnostics.js';

export abstract class FsmError extends Error {
  abstract readonly code: string;
}

/** `normalize` or `compile` was given a definition with errors; `diagnostics` lists all of them. */
export class InvalidDefinitionError extends FsmError {
  readonly code = 'invalid-definition' as const;
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    const first = errors[0];
    super(
      first
        ? `invalid FSM definition: ${errors.length} error${errors.length === 1 ? '' : 's'}, first at ${first.pointer || '(root)'}: ${first.message} [${first.ruleId}]`
        : 'invalid FSM definition',
    );
    this.name = 'InvalidDefinitionError';
    this.diagnostics = diagnostics;
  }
}

/** A state name that the machine does not have was passed to a query or run function. */
export class UnknownStateError extends FsmError {
  readonly code = 'unknown-state' as const;
  readonly state: string;
  readonly machine: string | undefined;
  constructor(state: string, machine: string | undefined) {
    super(`unknown state ${JSON.stringify(state)}${machine === undefined ? '' : ` in machine ${JSON.stringify(machine)}`}`);
    this.name = 'UnknownStateError';
    this.state = state;
    this.machine = machine;
  }
}

/** A run referred to a machine id that is not in the machines it was given. */
export class UnknownMachineError extends FsmError {
  readonly code = 'unknown-machine' as const;
  readonly machine: string;
  constructor(machine: string) {
    super(`unknown machine ${JSON.stringify(machine)}: pass it in the machines map`);
    this.name = 'UnknownMachineError';
    this.machine = machine;
  }
}

/** An option or event that is not valid (bad maxDepth, an event of unknown type, a machine without id). */
export class InvalidArgumentError extends FsmError {
  readonly code = 'invalid-argument' as const;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidArgumentError';
  }
}

export interface SnapshotProblem {
  pointer: string;
  message: string;
}

/** `restore` refused a snapshot; `problems` lists every reason, each with a JSON pointer into it. */
export class InvalidSnapshotError extends FsmError {
  readonly code = 'invalid-snapshot' as const;
  readonly problems: readonly SnapshotProblem[];
  constructor(problems: readonly SnapshotProblem[]) {
    const first = problems[0];
    super(`invalid run snapshot${first ? `: ${first.pointer || '(root)'}: ${first.message}` : ''}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`);
    this.name = 'InvalidSnapshotError';
    this.problems = problems;
  }
}

/**
 * A `call` would nest deeper than the run's maximum depth. `chain` names every frame, outermost
 * first, ending with the call that was refused, so a plan linter can print the whole recursion.
 */
export class RecursionDepthError extends FsmError {
  readonly code = 'recursion-depth' as const;
  readonly chain: readonly string[];
  readonly maxDepth: number;
  constructor(chain: readonly string[], maxDepth: number) {
    super(`call depth limit of ${maxDepth} exceeded: ${chain.join(' -> ')}`);
    this.name = 'RecursionDepthError';
    this.chain = chain;
    this.maxDepth = maxDepth;
  }
}

export type RejectionReason = 'no-transition' | 'unknown-symbol' | 'not-accepting' | 'empty-stack';

/**
 * A run event that is not legal where the run stands: a symbol with no transition or outside the
 * alphabet, a `return` from a state that is not accepting, a `return` with no caller.
 * `expected` lists the symbols legal in `state`, in alphabet order.
 */
export class RejectedEventError extends FsmError {
  readonly code = 'rejected-event' as const;
  readonly reason: RejectionReason;
  readonly machine: string;
  readonly state: string;
  readonly symbol: string | undefined;
  readonly expected: readonly string[];
  constructor(details: { reason: RejectionReason; machine: string; state: string; symbol?: string; expected: readonly string[] }) {
    super(rejectionMessage(details));
    this.name = 'RejectedEventError';
    this.reason = details.reason;
    this.machine = details.machine;
    this.state = details.state;
    this.symbol = details.symbol;
    this.expected = details.expected;
  }
}

function rejectionMessage(d: { reason: RejectionReason; machine: string; state: string; symbol?: string; expected: readonly string[] }): string {
  const where = `${JSON.stringify(d.state)} of machine ${JSON.stringify(d.machine)}`;
  const legal = d.expected.length > 0 ? `; legal: ${d.expected.join(', ')}` : '';
  switch (d.reason) {
    case 'unknown-symbol':
      return `symbol ${JSON.stringify(d.symbol)} is not in the alphabet (in state ${where})${legal}`;
    case 'no-transition':
      return `no transition on ${JSON.stringify(d.symbol)} from state ${where}${legal}`;
    case 'not-accepting':
      return `cannot return from state ${where}: it is not an accept state${legal}`;
    case 'empty-stack':
      return `cannot return from state ${where}: no caller on the stack`;
  }
}
