/**
 * Running a compiled machine: single steps by name, and `accepts` over a whole word. The word loop
 * is the hot path (a million symbols in a few milliseconds): no allocation per symbol, one Map
 * lookup to resolve the symbol and one typed-array read for the step.
 */
import { nextId, stateId, type Machine } from './machine.js';

/** The state after `symbol` from `state`, or undefined (no transition, or a symbol outside the alphabet). */
export function transition(machine: Machine, state: string, symbol: string): string | undefined {
  const s = stateId(machine, state);
  const a = machine.symbolIndex.get(symbol);
  if (a === undefined) return undefined;
  const t = nextId(machine, s, a);
  return t < 0 ? undefined : machine.states[t];
}

/** The symbols with a transition from `state`, in alphabet order. */
export function nextSymbols(machine: Machine, state: string): string[] {
  return symbolsFrom(machine, stateId(machine, state));
}

export function symbolsFrom(machine: Machine, s: number): string[] {
  const out: string[] = [];
  for (let e = machine.edgeStart[s]!; e < machine.edgeStart[s + 1]!; e++) out.push(machine.alphabet[machine.edgeSymbol[e]!]!);
  return out;
}

/**
 * The symbols that take `source` straight to `dest`, in alphabet order (empty if none). The
 * orchestrator asks for the trigger between two lifecycle states instead of hard-coding it.
 */
export function triggerBetween(machine: Machine, source: string, dest: string): string[] {
  const s = stateId(machine, source);
  const d = stateId(machine, dest);
  const out: string[] = [];
  for (let e = machine.edgeStart[s]!; e < machine.edgeStart[s + 1]!; e++) {
    if (machine.edgeTarget[e] === d) out.push(machine.alphabet[machine.edgeSymbol[e]!]!);
  }
  return out;
}

export function isAcceptState(machine: Machine, state: string): boolean {
  return machine.accepting[stateId(machine, state)] === 1;
}

export type AcceptResult =
  | { accepted: true; state: string; steps: number }
  | {
      accepted: false;
      /** `unknown-symbol`: not in the alphabet; `no-transition`: no edge; `not-accepting`: input ended outside an accept state. */
      reason: 'no-transition' | 'unknown-symbol' | 'not-accepting';
      /** Index of the offending symbol (0-based); for `not-accepting`, the number of symbols read. */
      position: number;
      /** The state the run was in when it stopped. */
      state: string;
      /** The offending symbol (absent for `not-accepting`). */
      symbol?: string;
      /** The symbols legal in `state`, in alphabet order: what could have come instead, or next. */
      expected: string[];
    };

/** Run `symbols` from the start state: is the word in the machine's language, and if not, why. */
export function accepts(machine: Machine, symbols: Iterable<string>): AcceptResult {
  const { symbolIndex, table } = machine;
  const width = machine.alphabet.length;
  let s = machine.startId;
  let position = 0;
  if (table !== undefined) {
    for (const symbol of symbols) {
      const a = symbolIndex.get(symbol);
      if (a === undefined) return reject(machine, 'unknown-symbol', position, s, symbol);
      const t = table[s * width + a]!;
      if (t < 0) return reject(machine, 'no-transition', position, s, symbol);
      s = t;
      position++;
    }
  } else {
    for (const symbol of symbols) {
      const a = symbolIndex.get(symbol);
      if (a === undefined) return reject(machine, 'unknown-symbol', position, s, symbol);
      const t = nextId(machine, s, a);
      if (t < 0) return reject(machine, 'no-transition', position, s, symbol);
      s = t;
      position++;
    }
  }
  if (machine.accepting[s] !== 1) return reject(machine, 'not-accepting', position, s, undefined);
  return { accepted: true, state: machine.states[s]!, steps: position };
}

function reject(
  machine: Machine,
  reason: 'no-transition' | 'unknown-symbol' | 'not-accepting',
  position: number,
  s: number,
  symbol: string | undefined,
): AcceptResult {
  const state = machine.states[s]!;
  const expected = symbolsFrom(machine, s);
  return symbol === undefined ? { accepted: false, reason, position, state, expected } : { accepted: false, reason, position, state, symbol, expected };
}
