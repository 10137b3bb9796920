/**
 * Typed operations of the goals area that more than one face needs (the start of that area's move
 * to src/operations/: today the turn's assessment, which SessionStart shows and the MCP tool
 * `turn_assess` returns). Inputs (goals-input.ts) and the result are types; the goals state and
 * registry are found as the goals commands find them.
 */
import type { Assessment, Owner } from '@ratchet/goals';
import type { Context } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import { versioned } from '../output/json-output.js';
import type { AssessTurnInput, GoalsLocation, OwnerName } from './goals-input.js';
import type { OperationResult } from './invoke.js';

export type { AssessTurnInput, GoalsLocation } from './goals-input.js';

// goals-input.ts's owner names are the library's, exactly.
const sameOwners: [Exclude<Owner, OwnerName>] extends [never] ? ([Exclude<OwnerName, Owner>] extends [never] ? true : never) : never = true;
void sameOwners;

/** What to look at when a turn starts: top goals, pending actions by utility, open questions. */
export async function assessTurn(ctx: Context, input: AssessTurnInput, location: GoalsLocation = {}): Promise<Assessment> {
  const [{ assess }, { loadRegistryFor, openState }] = await Promise.all([import('@ratchet/goals'), import('../commands/goals/shared.js')]);
  const registry = await loadRegistryFor(ctx, { ...location });
  const state = await (await openState(ctx, { ...location })).read();
  return assess(state, registry, { now: input.now ?? Date.now(), actions: input.actions, goals: input.goals, query: input.query, owner: input.owner });
}

/** The assessment as `ratchet turn assess --json` prints it (turn-assess.v1). */
export function assessTurnResult(result: Assessment): OperationResult {
  return { exitCode: EXIT_OK, document: versioned('turn-assess', { ok: true, ...result }) };
}

/** The goals library's errors as the goals commands report them (exit code, file and place). */
export async function goalsErrors<T>(ctx: Context, run: () => Promise<T>): Promise<T> {
  const { mapErrors } = await import('../commands/goals/shared.js');
  return mapErrors(ctx, run);
}
