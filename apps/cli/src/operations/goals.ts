/**
 * Typed operations of the goals area that more than one face needs (the start of that area's move
 * to src/operations/: today only the turn's assessment, which SessionStart shows). Inputs and the
 * result are types; the goals state and registry are found as the goals commands find them.
 */
import type { Assessment, Owner } from '@ratchet/goals';
import type { Context } from '../context.js';

export interface AssessTurnInput {
  /** Top pending actions overall and per owner (default 10). */
  actions?: number | undefined;
  /** Top goals (default 10). */
  goals?: number | undefined;
  /** Rank what shares words with this text first. */
  query?: string | undefined;
  /** Only this owner's actions. */
  owner?: Owner | undefined;
  /** The turn's clock (ms since the epoch); default now. */
  now?: number | undefined;
}

/** Where the goals state and registry are, and who asks (the goals commands' --state, --registry, --as, ...); default: the project's. */
export interface GoalsLocation {
  state?: string | undefined;
  registry?: string | undefined;
  as?: 'agent' | 'user' | undefined;
  who?: string | undefined;
  agent?: string | undefined;
  org?: string | undefined;
}

/** What to look at when a turn starts: top goals, pending actions by utility, open questions. */
export async function assessTurn(ctx: Context, input: AssessTurnInput, location: GoalsLocation = {}): Promise<Assessment> {
  const [{ assess }, { loadRegistryFor, openState }] = await Promise.all([import('@ratchet/goals'), import('../commands/goals/shared.js')]);
  const registry = await loadRegistryFor(ctx, { ...location });
  const state = await (await openState(ctx, { ...location })).read();
  return assess(state, registry, { now: input.now ?? Date.now(), actions: input.actions, goals: input.goals, query: input.query, owner: input.owner });
}
