/**
 * Graph queries over a compiled machine. Breadth-first, exploring out-edges in alphabet order, so
 * results are deterministic: the same machine always yields the same path.
 */
import { stateId, type Machine } from './machine.js';

/** The states reachable from `from` (default: the start state), itself included, in declaration order. */
export function reachableStates(machine: Machine, from: string = machine.start): string[] {
  const seen = new Uint8Array(machine.states.length);
  const start = stateId(machine, from);
  const queue = [start];
  seen[start] = 1;
  for (let i = 0; i < queue.length; i++) {
    const s = queue[i]!;
    for (let e = machine.edgeStart[s]!; e < machine.edgeStart[s + 1]!; e++) {
      const t = machine.edgeTarget[e]!;
      if (seen[t] === 0) {
        seen[t] = 1;
        queue.push(t);
      }
    }
  }
  return machine.states.filter((_, i) => seen[i] === 1);
}

/**
 * A shortest word taking `from` to `to` (`[]` when they are the same state), or null when `to`
 * cannot be reached. Among equally short words, the one whose symbols come first in the alphabet.
 */
export function shortestPath(machine: Machine, from: string, to: string): string[] | null {
  const source = stateId(machine, from);
  const target = stateId(machine, to);
  if (source === target) return [];
  const n = machine.states.length;
  const viaState = new Int32Array(n).fill(-1);
  const viaSymbol = new Int32Array(n).fill(-1);
  viaState[source] = source;
  const queue = [source];
  for (let i = 0; i < queue.length; i++) {
    const s = queue[i]!;
    for (let e = machine.edgeStart[s]!; e < machine.edgeStart[s + 1]!; e++) {
      const t = machine.edgeTarget[e]!;
      if (viaState[t] !== -1) continue;
      viaState[t] = s;
      viaSymbol[t] = machine.edgeSymbol[e]!;
      if (t === target) {
        const path: string[] = [];
        for (let at = target; at !== source; at = viaState[at]!) path.push(machine.alphabet[viaSymbol[at]!]!);
        return path.reverse();
      }
      queue.push(t);
    }
  }
  return null;
}
