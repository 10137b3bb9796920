/**
 * Run snapshots: the whole state of a pushdown run as plain JSON, so a run can be written to disk
 * (through @ratchet/store), read back in another process and continued with exactly the same
 * behaviour. `restore` is the only way back in: it checks every field against the machines.
 */
import { InvalidSnapshotError, type SnapshotProblem } from './errors.js';
import type { Machine } from './machine.js';
import { pointer } from './pointer.js';
import { isPlainObject } from './validate.js';

export const SNAPSHOT_VERSION = 1;
export const DEFAULT_MAX_DEPTH = 10;

/** A suspended caller: which machine, the state it will resume in, and its label (e.g. a plan path). */
export interface Frame {
  machine: string;
  state: string;
  label?: string;
}

export type RunEvent = { type: 'symbol'; symbol: string } | { type: 'call'; machine: string; label?: string } | { type: 'return' };

export interface RunSnapshot {
  schemaVersion: 1;
  /** The active frame: its machine id, state and label. */
  machine: string;
  state: string;
  label?: string;
  /** Suspended callers, outermost first. Depth = stack.length + 1. */
  stack: Frame[];
  /** Every event applied so far, in order (rejected events are not recorded). */
  history: RunEvent[];
  /** Maximum depth (frames, the active one included) this run allows. */
  maxDepth: number;
}

/** Machines by id: a Map, or a plain record (looked up by own property only). */
export type Machines = ReadonlyMap<string, Machine> | Readonly<Record<string, Machine>>;

export function findMachine(machines: Machines, id: string): Machine | undefined {
  if (machines instanceof Map) return (machines as ReadonlyMap<string, Machine>).get(id);
  const record = machines as Readonly<Record<string, Machine>>;
  return Object.hasOwn(record, id) ? record[id] : undefined;
}

const SNAPSHOT_KEYS = new Set(['schemaVersion', 'machine', 'state', 'label', 'stack', 'history', 'maxDepth']);
const FRAME_KEYS = new Set(['machine', 'state', 'label']);

/**
 * Check a snapshot read from outside (say, JSON.parse of a file) against `machines` and return a
 * fresh, canonical copy. Throws `InvalidSnapshotError` listing every problem.
 */
export function restore(snapshot: unknown, machines: Machines): RunSnapshot {
  const problems: SnapshotProblem[] = [];
  const bad = (at: string, message: string): void => void problems.push({ pointer: at, message });
  if (!isPlainObject(snapshot)) throw new InvalidSnapshotError([{ pointer: '', message: 'a run snapshot must be an object' }]);

  for (const key of Object.keys(snapshot)) if (!SNAPSHOT_KEYS.has(key)) bad(pointer('', key), `unknown property ${JSON.stringify(key)}`);
  const get = (key: string): unknown => (Object.hasOwn(snapshot, key) ? snapshot[key] : undefined);
  if (get('schemaVersion') !== SNAPSHOT_VERSION) bad('/schemaVersion', `schemaVersion must be ${SNAPSHOT_VERSION}`);
  const maxDepth = get('maxDepth');
  if (!isValidDepth(maxDepth)) bad('/maxDepth', 'maxDepth must be a positive integer');

  const active = checkFrame({ machine: get('machine'), state: get('state'), label: get('label') }, '', machines, bad);
  const rawStack = get('stack');
  const stack: Frame[] = [];
  if (!Array.isArray(rawStack)) bad('/stack', 'stack must be an array');
  else {
    rawStack.forEach((f, i) => {
      const at = pointer('/stack', i);
      if (!isPlainObject(f)) return bad(at, 'a frame must be an object');
      for (const key of Object.keys(f)) if (!FRAME_KEYS.has(key)) bad(pointer(at, key), `unknown property ${JSON.stringify(key)}`);
      const own = (k: string): unknown => (Object.hasOwn(f, k) ? f[k] : undefined);
      const frame = checkFrame({ machine: own('machine'), state: own('state'), label: own('label') }, at, machines, bad);
      if (frame) stack.push(frame);
    });
    if (isValidDepth(maxDepth) && rawStack.length + 1 > maxDepth) bad('/stack', `depth ${rawStack.length + 1} exceeds maxDepth ${maxDepth}`);
  }

  const rawHistory = get('history');
  const history: RunEvent[] = [];
  if (!Array.isArray(rawHistory)) bad('/history', 'history must be an array');
  else {
    rawHistory.forEach((e, i) => {
      const event = parseEvent(e);
      if (typeof event === 'string') bad(pointer('/history', i), event);
      else history.push(event);
    });
  }

  if (problems.length > 0 || !active) throw new InvalidSnapshotError(problems);
  return { schemaVersion: SNAPSHOT_VERSION, ...active, stack, history, maxDepth: maxDepth as number };
}

export function isValidDepth(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}

function checkFrame(f: { machine: unknown; state: unknown; label: unknown }, at: string, machines: Machines, bad: (at: string, m: string) => void): Frame | undefined {
  let ok = true;
  if (f.label !== undefined && typeof f.label !== 'string') {
    bad(pointer(at, 'label'), 'label must be a string');
    ok = false;
  }
  if (typeof f.machine !== 'string') {
    bad(pointer(at, 'machine'), 'machine must be a string (a machine id)');
    return undefined;
  }
  const machine = findMachine(machines, f.machine);
  if (!machine) {
    bad(pointer(at, 'machine'), `unknown machine ${JSON.stringify(f.machine)}`);
    return undefined;
  }
  if (typeof f.state !== 'string') {
    bad(pointer(at, 'state'), 'state must be a string');
    return undefined;
  }
  if (!machine.stateIndex.has(f.state)) {
    bad(pointer(at, 'state'), `machine ${JSON.stringify(f.machine)} has no state ${JSON.stringify(f.state)}`);
    return undefined;
  }
  if (!ok) return undefined;
  return typeof f.label === 'string' ? { machine: f.machine, state: f.state, label: f.label } : { machine: f.machine, state: f.state };
}

/** A run event in canonical form, or a message saying what is wrong with it. */
export function parseEvent(e: unknown): RunEvent | string {
  if (!isPlainObject(e)) return 'an event must be an object';
  const get = (key: string): unknown => (Object.hasOwn(e, key) ? e[key] : undefined);
  const extra = (allowed: string[]): string | undefined => Object.keys(e).find((k) => !allowed.includes(k));
  switch (get('type')) {
    case 'symbol': {
      const symbol = get('symbol');
      if (typeof symbol !== 'string') return 'a symbol event needs a string "symbol"';
      const x = extra(['type', 'symbol']);
      return x === undefined ? { type: 'symbol', symbol } : `unknown property ${JSON.stringify(x)} in a symbol event`;
    }
    case 'call': {
      const machine = get('machine');
      const label = get('label');
      if (typeof machine !== 'string') return 'a call event needs a string "machine"';
      if (label !== undefined && typeof label !== 'string') return 'the label of a call event must be a string';
      const x = extra(['type', 'machine', 'label']);
      if (x !== undefined) return `unknown property ${JSON.stringify(x)} in a call event`;
      return typeof label === 'string' ? { type: 'call', machine, label } : { type: 'call', machine };
    }
    case 'return': {
      const x = extra(['type']);
      return x === undefined ? { type: 'return' } : `unknown property ${JSON.stringify(x)} in a return event`;
    }
    default:
      return 'an event needs "type": "symbol", "call" or "return"';
  }
}
