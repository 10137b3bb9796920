/**
 * Pushdown runs: a machine may `call` another (or itself: a plan calling a sub-plan) and the
 * callee `return`s to the caller, which resumes in the state it was in. Calls nest on a stack with
 * a hard maximum depth. Everything is a pure function over a plain-JSON `RunSnapshot`; an event
 * that is not legal leaves the snapshot as it was and comes back as a typed error value.
 */
import { InvalidArgumentError, RecursionDepthError, RejectedEventError, UnknownMachineError } from './errors.js';
import { nextId, stateId, type Machine } from './machine.js';
import { symbolsFrom } from './run.js';
import { DEFAULT_MAX_DEPTH, SNAPSHOT_VERSION, findMachine, isValidDepth, parseEvent, type Frame, type Machines, type RunEvent, type RunSnapshot } from './snapshot.js';

export interface StartOptions {
  /** The id runs use for this machine; defaults to `machine.id`. */
  id?: string;
  /** A label for the root frame (a plan path, say); call chains show it instead of the id. */
  label?: string;
  /** Maximum frames on the stack, the root included. Default 10 (Jules' MAX_RECURSION_DEPTH). */
  maxDepth?: number;
}

export type StepResult =
  | { ok: true; snapshot: RunSnapshot }
  | { ok: false; snapshot: RunSnapshot; error: RejectedEventError | RecursionDepthError };

/** A new run of `machine` in its start state. */
export function start(machine: Machine, options: StartOptions = {}): RunSnapshot {
  const id = options.id ?? machine.id;
  if (id === undefined) throw new InvalidArgumentError('start: the machine has no id; pass options.id');
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!isValidDepth(maxDepth)) throw new InvalidArgumentError(`start: maxDepth must be a positive integer, got ${String(maxDepth)}`);
  return snapshotOf({ machine: id, state: machine.start, label: options.label }, [], [], maxDepth);
}

/** Every snapshot is built here, so keys always come in one order: same run, same bytes. */
function snapshotOf(active: { machine: string; state: string; label?: string | undefined }, stack: Frame[], history: RunEvent[], maxDepth: number): RunSnapshot {
  return {
    schemaVersion: SNAPSHOT_VERSION,
    machine: active.machine,
    state: active.state,
    ...(active.label !== undefined ? { label: active.label } : {}),
    stack,
    history,
    maxDepth,
  };
}

function machineOf(machines: Machines, id: string): Machine {
  const machine = findMachine(machines, id);
  if (!machine) throw new UnknownMachineError(id);
  return machine;
}

/**
 * Apply one event. Programming errors throw (an unknown machine id, a malformed event); events
 * that are simply not legal here return `{ok: false, error}` with the snapshot unchanged.
 */
export function step(snapshot: RunSnapshot, machines: Machines, event: RunEvent): StepResult {
  const parsed = parseEvent(event);
  if (typeof parsed === 'string') throw new InvalidArgumentError(`step: ${parsed}`);
  const machine = machineOf(machines, snapshot.machine);
  const s = stateId(machine, snapshot.state);
  const history = (): RunEvent[] => [...snapshot.history, parsed];

  switch (parsed.type) {
    case 'symbol': {
      const a = machine.symbolIndex.get(parsed.symbol);
      const t = a === undefined ? -1 : nextId(machine, s, a);
      if (t < 0) {
        const reason = a === undefined ? 'unknown-symbol' : 'no-transition';
        return rejected(snapshot, new RejectedEventError({ reason, machine: snapshot.machine, state: snapshot.state, symbol: parsed.symbol, expected: symbolsFrom(machine, s) }));
      }
      return { ok: true, snapshot: snapshotOf({ ...snapshot, state: machine.states[t]! }, snapshot.stack, history(), snapshot.maxDepth) };
    }
    case 'call': {
      const callee = machineOf(machines, parsed.machine);
      if (snapshot.stack.length + 2 > snapshot.maxDepth) {
        return rejected(snapshot, new RecursionDepthError([...callChain(snapshot), parsed.label ?? parsed.machine], snapshot.maxDepth));
      }
      const frame = { machine: parsed.machine, state: callee.start, label: parsed.label };
      return { ok: true, snapshot: snapshotOf(frame, [...snapshot.stack, activeFrame(snapshot)], history(), snapshot.maxDepth) };
    }
    case 'return': {
      const caller = snapshot.stack[snapshot.stack.length - 1];
      if (caller === undefined) {
        return rejected(snapshot, new RejectedEventError({ reason: 'empty-stack', machine: snapshot.machine, state: snapshot.state, expected: symbolsFrom(machine, s) }));
      }
      if (machine.accepting[s] !== 1) {
        return rejected(snapshot, new RejectedEventError({ reason: 'not-accepting', machine: snapshot.machine, state: snapshot.state, expected: symbolsFrom(machine, s) }));
      }
      return { ok: true, snapshot: snapshotOf(caller, snapshot.stack.slice(0, -1), history(), snapshot.maxDepth) };
    }
  }
}

function rejected(snapshot: RunSnapshot, error: RejectedEventError | RecursionDepthError): StepResult {
  return { ok: false, snapshot, error };
}

function activeFrame(snapshot: RunSnapshot): Frame {
  return snapshot.label !== undefined
    ? { machine: snapshot.machine, state: snapshot.state, label: snapshot.label }
    : { machine: snapshot.machine, state: snapshot.state };
}

/** The frames of a run as names (label, else machine id), outermost first, the active one last. */
export function callChain(snapshot: RunSnapshot): string[] {
  return [...snapshot.stack.map((f) => f.label ?? f.machine), snapshot.label ?? snapshot.machine];
}

/** How many frames are active (1 at the root). */
export function depth(snapshot: RunSnapshot): number {
  return snapshot.stack.length + 1;
}

/** True when the run is back at the root and in one of its accept states: the whole word is accepted. */
export function isAccepted(snapshot: RunSnapshot, machines: Machines): boolean {
  const machine = machineOf(machines, snapshot.machine);
  return snapshot.stack.length === 0 && machine.accepting[stateId(machine, snapshot.state)] === 1;
}
