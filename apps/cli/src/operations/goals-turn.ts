/**
 * The turn's commit as a typed operation (`ratchet turn commit`; the MCP tool `turn_commit`): the
 * turn's deltas applied once, judged against the registry the turn started with, recorded in the
 * open turn's trace; and the document `--json` prints for it.
 */
import type { CommitResult } from '@ratchet/goals';
import { locate } from '@ratchet/store';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK } from '../exit-codes.js';
import type { CommitTurnInput, GoalsPlace } from './goals-input.js';
import type { OperationResult } from './invoke.js';

export type { CommitTurnInput } from './goals-input.js';

/** Apply a turn's deltas (idempotent by turn id); `expectedVersion` must agree with the commit's own. */
export async function commitTurn(ctx: Context, input: CommitTurnInput): Promise<CommitResult> {
  const [{ actorOf, clockOf, loadRegistryFor, mapErrors, openState, registryFileOf }, { turnRegistry }, { traceCommit }] = await Promise.all([
    import('../commands/goals/shared.js'),
    import('../commands/goals/trace-log.js'),
    import('../commands/goals/trace-proposals.js'),
  ]);
  const place: GoalsPlace = input;
  return mapErrors(ctx, async () => {
    const registry = await loadRegistryFor(ctx, place);
    const store = await openState(ctx, place);
    const file = input.file ?? 'commit';
    let value = input.commit;
    const text = input.locate === undefined ? JSON.stringify(value) : undefined;
    const where = input.locate ?? ((pointer: string) => locate(text ?? '', pointer));
    const flag = input.expectedVersion;
    if (flag !== undefined && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const inFile = (value as { expected_version?: unknown }).expected_version;
      if (inFile !== undefined && inFile !== flag) throw new CliError(`--expected-version ${flag} contradicts the commit's expected_version ${JSON.stringify(inFile)}`, { file });
      // The flag is the version the caller's assess saw; it does not change the commit's digest.
      value = { ...value, expected_version: flag };
    }
    // Judged against the registry the turn started with; trusted as the project's file is now (the agent cannot bring its own).
    const trusted = registryFileOf(ctx, place, registry);
    const turnId = value !== null && typeof value === 'object' ? (value as { turn_id?: unknown }).turn_id : undefined;
    const running = await turnRegistry(ctx, place, turnId, registry);
    // Problems in the commit are placed in its source: `turn.json:12:7: ... (at /completed_actions/1)`.
    const r = await mapErrors(ctx, () => store.commitTurn(running, value as never, { actor: actorOf(ctx, place), registry: trusted }), { value, file, locate: where });
    if (!r.replayed) await traceCommit(ctx, place, r, clockOf(place)());
    return r;
  });
}

export function commitTurnResult(r: CommitResult): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, ...r } };
}
