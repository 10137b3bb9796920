/**
 * Proposals are visible in the turn trace (seed 002: "Proposals are visible in the Turn Trace and
 * never alter current-turn semantics"): a turn commit is a Decision, each proposal it filed for an
 * unknown action type a Policy event naming the proposal; submitting, amending, reviewing and
 * merging a proposal during a turn are Decision events (a merge: Policy) pointing at its id.
 */
import type { CommitResult, NewRecord, RegistryProposal } from '@ratchet/goals';
import type { Context } from '../../context.js';
import type { GoalsPlace } from '../../operations/goals-input.js';
import { traceAlong } from './trace-log.js';

export async function traceCommit(ctx: Context, place: GoalsPlace, r: CommitResult, now: number): Promise<void> {
  const ts = new Date(now).toISOString();
  await traceAlong(
    ctx,
    place,
    (_trace, turn): NewRecord[] => [
      {
        type: 'event',
        turn_id: turn,
        ts,
        kind: 'Decision',
        summary: `committed turn ${r.turn_id} as state v${r.version}: ${r.created.length} new, ${r.completed.length} completed, ${r.escalated.length} escalated`,
        payload: { version: r.version, created: r.created.map((a) => a.id), completed: r.completed.map((a) => a.id), escalated: r.escalated.map((a) => a.id) },
      },
      ...r.proposals.map(
        (p): NewRecord => ({
          type: 'event',
          turn_id: turn,
          ts,
          kind: 'Policy',
          summary: `unknown action type ${p.type_id ?? '(none)'}: proposal ${p.id} filed; its actions are user_task requiring confirmation until it is merged`,
          proposal_id: p.id,
          payload: { policy: 'unknown-action-type', type_id: p.type_id ?? null, actions: r.created.filter((a) => a.metadata?.requested_type === p.type_id).map((a) => a.id) },
        }),
      ),
    ],
    r.turn_id,
  );
}

/** A proposal moved during a turn: a Decision (a merge, which changes the registry for later turns: Policy). */
export async function traceProposal(ctx: Context, place: GoalsPlace, p: RegistryProposal, what: 'submitted' | 'amended' | 'approved' | 'rejected' | 'merged', now: number): Promise<void> {
  const ts = new Date(now).toISOString();
  await traceAlong(ctx, place, (_trace, turn): NewRecord[] => [
    {
      type: 'event',
      turn_id: turn,
      ts,
      kind: what === 'merged' ? 'Policy' : 'Decision',
      summary: `proposal ${p.id} (${p.proposal_type} ${p.type_id ?? '(no type id)'}) ${what}${what === 'merged' ? ': turns already running keep the registry they loaded' : ''}`,
      proposal_id: p.id,
      payload: { proposal_status: p.status, proposal_type: p.proposal_type, ...(p.type_id === undefined ? {} : { type_id: p.type_id }) },
    },
  ]);
}
