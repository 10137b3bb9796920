/**
 * Workspace files: `<workspaceDir>/{seq}_{slug}_{active|complete|blocked}.xml`, created on demand once
 * a task's parents are complete, with the parents' deliveries as `<lineage>`, the caller's prior
 * knowledge (memory) and this campaign's sibling failures (every blocked workspace, cost 1000,
 * `injected="false"`). Status changes rewrite the file in place atomically, then rename it
 * atomically, under a per-seq lock: at every moment at most one live file exists for the seq.
 *
 * A retried task (blocked -> pending) gets a fresh workspace: under the same lock its blocked file is
 * renamed (atomically) to `{seq}_{slug}_blocked.{attempt}.xml`, history that is never live again, and
 * the new workspace (`attempt="n+1"`) carries each earlier failure of the task in `<prior_knowledge>`
 * (`attempt-<stem>`, `injected="false"`). A crash between the rename and the write leaves no live
 * file and the history intact: the next `createWorkspace` simply creates it.
 */
import { readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { readTextFile, withLock, writeFileAtomic } from '@ratchet/store';
import { checkHolder, findTask, unmetDependencies } from './campaign.js';
import type { Task } from './types.js';
import { CampaignError } from './errors.js';
import { outsideReason } from './paths.js';
import { formatSeq } from './seq.js';
import { campaignPaths, readCampaign, type CampaignOptions } from './store.js';
import {
  ATTEMPT_FILE_PATTERN,
  LOST_FILE_PATTERN,
  MAX_ATTEMPT,
  WORKSPACE_FILE_PATTERN,
  WORKSPACE_SCHEMA_VERSION,
  attemptFileName,
  checkXmlText,
  lostFileName,
  parseWorkspace,
  type CodeContext,
  serializeWorkspace,
  workspaceFileName,
  type InjectedFailure,
  type PriorKnowledge,
  type Utilized,
  type WorkspaceRecord,
  type WorkspaceStatus,
} from './workspace-format.js';

/** Workspace files larger than this are refused when read (a delivery is prose, not a build log). */
export const MAX_WORKSPACE_BYTES = 4 * 1024 * 1024;
export const SIBLING_FAILURE_COST = 1000;

export interface WorkspaceFile {
  seq: number;
  slug: string;
  status: WorkspaceStatus;
  /** Absolute path. */
  path: string;
  /** File name without `.xml`. */
  stem: string;
  /** For an earlier attempt kept as history (`{seq}_{slug}_blocked.{n}.xml` or `_lost.{n}.xml`): n. Absent for the live workspace. */
  attempt?: number;
  /**
   * A lost attempt (`{seq}_{slug}_lost.{n}.xml`): the task changed hands before its holder finished.
   * Its `status` reads as active: nobody finished it as the task's holder.
   */
  lost?: boolean;
}

/**
 * The live workspace files in `dir` (one per seq), sorted by seq then name; other files are ignored.
 * With `attempts: true`, also the failed earlier attempts of retried tasks (each with `attempt`),
 * oldest first, before the live file of the same seq.
 */
export async function listWorkspaceFiles(dir: string, options: { attempts?: boolean } = {}): Promise<WorkspaceFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: WorkspaceFile[] = [];
  for (const name of names) {
    const m = WORKSPACE_FILE_PATTERN.exec(name);
    if (m) out.push({ seq: Number(m[1]), slug: m[2]!, status: m[3] as WorkspaceStatus, path: join(dir, name), stem: name.slice(0, -4) });
    else if (options.attempts === true) {
      const a = ATTEMPT_FILE_PATTERN.exec(name);
      if (a) out.push({ seq: Number(a[1]), slug: a[2]!, status: 'blocked', path: join(dir, name), stem: name.slice(0, -4), attempt: Number(a[3]) });
      const l = LOST_FILE_PATTERN.exec(name);
      if (l) out.push({ seq: Number(l[1]), slug: l[2]!, status: 'active', path: join(dir, name), stem: name.slice(0, -4), attempt: Number(l[3]), lost: true });
    }
  }
  return out.sort(byAttempt);
}

/** By seq, then oldest first: a seq's kept attempts by number, its live workspace last; ties by name. */
function byAttempt(a: WorkspaceFile, b: WorkspaceFile): number {
  const order = (f: WorkspaceFile): number => f.attempt ?? Infinity;
  return a.seq - b.seq || order(a) - order(b) || (a.stem < b.stem ? -1 : a.stem > b.stem ? 1 : 0);
}

export async function readWorkspace(path: string): Promise<WorkspaceRecord> {
  const { text } = await readTextFile(path, { maxBytes: MAX_WORKSPACE_BYTES });
  return parseWorkspace(text, path);
}

/**
 * The record as XML, refused (nothing written) when it would be larger than the readers accept: a
 * workspace written but never readable again would break `show`, its children's lineage and observe.
 */
function readableXml(record: WorkspaceRecord, what: string): string {
  const xml = serializeWorkspace(record);
  const bytes = Buffer.byteLength(xml);
  if (bytes > MAX_WORKSPACE_BYTES) {
    throw new CampaignError('invalid-argument', `${what} makes workspace ${record.id} ${(bytes / 1024 / 1024).toFixed(1)} MiB, over the ${MAX_WORKSPACE_BYTES / 1024 / 1024} MiB a workspace may hold; nothing was written (deliver a summary and point at the files)`);
  }
  return xml;
}

/**
 * Sibling failures: one per blocked workspace file (live `*_blocked.xml`, and failed earlier attempts
 * when `files` lists them) whose delivery says `BLOCKED:`, named `sibling-{stem}`; with `campaign`,
 * only that campaign's (a workspace left behind by another campaign is not a sibling). A failed
 * attempt of a task whose retry then completed is not a sibling failure: the obstacle was passed,
 * and warning every later task about it cost each builder a detour (the observer learns the fix).
 */
export async function siblingFailures(files: readonly WorkspaceFile[], exceptSeq?: number, campaign?: string): Promise<InjectedFailure[]> {
  const out: InjectedFailure[] = [];
  const recovered = new Set(files.filter((f) => f.status === 'complete' && f.attempt === undefined).map((f) => f.seq));
  for (const f of files) {
    if (f.status !== 'blocked' || f.seq === exceptSeq || recovered.has(f.seq)) continue;
    const record = await readWorkspace(f.path);
    if (record.blockedReason === undefined || !ofCampaign(record, campaign)) continue;
    const firstLine = record.blockedReason.split('\n')[0]!.trim();
    out.push({ name: `sibling-${f.stem}`, trigger: firstLine, fix: 'See blocked workspace', cost: SIBLING_FAILURE_COST, source: [f.stem], injected: false });
  }
  return out;
}

/**
 * A retried task's earlier attempts (the `attempt` files of `seq` in `files`): its failures, oldest
 * first, named `attempt-{stem}` (trigger: the first line of the block reason; fix: the rest of it, or
 * where to read it), so the next builder sees why the last attempt failed; a lost attempt (the task
 * changed hands before it finished) as where it was left and what to check; and the next attempt's
 * number, one past every kept attempt by file name and by content.
 */
export async function priorAttempts(files: readonly WorkspaceFile[], seq: number, campaign?: string): Promise<{ failures: InjectedFailure[]; next: number }> {
  const failures: InjectedFailure[] = [];
  let last = 0;
  for (const f of files) {
    if (f.seq !== seq || f.attempt === undefined) continue;
    const record = await readWorkspace(f.path);
    if (!ofCampaign(record, campaign)) continue;
    last = Math.max(last, f.attempt, record.attempt ?? 1);
    if (f.lost === true) {
      failures.push(lostAttemptEntry(f, record));
      continue;
    }
    if (record.blockedReason === undefined) continue;
    const [first = '', ...rest] = record.blockedReason.split('\n');
    const more = rest.join('\n').trim();
    const fix = more !== '' ? more : `Attempt ${record.attempt ?? 1} of this task was blocked by this; its workspace is ${f.stem}.xml`;
    failures.push({ name: `attempt-${f.stem}`, trigger: first.trim(), fix, cost: SIBLING_FAILURE_COST, source: [f.stem], injected: false });
  }
  return { failures, next: last + 1 };
}

/** What the next holder is told about a lost attempt: who left it, where it is, what to check first. */
function lostAttemptEntry(f: WorkspaceFile, record: WorkspaceRecord): InjectedFailure {
  const by = record.runner === undefined ? '' : ` by ${record.runner}`;
  const delivered = record.delivered.trim().split('\n')[0]?.trim() ?? '';
  const files = record.delta.length > 0 ? record.delta.join(', ') : 'the task\'s files';
  return {
    name: `attempt-${f.stem}`,
    trigger: `attempt ${f.attempt ?? 1}${by} stopped before it finished: the task changed hands (its claim was lost or given back)`,
    fix: `Its workspace is kept as ${f.stem}.xml${delivered === '' ? '' : ` (it had delivered: ${delivered.slice(0, 200)})`}. Check ${files} for partial changes before building.`,
    cost: SIBLING_FAILURE_COST,
    source: [f.stem],
    injected: false,
  };
}

/**
 * Whether the live workspace `record` was made for a holder that no longer holds `task`: another
 * runner holds it, it was given back since (round), or taken over since (a lost lease). A workspace
 * made before any claim belongs to whoever claims the task next, until it changes hands.
 */
export function heldByAnother(record: Pick<WorkspaceRecord, 'runner' | 'round' | 'takeovers'>, task: Pick<Task, 'runner' | 'round' | 'lostAttempts'>): boolean {
  if (record.runner !== undefined && record.runner !== task.runner) return true;
  return (record.round ?? 0) < (task.round ?? 0) || (record.takeovers ?? 0) < (task.lostAttempts?.length ?? 0);
}

/** Whether a workspace belongs to `campaign` (FTL's files carry no campaign: they belong to any). */
function ofCampaign(record: Pick<WorkspaceRecord, 'campaign'>, campaign: string | undefined): boolean {
  return campaign === undefined || record.campaign === '' || record.campaign === campaign;
}

export interface CreateWorkspaceOptions extends CampaignOptions {
  /** Memory's entries for this task (the CLI composes @ratchet/memory into it). */
  priorKnowledge?: PriorKnowledge;
  /** Code the builder should read first (`<code_context>`); paths must stay inside the project. */
  codeContext?: CodeContext[];
  /** Who asks: refused (`not-holder`) when another runner holds the task. */
  runner?: string;
}

/**
 * Create the active workspace of task `seq`. Refused when a dependency is not complete, when the
 * task is complete or blocked, when an active or complete workspace for the seq exists, or when a
 * delta path escapes the project. A blocked workspace of a retried task (the task is pending or in
 * progress again) is kept as `{seq}_{slug}_blocked.{attempt}.xml` and the new one is the next attempt,
 * with the task's earlier failures in its prior knowledge.
 */
export async function createWorkspace(root: string, seq: number, options: CreateWorkspaceOptions = {}): Promise<{ path: string; record: WorkspaceRecord }> {
  const paths = campaignPaths(root, options);
  const campaign = await readCampaign(root, options);
  const task = findTask(campaign, seq);
  if (task.status === 'complete' || task.status === 'blocked') throw new CampaignError('illegal-transition', `task ${formatSeq(seq)} is ${task.status}; workspaces are for pending or in-progress tasks`);
  if (options.runner !== undefined) checkHolder(task, { runner: options.runner });
  const waiting = unmetDependencies(campaign, task);
  if (waiting.length > 0) throw new CampaignError('not-ready', `task ${formatSeq(seq)} waits for ${waiting.map(formatSeq).join(', ')} to complete; its workspace is created once its parents are`);
  for (const d of task.delta) {
    const why = outsideReason(root, d);
    if (why !== undefined) throw new CampaignError('outside-root', `task ${formatSeq(seq)}: delta path ${JSON.stringify(d)} ${why}`, { path: paths.campaign });
  }
  for (const c of options.codeContext ?? []) {
    const why = outsideReason(root, c.path);
    if (why !== undefined) throw new CampaignError('outside-root', `code context path ${JSON.stringify(c.path)} ${why}`);
  }
  const now = (options.clock ?? (() => new Date()))().toISOString();
  return withLock(
    join(paths.workspace, formatSeq(seq)),
    async () => {
      let files = await listWorkspaceFiles(paths.workspace, { attempts: true });
      const existing = files.find((f) => f.seq === seq && f.attempt === undefined);
      if (existing !== undefined) {
        const live = await readWorkspace(existing.path);
        const other = live.campaign;
        if (!ofCampaign({ campaign: other }, campaign.id)) {
          throw new CampaignError('workspace-exists', `${existing.stem}.xml belongs to campaign ${other}, not the active ${campaign.id}: it was left behind (archive that campaign with the same workspace directory, or move the file)`, { path: existing.path });
        }
        if (existing.status === 'blocked') files = await retireAttempt(paths.workspace, existing, files, 'blocked');
        else if (heldByAnother(live, task)) {
          // Its builder lost the task (a lease that ran out, a claim given back): keep its work as a
          // lost attempt, and let the task's holder start.
          files = await retireAttempt(paths.workspace, existing, files, 'lost');
        } else {
          throw new CampaignError('workspace-exists', `task ${formatSeq(seq)} already has a workspace: ${existing.stem}.xml (see it with \`ratchet workspace show ${formatSeq(seq)}\`)`, { path: existing.path });
        }
      }
      const { failures: ownFailures, next: attempt } = await priorAttempts(files, seq, campaign.id);
      const lineage = [];
      for (const parent of task.depends) {
        const file = files.find((f) => f.seq === parent && f.status === 'complete' && f.attempt === undefined);
        const record = file === undefined ? undefined : await readWorkspace(file.path);
        const mine = record !== undefined && ofCampaign(record, campaign.id);
        lineage.push({ seq: parent, workspace: mine ? file!.stem : '', priorDelivery: mine ? record.delivered : '' });
      }
      const memory = options.priorKnowledge ?? { failures: [], patterns: [] };
      const record: WorkspaceRecord = {
        id: `${formatSeq(seq)}_${task.slug}`,
        seq,
        slug: task.slug,
        status: 'active',
        campaign: campaign.id,
        schemaVersion: WORKSPACE_SCHEMA_VERSION,
        createdAt: now,
        objective: task.description ?? campaign.objective,
        delta: [...task.delta],
        verify: task.verify,
        preflight: [...(task.preflight ?? [])],
        framework: campaign.framework,
        idioms: campaign.idioms,
        priorKnowledge: {
          failures: [...ownFailures, ...memory.failures.map((f) => ({ ...f, injected: true })), ...(await siblingFailures(files, seq, campaign.id))],
          patterns: memory.patterns.map((p) => ({ ...p, injected: true })),
        },
        lineage,
        delivered: '',
        utilization: [],
      };
      if (attempt > 1) record.attempt = attempt;
      if (task.runner !== undefined && task.status === 'in_progress') record.runner = task.runner;
      if ((task.round ?? 0) > 0) record.round = task.round!;
      if ((task.lostAttempts?.length ?? 0) > 0) record.takeovers = task.lostAttempts!.length;
      if (task.budget !== undefined) record.budget = task.budget;
      if (options.codeContext !== undefined && options.codeContext.length > 0) record.codeContext = options.codeContext.map((c) => ({ ...c }));
      const path = join(paths.workspace, workspaceFileName(seq, task.slug, 'active'));
      await writeFileAtomic(path, readableXml(record, 'the workspace'), { createParentDirs: true, maxBytes: MAX_WORKSPACE_BYTES });
      return { path, record };
    },
    { ...options.store?.lock, createParentDirs: true },
  );
}

/**
 * Keep a workspace as history: a retried task's blocked one as `{seq}_{slug}_blocked.{n}.xml`, a lost
 * one as `{seq}_{slug}_lost.{n}.xml` (rename: atomic, same directory), n its attempt number (or past
 * every kept attempt of the seq if that number is taken: history is never overwritten, and each
 * attempt keeps its own number). Returns `files` with the entry replaced.
 */
async function retireAttempt(dir: string, live: WorkspaceFile, files: WorkspaceFile[], as: 'blocked' | 'lost'): Promise<WorkspaceFile[]> {
  const record = await readWorkspace(live.path);
  const kept = files.filter((f) => f.seq === live.seq && f.attempt !== undefined).map((f) => f.attempt!);
  let n = record.attempt ?? 1;
  if (kept.includes(n)) n = Math.max(...kept) + 1;
  if (n > MAX_ATTEMPT) throw new CampaignError('invalid-argument', `task ${formatSeq(live.seq)} has been attempted ${MAX_ATTEMPT} times`, { path: live.path });
  const name = as === 'blocked' ? attemptFileName(live.seq, live.slug, n) : lostFileName(live.seq, live.slug, n);
  await rename(live.path, join(dir, name));
  const retired: WorkspaceFile = { seq: live.seq, slug: live.slug, status: as === 'blocked' ? 'blocked' : 'active', path: join(dir, name), stem: name.slice(0, -4), attempt: n, ...(as === 'lost' ? { lost: true } : {}) };
  return files.map((f) => (f === live ? retired : f)).sort(byAttempt);
}

export interface FinishOptions extends CampaignOptions {
  /** Entries of `<prior_knowledge>` the builder used. */
  utilized?: Utilized[];
  /**
   * Who finishes it: refused (`not-holder`) when the workspace was made for another runner (a
   * builder that lost the task cannot deliver into the new holder's workspace).
   */
  runner?: string;
}

/** active -> complete, with the delivery. */
export async function completeWorkspace(root: string, seq: number, delivered: string, options: FinishOptions = {}): Promise<{ path: string; record: WorkspaceRecord }> {
  return finish(root, seq, 'complete', delivered, options);
}

/** active -> blocked; the delivery becomes `BLOCKED: <reason>` (what sibling failures read). */
export async function blockWorkspace(root: string, seq: number, reason: string, options: FinishOptions = {}): Promise<{ path: string; record: WorkspaceRecord }> {
  if (reason.trim() === '') throw new CampaignError('invalid-argument', 'a blocked workspace needs a reason');
  return finish(root, seq, 'blocked', `BLOCKED: ${reason.trim()}`, options);
}

async function finish(root: string, seq: number, status: 'complete' | 'blocked', delivered: string, options: FinishOptions): Promise<{ path: string; record: WorkspaceRecord }> {
  checkXmlText(delivered, 'the delivery');
  const paths = campaignPaths(root, options);
  const now = (options.clock ?? (() => new Date()))().toISOString();
  return withLock(join(paths.workspace, formatSeq(seq)), async () => {
    const file = (await listWorkspaceFiles(paths.workspace)).find((f) => f.seq === seq);
    if (!file) throw new CampaignError('no-workspace', `task ${formatSeq(seq)} has no workspace; create it with \`ratchet workspace create ${formatSeq(seq)}\``, { path: paths.workspace });
    const record = await readWorkspace(file.path);
    if (file.status !== 'active') throw new CampaignError('illegal-transition', `workspace ${file.stem} is already ${file.status}`, { path: file.path });
    if (options.runner !== undefined && record.runner !== undefined && options.runner !== record.runner) {
      throw new CampaignError('not-holder', `workspace ${file.stem} is ${record.runner}'s (made when it held task ${formatSeq(seq)}); ${options.runner} cannot finish it; nothing was written`, { path: file.path });
    }
    // A crash between the in-place rewrite and the rename leaves the new status inside the old name:
    // finishing with the same status completes the rename; a different one is refused.
    if (record.status !== 'active' && record.status !== status) throw new CampaignError('illegal-transition', `workspace ${file.stem} is already ${record.status} (its file was not renamed yet)`, { path: file.path });
    const next: WorkspaceRecord = { ...record, status, delivered, updatedAt: now, utilization: options.utilized ?? record.utilization };
    if (status === 'blocked') next.blockedReason = delivered.replace(/^BLOCKED:\s*/, '');
    else delete next.blockedReason;
    // Renamed by the name it has, never by what its content says: the file stays where its listing found it.
    const path = join(paths.workspace, workspaceFileName(seq, file.slug, status));
    await writeFileAtomic(file.path, readableXml(next, 'the delivery'), { maxBytes: MAX_WORKSPACE_BYTES });
    await rename(file.path, path);
    return { path, record: next };
  }, { ...options.store?.lock });
}

/** The workspace of task `seq` in the active campaign's workspace directory. */
export async function showWorkspace(root: string, seq: number, options: CampaignOptions = {}): Promise<{ path: string; record: WorkspaceRecord }> {
  const paths = campaignPaths(root, options);
  const file = (await listWorkspaceFiles(paths.workspace)).find((f) => f.seq === seq);
  if (!file) throw new CampaignError('no-workspace', `task ${formatSeq(seq)} has no workspace`, { path: paths.workspace });
  return { path: file.path, record: await readWorkspace(file.path) };
}

export interface CampaignWorkspaces {
  /** The directory read. */
  dir: string;
  /**
   * By seq; a retried task's failed earlier attempts (`live: false`, status blocked) come before its
   * live workspace, oldest first, each once.
   */
  workspaces: (WorkspaceRecord & { file: string; live: boolean })[];
  /** Files left out, with why: `unreadable` ones (with the place when known) are the user's to fix. */
  skipped: SkippedWorkspace[];
}

export interface SkippedWorkspace {
  path: string;
  reason: string;
  /** `unreadable`: the file does not read or parse; `other-campaign`: a leftover of another campaign. */
  kind: 'unreadable' | 'other-campaign';
  line?: number;
  column?: number;
}

/**
 * Every workspace of a campaign, parsed, by seq, failed earlier attempts included: the active
 * campaign's (default) or an archived one's (`campaign: <id>`). This is what `ratchet memory
 * observe` learns from.
 */
export async function readCampaignWorkspaces(root: string, options: CampaignOptions & { campaign?: string } = {}): Promise<CampaignWorkspaces> {
  const paths = campaignPaths(root, options);
  let dir = paths.workspace;
  // The active campaign's workspace directory may hold files another campaign left behind: not its.
  let owner: string | undefined;
  if (options.campaign === undefined) {
    owner = (
      await readCampaign(root, options).catch((err: unknown) => {
        // No active campaign: whatever is in the directory is read as it is. A broken campaign.json is reported.
        if (err instanceof CampaignError && err.code === 'no-campaign') return undefined;
        throw err;
      })
    )?.id;
  }
  else {
    const active = await readCampaign(root, options).catch(() => undefined);
    owner = options.campaign;
    if (active?.id !== options.campaign) {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(options.campaign)) throw new CampaignError('invalid-argument', `not a campaign id: ${JSON.stringify(options.campaign)}`);
      dir = join(paths.archive, options.campaign, 'workspace');
      // An archived campaign's workspaces were moved beside its archive entry, wherever they were made.
      if (options.workspaceDir !== undefined) throw new CampaignError('invalid-argument', `campaign ${options.campaign} is not the active one: its workspaces are archived in ${dir}, a workspace directory does not apply`);
    }
  }
  const workspaces: (WorkspaceRecord & { file: string; live: boolean })[] = [];
  const skipped: SkippedWorkspace[] = [];
  for (const f of await listWorkspaceFiles(dir, { attempts: true })) {
    try {
      const record = await readWorkspace(f.path);
      if (!ofCampaign(record, owner)) {
        skipped.push({ path: f.path, reason: `belongs to campaign ${record.campaign}, not ${owner!}`, kind: 'other-campaign' });
        continue;
      }
      workspaces.push({ ...record, status: f.status, file: f.path, live: f.attempt === undefined, ...(f.lost === true ? { lost: true } : {}) });
    } catch (err) {
      const place = err instanceof CampaignError ? { ...(err.line === undefined ? {} : { line: err.line }), ...(err.column === undefined ? {} : { column: err.column }) } : {};
      skipped.push({ path: f.path, reason: err instanceof Error ? ((err as { reason?: string }).reason ?? err.message) : String(err), kind: 'unreadable', ...place });
    }
  }
  return { dir, workspaces, skipped };
}
