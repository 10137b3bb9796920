/**
 * The file layer: `.ratchet/campaign.json` (one active campaign per project) read and written only
 * through @ratchet/store (inter-process lock, re-read inside the lock, validate, atomic rename), and
 * `.ratchet/archive/<id>.json` plus `.ratchet/archive/<id>/workspace/` once a campaign completes.
 */
import { mkdir, readdir, rename, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError, type LeaseLostError, keyOf, openStoredDocument, sharedBackendOf, type Claim, type StorageBackend, defineDocument, openDocument, readJsonFile, recordRemoval, withLock, writeFileAtomic, type Document, type DocumentOptions } from '@ratchet/store';
import { addPlan, checkHolder, checkRunner, claimNext, newCampaign, setTaskStatus, summarize, type CampaignSummary, type UpdateOptions } from './campaign.js';
import { applyClaim, claimQueueKey, judgeClaim, leaseLostRefusal, overlayClaims, readyOffers, requireBackend, type LiveClaim } from './claims.js';
import { CampaignError, PlanError } from './errors.js';
import { cascadeStatus, propagateBlocks, readyTasks, seqLookup } from './graph.js';
import { formatSeq } from './seq.js';
import { outsideChecker, resolveInside } from './paths.js';
import { firePhase, migratePhase, noteTaskWork } from './phase.js';
import { checkPlan } from './plan.js';
import { similarity, SIMILARITY_THRESHOLD, type SimilarityScore } from './similar.js';
import type { Campaign, CascadeStatus, Clock, Idioms, PhaseEventName, Task, TaskStatus, UnreachableTask } from './types.js';
import { campaignValidator } from './validate.js';
import { ATTEMPT_FILE_PATTERN, LOST_FILE_PATTERN, WORKSPACE_FILE_PATTERN } from './workspace-format.js';

export const CAMPAIGN_SCHEMA_URL = 'https://unpkg.com/@ratchet/campaign-dag/schemas/campaign.schema.json';
export const ARCHIVE_SCHEMA_URL = 'https://unpkg.com/@ratchet/campaign-dag/schemas/campaign-archive.schema.json';
export const CAMPAIGN_VERSION = 1;
export const ARCHIVE_VERSION = 1;
export const DEFAULT_STATE_DIR = '.ratchet';
/** campaign.json may be larger than the store's 16 MiB default: 100,000 tasks take about 26 MB. */
export const CAMPAIGN_MAX_BYTES = 128 * 1024 * 1024;

const EMPTY: Campaign = { id: 'none', objective: '', framework: null, idioms: { required: [], forbidden: [] }, createdAt: '', status: 'complete', tasks: [] };

export const campaignDocument = defineDocument<Campaign>({ schema: campaignValidator, version: CAMPAIGN_VERSION, $schema: CAMPAIGN_SCHEMA_URL, initial: EMPTY });

export interface CampaignOptions {
  /** State directory, relative to the project root (default `.ratchet`); refused if outside it. */
  stateDir?: string;
  /** Workspace directory, relative to the project root (default `<stateDir>/workspace`); refused if outside it. */
  workspaceDir?: string;
  clock?: Clock;
  store?: DocumentOptions;
  /**
   * The storage port's backend: leased claims live in its queues, and plan adds and completions offer
   * newly ready tasks to it. Without one, claims work as they always did (no lease, no queue).
   */
  backend?: StorageBackend;
}

export interface CampaignPaths {
  root: string;
  stateDir: string;
  campaign: string;
  archive: string;
  workspace: string;
}

export function campaignPaths(root: string, options: CampaignOptions = {}): CampaignPaths {
  const stateDir = resolveInside(root, options.stateDir ?? DEFAULT_STATE_DIR, 'state directory');
  const workspace = resolveInside(root, options.workspaceDir ?? join(stateDir, 'workspace'), 'workspace directory');
  return { root, stateDir, campaign: join(stateDir, 'campaign.json'), archive: join(stateDir, 'archive'), workspace };
}

const now = (options: CampaignOptions): string => (options.clock ?? (() => new Date()))().toISOString();

function documentFor(paths: CampaignPaths, options: CampaignOptions): Document<Campaign> {
  // A shared backend (PostgreSQL) holds campaign.json under its project-relative key; the file
  // backend is that very file, so without one (or on files) nothing changes.
  const shared = sharedBackendOf(options.backend);
  if (shared !== undefined) return openStoredDocument(shared, keyOf(paths.root, paths.campaign), campaignDocument);
  return openDocument(paths.campaign, campaignDocument, { createParentDirs: true, maxBytes: CAMPAIGN_MAX_BYTES, ...options.store });
}


function requireCampaign(campaign: Campaign, path: string): Campaign {
  if (campaign.id === EMPTY.id || campaign.status !== 'active') throw new CampaignError('no-campaign', 'no active campaign; start one with `ratchet campaign create "<objective>"`', { path });
  return campaign;
}

/** The active campaign (an old one with its phase inferred); throws `no-campaign` when there is none. */
export async function readCampaign(root: string, options: CampaignOptions = {}): Promise<Campaign> {
  const paths = campaignPaths(root, options);
  return migratePhase(requireCampaign(await documentFor(paths, options).read(), paths.campaign), now(options));
}

/** Locked read-modify-write of the active campaign. */
export async function updateCampaign<R>(root: string, options: CampaignOptions, fn: (campaign: Campaign) => R): Promise<{ campaign: Campaign; result: R }> {
  const paths = campaignPaths(root, options);
  let result: R | undefined;
  const campaign = await documentFor(paths, options).update((draft) => {
    // Migrate on read: a campaign written before phases gets its inferred phase with this write.
    result = fn(migratePhase(requireCampaign(draft, paths.campaign), now(options)));
  });
  return { campaign, result: result as R };
}

export interface CreateOptions extends CampaignOptions {
  framework?: string | null;
  idioms?: Idioms;
}

/** Start a campaign; refused while another one is active (complete it first). */
export async function createCampaign(root: string, objective: string, options: CreateOptions = {}): Promise<Campaign> {
  const paths = campaignPaths(root, options);
  return documentFor(paths, options).update((draft) => {
    if (draft.id !== EMPTY.id && draft.status === 'active') {
      throw new CampaignError('campaign-exists', `campaign ${draft.id} ("${draft.objective}") is still active; complete it first`, { path: paths.campaign });
    }
    return newCampaign(objective, { now: now(options), ...(options.framework === undefined ? {} : { framework: options.framework }), ...(options.idioms === undefined ? {} : { idioms: options.idioms }) });
  });
}

/**
 * Add a plan's tasks (a parsed plan.json value; pass its text and path for line:column places).
 * Throws PlanError with every problem when the plan is malformed or its graph is not a DAG.
 */
export async function addTasks(root: string, plan: unknown, options: CampaignOptions & { text?: string; source?: string } = {}): Promise<{ campaign: Campaign; added: Task[] }> {
  const { campaign, result } = await updateCampaign(root, options, (draft) => {
    const checked = checkPlan(plan, { ...(options.text === undefined ? {} : { text: options.text }), existing: draft.tasks, outside: outsideChecker(root) });
    if (checked.plan === undefined) throw new PlanError(checked.problems, options.source);
    const at = now(options);
    // Registering a plan ends exploration and planning (FTL's REGISTER step): both are logged.
    if (draft.phase === 'EXPLORE') firePhase(draft, 'explored', { at, reason: 'implied by add-tasks' });
    firePhase(draft, 'planned', { at });
    return addPlan(draft, checked.plan);
  });
  await offerReady(root, campaign, options);
  return { campaign, added: result };
}

function queueKey(_root: string, campaign: Campaign, _options: CampaignOptions): string {
  return claimQueueKey(campaign.id);
}

/** Offers the ready set to the claim queue (items already there are left alone): after plan adds and completions. */
async function offerReady(root: string, campaign: Campaign, options: CampaignOptions): Promise<number> {
  if (options.backend === undefined || campaign.status !== 'active') return 0;
  const offers = readyOffers(campaign);
  return offers.length === 0 ? 0 : options.backend.queues.offer(queueKey(root, campaign, options), offers);
}

/** Ready tasks (pending, every dependency complete) of the active campaign, without a lock. */
export async function listReady(root: string, options: CampaignOptions = {}): Promise<Task[]> {
  return readyTasks((await readCampaign(root, options)).tasks);
}

/** Atomically claim the first ready task for `runner` (in_progress): parallel runners never get the same task. */
export async function claimTask(root: string, runner: string, options: CampaignOptions = {}): Promise<Task | undefined> {
  checkRunner(runner);
  // Nothing ready in a lock-free read means nothing to claim: no lock, no write (builders poll).
  if (readyTasks((await readCampaign(root, options)).tasks).length === 0) return undefined;
  try {
    return (
      await updateCampaign(root, options, (draft) => {
        const task = claimNext(draft, runner, now(options));
        // Another builder took the last ready task between the read and the lock: write nothing.
        if (task === undefined) throw NOTHING_TO_CLAIM;
        noteTaskWork(draft, now(options));
        return task;
      })
    ).result;
  } catch (err) {
    if (err === NOTHING_TO_CLAIM) return undefined;
    throw err;
  }
}

/** Thrown inside the update to abort it without writing; never escapes claimTask. */
const NOTHING_TO_CLAIM = new Error('nothing to claim');

/** A stale queue item can only be met once per claim; more rounds than this means something else is wrong. */
const MAX_STALE_ROUNDS = 10_000;

/**
 * Claim the first ready task for `runner` under a lease of `leaseMs` (renewed by `heartbeatClaims`).
 * The queue hands each item to one claimer; campaign.json then records the task as in progress. A
 * claim that took a task over from an expired lease records the lost attempt on the task.
 */
export async function claimTaskLeased(root: string, runner: string, leaseMs: number, options: CampaignOptions = {}): Promise<{ task: Task; claim: Claim } | undefined> {
  checkRunner(runner);
  const backend = requireBackend(options);
  let campaign = await readCampaign(root, options);
  const queue = queueKey(root, campaign, options);
  let reconciled = false;
  for (let round = 0; round < MAX_STALE_ROUNDS; round++) {
    const claim = await backend.queues.claim(queue, runner, leaseMs);
    if (claim === undefined) {
      // Nothing claimable, but the campaign may say otherwise: a crash between a campaign write and
      // its offer, or tasks added before leases were used. Offer the whole ready set once and retry.
      if (reconciled) return undefined;
      reconciled = true;
      campaign = await readCampaign(root, options);
      if ((await offerReady(root, campaign, options)) === 0) return undefined;
      continue;
    }
    const { result } = await updateCampaign(root, options, (draft) => {
      const judged = judgeClaim(draft, claim);
      if (judged.verdict === 'stale' || judged.task === undefined) return undefined;
      applyClaim(judged.task, claim, now(options));
      noteTaskWork(draft, now(options));
      return judged.task;
    }).catch(async (err: unknown) => {
      // campaign.json refused the write: give the item back rather than sit on it for a whole lease.
      await backend.queues.finish(queue, claim.id, runner, 'ready').catch(() => undefined);
      throw err;
    });
    if (result !== undefined) return { task: result, claim };
    // The task no longer waits for this item (done, blocked, given back, claimed without a lease).
    await backend.queues.finish(queue, claim.id, runner, 'done');
  }
  throw new CampaignError('invalid-argument', `gave up after ${MAX_STALE_ROUNDS} stale claim-queue items in ${queue}`);
}

/**
 * Renew every live leased claim `runner` holds by `leaseMs` from now. Returns the renewed claims;
 * throws `lease-lost` naming the tasks when `runner` holds none (their leases expired and others
 * took them over, or they were finished).
 */
export async function heartbeatClaims(root: string, runner: string, leaseMs: number, options: CampaignOptions = {}): Promise<{ renewed: { task: Task; claim: Claim }[]; lost: LiveClaim[] }> {
  checkRunner(runner);
  const backend = requireBackend(options);
  const campaign = await readCampaign(root, options);
  const queue = queueKey(root, campaign, options);
  const renewed: { task: Task; claim: Claim }[] = [];
  const lost: LiveClaim[] = [];
  for (const task of campaign.tasks) {
    if (task.status !== 'in_progress' || task.claimItem === undefined) continue;
    if (task.runner !== runner) {
      // Taken over from `runner` after its lease expired: say who has it now.
      const last = task.lostAttempts?.[task.lostAttempts.length - 1];
      if (last?.runner === runner && task.runner !== undefined) lost.push({ seq: task.seq, runner: task.runner, attempt: last.attempt, leaseUntil: last.leaseUntil, expired: true });
      continue;
    }
    try {
      renewed.push({ task, claim: await backend.queues.heartbeat(queue, task.claimItem, runner, leaseMs) });
    } catch (err) {
      if (!isLeaseLost(err)) throw err;
      // The queue names the last owner of an expired claim nobody took yet: that is still nobody.
      lost.push({ seq: task.seq, runner: err.holder === undefined || err.holder === runner ? '' : err.holder, attempt: 0, leaseUntil: '', expired: true });
    }
  }
  if (renewed.length === 0) {
    const which = lost.length === 0 ? 'no task' : lost.map((l) => `${formatSeq(l.seq)} (${l.runner === '' ? 'ready again' : `now held by ${l.runner}`})`).join(', ');
    throw new CampaignError('lease-lost', `${runner} holds no live leased claim in campaign ${campaign.id}: ${which}`);
  }
  return { renewed, lost };
}

/** The active campaign with leased claims applied (expired ones read as pending again), and the claims. */
export async function readCampaignWithClaims(root: string, options: CampaignOptions = {}): Promise<{ campaign: Campaign; claims: LiveClaim[] }> {
  const campaign = await readCampaign(root, options);
  if (options.backend === undefined || !campaign.tasks.some((t) => t.claimItem !== undefined)) return { campaign, claims: [] };
  return overlayClaims(campaign, await options.backend.queues.items(queueKey(root, campaign, options)));
}

/**
 * Move a task to `status`. A task under a leased claim first has its lease checked: `runner` (or,
 * without one, whoever the queue says holds it) must still hold it, else the update is refused with
 * `lease-lost` naming the current holder and nothing is written. A completion offers the tasks it
 * made ready, a give-back (pending) the task again.
 */
export async function updateTask(root: string, seq: number, status: TaskStatus, options: CampaignOptions & Omit<UpdateOptions, 'now'> = {}): Promise<Task> {
  const lease = options.backend === undefined ? undefined : await holdLease(root, seq, options);
  const { campaign, result } = await updateCampaign(root, options, (draft) => {
    // setTaskStatus checks the holder again under the lock: the authority, whatever the read above saw.
    const task = setTaskStatus(draft, seq, status, {
      now: now(options),
      ...(options.reason === undefined ? {} : { reason: options.reason }),
      ...(options.runner === undefined ? {} : { runner: options.runner }),
      ...(options.asUser === true ? { asUser: true } : {}),
    });
    noteTaskWork(draft, now(options));
    return task;
  });
  if (lease !== undefined && status !== 'in_progress') {
    // campaign.json is written first: a crash here leaves a claim whose task is done, which the next
    // claim of that item finishes as stale. The other order could lose a completion.
    await lease.backend.queues.finish(lease.queue, lease.item, lease.owner, 'done').catch((err: unknown) => {
      if (!isLeaseLost(err)) throw err;
    });
  }
  // A completion may make dependents ready; a task given back is ready under a new item.
  if (status === 'complete' || status === 'pending') await offerReady(root, campaign, options);
  return result;
}

/**
 * For a task under a leased claim: check that the caller holds it (`checkHolder`), renew the lease
 * for that runner (so it cannot expire between this check and the write) and return what finishing
 * it needs. Refuses when the runner lost it. A user override needs no lease: the claim is finished
 * in its owner's name after the write.
 */
async function holdLease(root: string, seq: number, options: CampaignOptions & Pick<UpdateOptions, 'runner' | 'asUser'>): Promise<{ backend: StorageBackend; queue: string; item: string; owner: string } | undefined> {
  const backend = options.backend!;
  const campaign = await readCampaign(root, options);
  const i = seqLookup(campaign.tasks).get(seq);
  const task = i < 0 ? undefined : campaign.tasks[i]!;
  if (task === undefined || task.status !== 'in_progress' || task.claimItem === undefined) return undefined;
  checkHolder(task, options);
  const queue = queueKey(root, campaign, options);
  const item = (await backend.queues.items(queue)).find((it) => it.id === task.claimItem);
  if (options.asUser === true && options.runner === undefined) return { backend, queue, item: task.claimItem, owner: item?.owner ?? task.runner ?? '' };
  const owner = options.runner ?? task.runner ?? '';
  // Never shorten the runner's lease (a refused update must leave it as it was); a minute is plenty
  // for one campaign.json write.
  const left = item?.leaseUntil === undefined ? 0 : Date.parse(item.leaseUntil) - Date.now();
  try {
    await backend.queues.heartbeat(queue, task.claimItem, owner, Math.max(LEASE_HOLD_MS, left));
  } catch (err) {
    if (isLeaseLost(err)) throw leaseLostRefusal(task, owner, err);
    throw err;
  }
  return { backend, queue, item: task.claimItem, owner };
}

/**
 * A LeaseLostError from any copy of @ratchet/store: a backend loaded at run time (PostgreSQL) may
 * bring its own copy, whose class is not this one, so the code decides, not `instanceof`.
 */
function isLeaseLost(err: unknown): err is LeaseLostError {
  return err instanceof Error && (err as { code?: unknown }).code === 'lease-lost';
}

/** How long `updateTask` holds a leased claim while it writes campaign.json. */
const LEASE_HOLD_MS = 60_000;

export async function readCascade(root: string, options: CampaignOptions = {}): Promise<CascadeStatus> {
  return cascadeStatus((await readCampaign(root, options)).tasks);
}

/** Block every unreachable task (transitively), recording blockers, root cause and `cascade: true`. */
export async function propagate(root: string, options: CampaignOptions = {}): Promise<UnreachableTask[]> {
  return (
    await updateCampaign(root, options, (draft) => {
      const blocked = propagateBlocks(draft.tasks, { now: now(options) });
      if (blocked.length > 0) noteTaskWork(draft, now(options));
      return blocked;
    })
  ).result;
}

export interface ArchiveEntry {
  campaign: Campaign;
  /** `text`: a prose summary (FTL's, for a campaign imported from it). */
  summary: CampaignSummary & { completedAt: string; text?: string };
  /** For a campaign imported from FTL: what FTL recorded that the summary has no field for, as written. */
  ftl?: { summary?: unknown; fingerprint?: unknown; patterns_extracted?: unknown };
}

export interface CompleteResult extends ArchiveEntry {
  /** The archive file written. */
  archivePath: string;
  /** Where the workspaces were moved (undefined when there were none). */
  workspacePath: string | undefined;
}

/**
 * Archive the active campaign to `<stateDir>/archive/<id>.json` with a summary, move its workspaces
 * to `<stateDir>/archive/<id>/workspace/`, and remove campaign.json, all under the campaign's lock.
 * Refused while tasks are in progress unless `force`. Re-running after a crash midway is safe.
 */
export async function completeCampaign(root: string, options: CampaignOptions & { force?: boolean; skipObserve?: string } = {}): Promise<CompleteResult> {
  const paths = campaignPaths(root, options);
  const doc = documentFor(paths, options);
  // The local lock serialises completions on this machine; on a shared backend the document's
  // removal (below) is the step other machines see.
  return withLock(
    paths.campaign,
    async () => {
      const campaign = migratePhase(requireCampaign(await doc.read(), paths.campaign), now(options));
      const running = campaign.tasks.filter((t) => t.status === 'in_progress').map((t) => t.seq);
      if (running.length > 0 && options.force !== true) {
        throw new CampaignError('tasks-in-progress', `${running.length} task(s) still in progress (${running.join(', ')}); finish them or pass force`, { path: paths.campaign });
      }
      const completedAt = now(options);
      // The observer gate: COMPLETE only from OBSERVE. `force` is about running tasks, not this.
      // Work on a copy: a refusal must leave campaign.json as it was.
      const phased: Campaign = { ...campaign, phaseLog: [...(campaign.phaseLog ?? [])] };
      if (options.skipObserve !== undefined && phased.phase !== 'OBSERVE') {
        if (phased.phase === 'EXPLORE') firePhase(phased, 'explored', { at: completedAt, reason: 'implied by --skip-observe' });
        if (phased.phase === 'PLAN') firePhase(phased, 'planned', { at: completedAt, reason: 'implied by --skip-observe (nothing was built)' });
        firePhase(phased, 'skip_observe', { at: completedAt, reason: options.skipObserve });
      }
      firePhase(phased, 'complete', { at: completedAt });
      const archived: Campaign = { ...phased, status: 'complete' };
      const entry: ArchiveEntry = { campaign: archived, summary: { ...summarize(archived), completedAt } };
      const archivePath = join(paths.archive, `${campaign.id}.json`);
      await writeFileAtomic(archivePath, `${JSON.stringify({ $schema: ARCHIVE_SCHEMA_URL, schemaVersion: ARCHIVE_VERSION, ...entry }, null, 2)}\n`, { createParentDirs: true });
      const workspacePath = await moveWorkspaces(paths.workspace, join(paths.archive, campaign.id, 'workspace'));
      const shared = sharedBackendOf(options.backend);
      if (shared !== undefined) await shared.documents.delete(keyOf(paths.root, paths.campaign));
      else {
        await unlink(paths.campaign).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
        });
        // Archived on purpose: its absence is not tampering (the journal, see @ratchet/store).
        await recordRemoval(paths.campaign);
      }
      return { ...entry, archivePath, workspacePath };
    },
    { createParentDirs: true },
  );
}

async function moveWorkspaces(from: string, to: string): Promise<string | undefined> {
  let names: string[];
  try {
    // Workspace files only (live and kept attempts): a workspace directory may be shared (even the
    // project root), and the user's own pom.xml is not the campaign's to archive.
    names = (await readdir(from)).filter((n) => WORKSPACE_FILE_PATTERN.test(n) || ATTEMPT_FILE_PATTERN.test(n) || LOST_FILE_PATTERN.test(n));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  if (names.length === 0) return undefined;
  await mkdir(to, { recursive: true });
  for (const name of names) await rename(join(from, name), join(to, name));
  // Only when empty: anything else in it (a user's own file) stays where it was.
  await rmdir(from).catch(() => undefined);
  return to;
}

/**
 * Record that the observer ran on the active campaign (`memory observe`): BUILD -> OBSERVE, the gate
 * `completeCampaign` checks. Refused before any task exists (nothing to observe).
 */
export async function recordObservation(root: string, options: CampaignOptions & { note?: string } = {}): Promise<Campaign> {
  return (await updateCampaign(root, options, (draft) => firePhase(draft, 'observed', { at: now(options), ...(options.note === undefined ? {} : { reason: options.note }) }))).campaign;
}

/** Fire one phase event on the active campaign (`ratchet campaign phase <event>`); the machine decides. */
export async function advancePhase(root: string, event: PhaseEventName, options: CampaignOptions & { reason?: string } = {}): Promise<Campaign> {
  return (await updateCampaign(root, options, (draft) => firePhase(draft, event, { at: now(options), reason: options.reason }))).campaign;
}

/** Every archived campaign, oldest first. Unreadable entries are skipped and reported in `skipped`. */
export async function readArchive(root: string, options: CampaignOptions = {}): Promise<{ entries: ArchiveEntry[]; skipped: { path: string; reason: string }[] }> {
  const paths = campaignPaths(root, options);
  let names: string[];
  try {
    names = (await readdir(paths.archive)).filter((n) => n.endsWith('.json')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], skipped: [] };
    throw err;
  }
  const entries: ArchiveEntry[] = [];
  const skipped: { path: string; reason: string }[] = [];
  for (const name of names) {
    const path = join(paths.archive, name);
    try {
      const { value } = await readJsonFile(path);
      const v = value as Partial<ArchiveEntry> | null;
      const check = campaignValidator.safeParse(v?.campaign);
      if (!check.success || typeof v?.summary !== 'object' || v.summary === null) throw new Error('not a campaign archive entry');
      entries.push({ campaign: check.data, summary: v.summary });
    } catch (err) {
      if (err instanceof NotFoundError) continue;
      skipped.push({ path, reason: err instanceof Error ? ((err as { reason?: string }).reason ?? err.message) : String(err) });
    }
  }
  return { entries, skipped };
}

export interface SimilarCampaign {
  id: string;
  objective: string;
  framework: string | null;
  tasks: number;
  /** Total and its parts: objective cosine, delta Jaccard, task-count similarity. */
  score: number;
  parts: Omit<SimilarityScore, 'score'>;
}

/**
 * Past campaigns like the given one (default: the active campaign): FTL's 0.6 objective cosine +
 * 0.3 delta Jaccard + 0.1 task-count similarity, same framework only, at or above `threshold`.
 * With `objective` (no campaign to compare files and size with) the objective similarity alone is
 * scored, among campaigns of `framework` when it is given (any framework otherwise).
 */
export async function findSimilar(root: string, options: CampaignOptions & { objective?: string; framework?: string | null; threshold?: number; limit?: number } = {}): Promise<{ similar: SimilarCampaign[]; skipped: { path: string; reason: string }[] }> {
  let probe: { objective: string; framework: string | null; deltaFiles: string[]; taskCount: number };
  if (options.objective !== undefined) probe = { objective: options.objective, framework: null, deltaFiles: [], taskCount: 0 };
  else {
    const c = await readCampaign(root, options);
    const s = summarize(c);
    probe = { objective: c.objective, framework: c.framework, deltaFiles: s.deltaFiles, taskCount: c.tasks.length };
  }
  const { entries, skipped } = await readArchive(root, options);
  const threshold = options.threshold ?? SIMILARITY_THRESHOLD;
  const similar: SimilarCampaign[] = [];
  for (const { campaign, summary } of entries) {
    const other = { objective: campaign.objective, framework: campaign.framework, deltaFiles: summary.deltaFiles ?? [], taskCount: campaign.tasks.length };
    // An objective-only probe has no files or tasks to compare: score the objective alone.
    if (options.objective !== undefined && options.framework !== undefined && (options.framework ?? null) !== other.framework) continue;
    const score = options.objective !== undefined ? objectiveOnly(probe.objective, other.objective) : similarity(probe, other);
    if (score === undefined || score.score < threshold) continue;
    similar.push({ id: campaign.id, objective: campaign.objective, framework: campaign.framework, tasks: campaign.tasks.length, score: score.score, parts: { objective: score.objective, delta: score.delta, taskCount: score.taskCount } });
  }
  similar.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  return { similar: similar.slice(0, options.limit ?? 10), skipped };
}

function objectiveOnly(a: string, b: string): SimilarityScore {
  const s = similarity({ objective: a, framework: null, deltaFiles: [], taskCount: 0 }, { objective: b, framework: null, deltaFiles: [], taskCount: 0 })!;
  return { ...s, score: s.objective };
}
