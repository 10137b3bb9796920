/**
 * The inputs of the goals area's typed operations (src/operations/goals.ts), apart from the
 * operations so that their declarations import no library type (the CLI's public types carry them).
 */

/** Who an action is for; goals.ts checks at compile time that this is @ratchet/goals' Owner. */
export type OwnerName = 'agent' | 'user';

export interface AssessTurnInput {
  /** Top pending actions overall and per owner (default 10). */
  actions?: number | undefined;
  /** Top goals (default 10). */
  goals?: number | undefined;
  /** Rank what shares words with this text first. */
  query?: string | undefined;
  /** Only this owner's actions. */
  owner?: OwnerName | undefined;
  /** The turn's clock (ms since the epoch); default now. */
  now?: number | undefined;
}

/** Where the goals state and registry are, and who asks (the goals commands' --state, --registry, --as, ...); default: the project's. */
export interface GoalsLocation {
  state?: string | undefined;
  registry?: string | undefined;
  as?: OwnerName | undefined;
  who?: string | undefined;
  agent?: string | undefined;
  org?: string | undefined;
}
