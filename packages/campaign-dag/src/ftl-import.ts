/**
 * FTL's own campaign files, converted to Ratchet's: `.ftl/campaign.json` (the active campaign) and
 * `.ftl/archive/*.json` (finished ones). FTL's shape: `{_schema_version, objective, framework,
 * created_at, status, tasks: [{seq: "001", slug, type, depends: "none"|"001"|[...], status,
 * blocked_by?, updated_at?}]}`, and once `campaign.py complete` ran: `completed_at`, `summary` (its
 * prose, or counts), `fingerprint` and `patterns_extracted`. FTL kept no delta or verify in
 * campaign.json (they lived in plan.json), so the converted tasks have none; `blocked_by` lists
 * become `blockedBy`, `updated_at` becomes `updatedAt`. A finished campaign's archive entry keeps
 * FTL's completion time, its prose summary (`summary.text`) and what Ratchet has no field for
 * (`ftl`: the summary, fingerprint and patterns_extracted as FTL wrote them).
 *
 * The conversion is pure and reports every problem with its JSON pointer (and line and column when
 * the text is given). The writers never overwrite: an existing Ratchet campaign or archive entry is
 * refused by name.
 */
import { access, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { locate, readTextFile, parseJson, withLock, writeFileAtomic } from '@ratchet/store';
import { campaignId, summarize } from './campaign.js';
import { CampaignError, PlanError, type PlanProblem } from './errors.js';
import { migratePhase } from './phase.js';
import { normalizeSeq } from './seq.js';
import { ARCHIVE_SCHEMA_URL, ARCHIVE_VERSION, campaignPaths, createCampaign, updateCampaign, type ArchiveEntry, type CampaignOptions } from './store.js';
import { SLUG_PATTERN, TASK_STATUSES, TASK_TYPES, type Campaign, type Task, type TaskStatus, type TaskType } from './types.js';
import { campaignValidator } from './validate.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Record<string, unknown>, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

export interface FtlConversion {
  /** Present when there are no problems. */
  campaign?: Campaign;
  /** What a finished campaign's archive entry carries beyond the campaign (present with `campaign`). */
  finished?: FtlFinished;
  problems: PlanProblem[];
}

/** What FTL's `complete` recorded about a campaign, for its archive entry. */
export interface FtlFinished {
  /** FTL's `completed_at`, as written; absent when the file has none. */
  completedAt?: string;
  /** FTL's summary when it was prose (a string, or an object's `text`). */
  text?: string;
  /** What Ratchet's archive summary has no field for, as FTL wrote it. */
  original: { summary?: unknown; fingerprint?: unknown; patterns_extracted?: unknown };
}

/** FTL's campaign.json value as a Ratchet campaign. `text` (the file) gives problems a line and column. */
export function convertFtlCampaign(raw: unknown, text?: string): FtlConversion {
  const problems: PlanProblem[] = [];
  const add = (pointer: string, message: string): void => {
    const p: PlanProblem = { rule: 'invalid', pointer, message };
    const at = text === undefined ? undefined : locate(text, pointer);
    if (at !== undefined) {
      p.line = at.line;
      p.column = at.column;
    }
    problems.push(p);
  };
  if (!isObject(raw)) {
    add('', 'an FTL campaign must be a JSON object with "objective" and "tasks"');
    return { problems };
  }
  const objective = own(raw, 'objective') ?? '';
  if (typeof objective !== 'string') add('/objective', '"objective" must be a string');
  const framework = own(raw, 'framework') ?? null;
  if (framework !== null && typeof framework !== 'string') add('/framework', '"framework" must be a string or null');
  const createdAt = own(raw, 'created_at') ?? '';
  if (typeof createdAt !== 'string') add('/created_at', '"created_at" must be a string');
  const status = own(raw, 'status') ?? 'active';
  if (status !== 'active' && status !== 'complete') add('/status', `"status" must be "active" or "complete", found ${JSON.stringify(status)}`);
  const completedAt = own(raw, 'completed_at');
  if (completedAt !== undefined && completedAt !== null && typeof completedAt !== 'string') add('/completed_at', '"completed_at" must be a string');
  const summary = own(raw, 'summary');
  const rawTasks = own(raw, 'tasks') ?? [];
  const tasks: Task[] = [];
  if (!Array.isArray(rawTasks)) add('/tasks', '"tasks" must be a list');
  else rawTasks.forEach((t: unknown, i) => {
    const task = convertTask(t, `/tasks/${i}`, add);
    if (task) tasks.push(task);
  });
  if (problems.length > 0) return { problems };
  const campaign: Campaign = {
    id: campaignId(objective as string, (createdAt as string) || '19700101T000000Z'),
    objective: objective as string,
    framework: framework as string | null,
    idioms: { required: [], forbidden: [] },
    createdAt: createdAt as string,
    status: status as Campaign['status'],
    tasks,
  };
  // Duplicate seqs, unknown dependencies and cycles: the same checks every campaign read makes.
  const check = campaignValidator.safeParse(campaign);
  if (!check.success) for (const issue of check.error.issues) add(`/${issue.path.map((s) => (typeof s === 'number' ? String(s) : s)).join('/')}`, issue.message);
  if (problems.length > 0) return { problems };
  const original: FtlFinished['original'] = {};
  for (const key of ['summary', 'fingerprint', 'patterns_extracted'] as const) if (own(raw, key) !== undefined && own(raw, key) !== null) original[key] = own(raw, key);
  const prose = typeof summary === 'string' ? summary : isObject(summary) && typeof summary.text === 'string' ? summary.text : undefined;
  const finished: FtlFinished = { original, ...(typeof completedAt === 'string' && completedAt !== '' ? { completedAt } : {}), ...(prose === undefined || prose.trim() === '' ? {} : { text: prose }) };
  return { campaign, finished, problems };
}

function convertTask(t: unknown, at: string, add: (pointer: string, message: string) => void): Task | undefined {
  if (!isObject(t)) {
    add(at, 'a task must be an object');
    return undefined;
  }
  let ok = true;
  const bad = (key: string, message: string): void => {
    ok = false;
    add(`${at}/${key}`, message);
  };
  const seq = normalizeSeq(own(t, 'seq'));
  if (seq === undefined) bad('seq', `"seq" must be a number or a digit string like "001", found ${JSON.stringify(own(t, 'seq') ?? null)}`);
  const slug = own(t, 'slug');
  if (typeof slug !== 'string' || !SLUG_PATTERN.test(slug)) bad('slug', '"slug" must be 1-64 letters, digits, ".", "_" or "-" (it names the workspace file)');
  const rawType = own(t, 'type') ?? 'BUILD';
  const type = typeof rawType === 'string' ? rawType.toUpperCase() : '';
  if (!(TASK_TYPES as readonly string[]).includes(type)) bad('type', `"type" must be SPEC, BUILD or VERIFY, found ${JSON.stringify(rawType)}`);
  const status = own(t, 'status') ?? 'pending';
  if (!(TASK_STATUSES as readonly unknown[]).includes(status)) bad('status', `"status" must be one of ${TASK_STATUSES.join(', ')}, found ${JSON.stringify(status)}`);
  const depends = seqList(own(t, 'depends'));
  if (depends === undefined) bad('depends', '"depends" must be "none", a seq, or a list of seqs');
  const blockedBy = own(t, 'blocked_by') === undefined ? [] : seqList(own(t, 'blocked_by'));
  if (blockedBy === undefined) bad('blocked_by', '"blocked_by" must be a list of seqs');
  const updatedAt = own(t, 'updated_at');
  if (updatedAt !== undefined && updatedAt !== null && typeof updatedAt !== 'string') bad('updated_at', '"updated_at" must be a string');
  if (!ok) return undefined;
  const task: Task = { seq: seq!, slug: slug as string, type: type as TaskType, delta: [], verify: '', depends: depends!, status: status as TaskStatus };
  if (blockedBy!.length > 0) task.blockedBy = blockedBy!;
  if (typeof updatedAt === 'string' && updatedAt !== '') task.updatedAt = updatedAt;
  return task;
}

/** "none", "001", 1 or a list of those: sorted, unique seqs; undefined when malformed. */
function seqList(v: unknown): number[] | undefined {
  if (v === undefined || v === null || v === 'none' || v === '') return [];
  const items = Array.isArray(v) ? (v as unknown[]) : [v];
  const out = new Set<number>();
  for (const item of items) {
    const n = normalizeSeq(item);
    if (n === undefined) return undefined;
    out.add(n);
  }
  return [...out].sort((a, b) => a - b);
}

/** Read and convert an FTL campaign file; throws PlanError (with places) when it is malformed. */
export async function readFtlCampaign(path: string): Promise<Campaign> {
  return (await readFtlCampaignFile(path)).campaign;
}

/** An FTL campaign file, converted: the campaign and what FTL recorded when it finished. */
export interface FtlCampaignFile {
  campaign: Campaign;
  finished: FtlFinished;
  /** The file's value as parsed (two files holding the same campaign compare equal by it). */
  raw: unknown;
}

/** Read and convert an FTL campaign file with its completion record; throws PlanError when it is malformed. */
export async function readFtlCampaignFile(path: string): Promise<FtlCampaignFile> {
  const { text } = await readTextFile(path);
  const raw = parseJson(text, { path });
  const { campaign, finished, problems } = convertFtlCampaign(raw, text);
  if (campaign === undefined) throw new PlanError(problems, path);
  return { campaign, finished: finished ?? { original: {} }, raw };
}

/**
 * The archive entry of a finished FTL campaign: its summary computed as `completeCampaign` does,
 * completed when FTL says (else at its last task update, else its creation: `completedAtFrom`
 * says which), FTL's prose in `summary.text`, and FTL's own values under `ftl`.
 */
export function ftlArchiveEntry(file: Pick<FtlCampaignFile, 'campaign' | 'finished'>): ArchiveEntry & { ftl?: FtlFinished['original']; completedAtFrom: 'completed_at' | 'last task update' | 'created_at' } {
  const { campaign, finished } = file;
  const lastUpdate = campaign.tasks.map((t) => t.updatedAt ?? '').reduce((a, b) => (b > a ? b : a), '');
  const completedAtFrom = finished.completedAt !== undefined ? 'completed_at' : lastUpdate !== '' ? 'last task update' : 'created_at';
  const completedAt = finished.completedAt ?? (lastUpdate !== '' ? lastUpdate : campaign.createdAt);
  const summary = { ...summarize(campaign), completedAt, ...(finished.text === undefined ? {} : { text: finished.text }) };
  return { campaign, summary, ...(Object.keys(finished.original).length === 0 ? {} : { ftl: finished.original }), completedAtFrom };
}

export interface FtlImportResult {
  campaign: Campaign;
  /** The Ratchet file written: the campaign state (active) or an archive entry (complete). */
  written: string;
  /** What the conversion had to decide, for the user (a completion time taken from elsewhere). */
  notes: string[];
}

/**
 * Import an FTL campaign file into Ratchet's state: an active one becomes the active campaign
 * (refused while a Ratchet campaign is active), a complete one an archive entry (refused when the
 * entry exists). Nothing is ever overwritten.
 */
export async function importFtlCampaign(root: string, path: string, options: CampaignOptions = {}): Promise<FtlImportResult> {
  const file = await readFtlCampaignFile(path);
  const { campaign } = file;
  const paths = campaignPaths(root, options);
  if (campaign.status === 'active') {
    // createCampaign refuses an active campaign under the lock; then the converted one replaces the fresh draft.
    await createCampaign(root, campaign.objective === '' ? 'imported from FTL' : campaign.objective, { ...options, framework: campaign.framework });
    await updateCampaign(root, options, (draft) => {
      // FTL records no phase: the converted campaign gets the one its tasks imply (BUILD once it has
      // tasks), not the fresh draft's EXPLORE, so `campaign complete` waits for the observer as usual.
      delete draft.phase;
      delete draft.phaseLog;
      migratePhase(Object.assign(draft, structuredClone(campaign)), (options.clock?.() ?? new Date()).toISOString(), `imported from FTL (${path})`);
    });
    return { campaign, written: paths.campaign, notes: [] };
  }
  const target = join(paths.archive, `${campaign.id}.json`);
  const { completedAtFrom, ...entry } = ftlArchiveEntry(file);
  const notes = completedAtFrom === 'completed_at' ? [] : [`${campaign.id} has no completed_at: its ${completedAtFrom} (${entry.summary.completedAt}) is taken as the completion time`];
  await withLock(
    target,
    async () => {
      if (await exists(target)) throw new CampaignError('campaign-exists', `the archive entry ${target} already exists; it is not overwritten`, { path: target });
      await writeFileAtomic(target, `${JSON.stringify({ $schema: ARCHIVE_SCHEMA_URL, schemaVersion: ARCHIVE_VERSION, ...entry }, null, 2)}\n`, { createParentDirs: true });
    },
    { createParentDirs: true },
  );
  return { campaign, written: target, notes };
}

/** The FTL archive files of a project (`.ftl/archive/*.json`), sorted; none when the directory is missing. */
export async function listFtlArchive(ftlDir: string): Promise<string[]> {
  try {
    return (await readdir(join(ftlDir, 'archive'))).filter((n) => n.endsWith('.json')).sort().map((n) => join(ftlDir, 'archive', n));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw err;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
