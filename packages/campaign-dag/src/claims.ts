/**
 * Leased claims (`ready --claim R --lease 15m`, `heartbeat R`): who holds a task lives in the storage
 * port's queue, one queue per campaign, so a claim expires when its runner stops heartbeating, on
 * any backend and from any machine. campaign.json stays the authority on task *status*; the queue is
 * the authority on *who holds* an in-progress task and until when.
 *
 * The two are written one after the other, never in one transaction, so every step is safe to crash
 * after: a queue item whose task is no longer waiting for it is finished as stale on its next claim;
 * a ready task missing from the queue is offered by the reconcile step of the next claim that finds
 * nothing; a claim whose runner died before writing campaign.json is taken over when its lease ends.
 */
import type { Claim, LeaseLostError, QueueItem, StorageBackend } from '@ratchet/store';
import { unmetDependencies } from './campaign.js';
import { CampaignError } from './errors.js';
import { readyTasks, seqLookup } from './graph.js';
import { formatSeq } from './seq.js';
import type { Campaign, Task } from './types.js';

/** The queue item that offers `task` in its current round: `<seq>`, then `<seq>.<round>` after each give-back. */
export function claimItemId(task: Pick<Task, 'seq' | 'round'>): string {
  return task.round === undefined || task.round === 0 ? String(task.seq) : `${task.seq}.${task.round}`;
}

/** The seq and round an item id names; undefined for an id this module never wrote. */
export function parseClaimItemId(id: string): { seq: number; round: number } | undefined {
  const m = /^(\d{1,9})(?:\.(\d{1,9}))?$/.exec(id);
  return m === null ? undefined : { seq: Number(m[1]), round: m[2] === undefined ? 0 : Number(m[2]) };
}

/** The claim queue's key: one queue per campaign id, so an old campaign's queue is never reused. */
export function claimQueueKey(campaignId: string): string {
  return `campaign/${campaignId}`;
}

/** Ready tasks as queue offers, in campaign order (lower position claims first, as without a lease). */
export function readyOffers(campaign: Campaign): { id: string; priority: number }[] {
  const lookup = seqLookup(campaign.tasks);
  return readyTasks(campaign.tasks).map((t) => ({ id: claimItemId(t), priority: lookup.get(t.seq) }));
}

/** What a queue claim means for the campaign as it is now. */
export type ClaimVerdict = 'take' | 'take-over' | 'stale';

/**
 * Whether the claimed item still stands for work: its task waits for it (pending, this round, every
 * dependency complete), or is in progress under this very item, which was claimable again (its
 * lease expired). Anything else (done, blocked, given back, claimed without a lease) is stale.
 */
export function judgeClaim(campaign: Campaign, claim: Pick<Claim, 'id' | 'recovered'>): { verdict: ClaimVerdict; task?: Task } {
  const named = parseClaimItemId(claim.id);
  if (named === undefined) return { verdict: 'stale' };
  const i = seqLookup(campaign.tasks).get(named.seq);
  const task = i < 0 ? undefined : campaign.tasks[i];
  if (task === undefined || claimItemId(task) !== claim.id) return { verdict: 'stale' };
  if (task.status === 'pending' && unmetDependencies(campaign, task).length === 0) return { verdict: 'take', task };
  // Its own item claimable again: the lease expired (recovered), or the item came back ready
  // (an import carries expired claims as ready items).
  if (task.status === 'in_progress' && task.claimItem === claim.id) return { verdict: 'take-over', task };
  return { verdict: 'stale' };
}

/** Apply a judged claim to the campaign: the task becomes `owner`'s, a lost attempt is recorded. */
export function applyClaim(task: Task, claim: Claim, now: string): void {
  task.status = 'in_progress';
  task.runner = claim.owner;
  task.claimItem = claim.id;
  delete task.reason;
  task.updatedAt = now;
  if (claim.recovered !== undefined) {
    const { owner, attempt, leaseUntil, recoveredAt } = claim.recovered;
    (task.lostAttempts ??= []).push({ runner: owner, attempt, leaseUntil, recoveredAt });
  }
}

/** A live claim as `campaign status` shows it. */
export interface LiveClaim {
  seq: number;
  runner: string;
  attempt: number;
  leaseUntil: string;
  /** The lease ran out: the task is ready again (shown as pending) until someone claims it. */
  expired: boolean;
}

/**
 * The campaign as the queue says it is now: a leased task whose lease has expired reads as pending
 * again (ready for the next claim, `runner` dropped). Returns a copy; campaign.json is not written
 * (the next claim records the lost attempt when it takes the task over).
 */
export function overlayClaims(campaign: Campaign, items: readonly QueueItem[]): { campaign: Campaign; claims: LiveClaim[] } {
  const byId = new Map(items.map((it) => [it.id, it]));
  const claims: LiveClaim[] = [];
  const tasks = campaign.tasks.map((task) => {
    if (task.status !== 'in_progress' || task.claimItem === undefined) return task;
    const item = byId.get(task.claimItem);
    if (item === undefined || item.state !== 'claimed' || item.owner === undefined || item.leaseUntil === undefined) return task;
    const expired = item.expired === true;
    claims.push({ seq: task.seq, runner: item.owner, attempt: item.attempts, leaseUntil: item.leaseUntil, expired });
    if (!expired) return { ...task, runner: item.owner };
    const copy: Task = { ...task, status: 'pending', reason: `lease of ${item.owner} expired at ${item.leaseUntil}` };
    delete copy.runner;
    return copy;
  });
  return { campaign: { ...campaign, tasks }, claims };
}

/** The refusal when `runner` finishes or renews a task whose lease it lost, naming who holds it now. */
export function leaseLostRefusal(task: Task, runner: string, err: LeaseLostError): CampaignError {
  // The queue names the last owner of an expired claim nobody took over yet: that is still "nobody".
  const now = err.holder === undefined || err.holder === runner ? 'nobody holds it now: it is ready again for the next claim' : `${err.holder} holds it now`;
  return new CampaignError('lease-lost', `task ${formatSeq(task.seq)}: ${runner} no longer holds its lease (${now}); nothing was written`);
}

export interface BackendOption {
  /** Where claim queues live: required for leased claims and heartbeats. */
  backend?: StorageBackend;
}

export function requireBackend(options: BackendOption): StorageBackend {
  if (options.backend === undefined) throw new CampaignError('invalid-argument', 'leased claims need a storage backend (the CLI passes the one from RATCHET_STORE or ratchet.config.json)');
  return options.backend;
}


