import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tx, defaultRegistry, emptyState, openGoals, type Actor, type GoalsState, type GoalsStore } from '../src/index.js';

export const AGENT: Actor = { role: 'agent' };
export const USER: Actor = { role: 'user', name: 'alice' };
export const T0 = Date.parse('2030-01-01T00:00:00.000Z');

export const tempDir = (prefix = 'goals-'): string => mkdtempSync(join(tmpdir(), prefix));

/** A store in a fresh directory with a manual clock. */
export function tempStore(): { store: GoalsStore; dir: string; clock: { now: number } } {
  const dir = tempDir();
  const clock = { now: T0 };
  return { store: openGoals(join(dir, '.ratchet', 'goals.json'), { clock: () => clock.now }), dir, clock };
}

/** Run operations on an in-memory state, as one transaction. */
export function inMemory(actor: Actor = AGENT, state: GoalsState = emptyState(), now = T0): { tx: Tx; state: GoalsState } {
  return { tx: new Tx(state, new Date(now).toISOString(), actor), state };
}

export const registry = defaultRegistry();
