/**
 * The dashboard's view of the project: each section read on demand (only the ones a change may have
 * touched), the snapshot the page starts from, and the patch that takes a page from the previous
 * snapshot to this one. Campaign tasks are compared one by one (a 10,000-task campaign where 50
 * builders claim sends 50 tasks, not 10,000); every other section is small and goes whole.
 */
import { basename } from 'node:path';
import { ACTIVITY_LOG_PATH } from '@ratchet/orchestrator/session-view';
import type { StorageBackend, StoredJsonValue } from '@ratchet/store';
import type { Context } from '../context.js';
import { toErrorReport } from '../errors.js';
import { displayPath } from '../paths.js';
import { REFUSAL_LOG, refusalValidator } from '../refusal-log.js';
import { LogTail } from './log-tail.js';
import type { ActivityView, ArchivedCampaign, CampaignView, DashboardTask, FlowView, JixoJobView, RefusalView, SessionView, Snapshot, SnapshotPatch, SourceError, WaitingItem } from './model.js';
import { readArchiveView, readCampaignView, readFlowViews, readJixoViews, readSessionView, readWaiting } from './sections.js';

export const SECTIONS = ['campaign', 'archive', 'session', 'flows', 'jixo', 'goals', 'refusals', 'activity'] as const;
export type Section = (typeof SECTIONS)[number];

/** How many refusals and activity entries the page gets (the newest). */
export const RECENT_REFUSALS = 50;
export const RECENT_ACTIVITY = 200;

/** A thrown error as the page shows it: message and place, the path relative to the project. */
export function sourceError(ctx: Context, source: string, err: unknown): SourceError {
  const report = toErrorReport(err);
  const out: SourceError = { source, code: report.code, message: report.message };
  if (report.file !== undefined) out.file = displayPath(ctx, report.file);
  if (report.line !== undefined) out.line = report.line;
  if (report.column !== undefined) out.column = report.column;
  if (report.pointer !== undefined) out.pointer = report.pointer;
  // A schema error places its issues, not itself: the first issue's place is the error's.
  const issues = (err as { issues?: unknown }).issues;
  if (Array.isArray(issues) && issues.length > 0) {
    const placed = issues as { message?: unknown; line?: unknown; column?: unknown; pointer?: unknown }[];
    const first = placed[0]!;
    if (out.line === undefined && typeof first.line === 'number') out.line = first.line;
    if (out.column === undefined && typeof first.column === 'number') out.column = first.column;
    if (typeof first.message === 'string') out.message = `${first.message}${typeof first.pointer === 'string' && first.pointer !== '' ? ` (at ${first.pointer})` : ''}`;
    if (placed.length > 1) {
      out.problems = placed.slice(1).map((i) => ({
        message: String(i.message),
        ...(out.file === undefined ? {} : { file: out.file }),
        ...(typeof i.line === 'number' ? { line: i.line } : {}),
        ...(typeof i.column === 'number' ? { column: i.column } : {}),
      }));
    }
  } else if (report.problems !== undefined) {
    out.problems = report.problems.map((p) => ({ ...p, ...(p.file === undefined ? {} : { file: displayPath(ctx, p.file) }) }));
  }
  return out;
}

function activityView(record: StoredJsonValue, seq: number): ActivityView {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) throw Object.assign(new Error(`record ${seq} is not an object`), { code: 'invalid-record', path: ACTIVITY_LOG_PATH, line: seq });
  const r = record as Record<string, StoredJsonValue>;
  const obj = (v: StoredJsonValue | undefined): Record<string, StoredJsonValue> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {});
  const str = (v: StoredJsonValue | undefined, fallback = ''): string => (typeof v === 'string' ? v : fallback);
  const action = obj(r.action);
  const outcome = obj(r.outcome);
  const details = obj(action.details);
  const tool = details.tool;
  const input = obj(details.input);
  const about = ['command', 'file_path', 'path', 'pattern', 'url', 'description', 'prompt'].map((k) => input[k]).find((v): v is string => typeof v === 'string' && v !== '');
  return {
    time: str(r.timestamp),
    session: str(r.session_id),
    phase: str(r.phase),
    task: str(obj(r.task).id),
    action: str(action.type),
    status: str(outcome.status),
    message: str(outcome.message),
    ...(typeof tool === 'string' ? { tool } : {}),
    ...(about === undefined ? {} : { detail: about.length > 160 ? `${about.slice(0, 159)}…` : about }),
  };
}

function refusalView(record: StoredJsonValue, seq: number): RefusalView {
  const parsed = refusalValidator.safeParse(record);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw Object.assign(new Error(`record ${seq}: ${issue.message}${issue.path.length > 0 ? ` (at /${issue.path.join('/')})` : ''}`), { code: 'invalid-record', path: REFUSAL_LOG, line: seq });
  }
  const { v: _v, ...view } = parsed.data;
  return view;
}

interface SectionState {
  campaign: CampaignView | null;
  archive: ArchivedCampaign[];
  session: SessionView | null;
  flows: FlowView[];
  jixo: JixoJobView[];
  waiting: WaitingItem[];
}

export class DashboardState {
  private sections: SectionState = { campaign: null, archive: [], session: null, flows: [], jixo: [], waiting: [] };
  private readonly errors = new Map<Section, SourceError[]>();
  private readonly ruleCounts = new Map<string, { count: number; last: string }>();
  private refusalTotal = 0;
  private readonly refusals = new LogTail<RefusalView>(REFUSAL_LOG, RECENT_REFUSALS, refusalView, () => {
    this.ruleCounts.clear();
    this.refusalTotal = 0;
  }, (r) => {
    this.refusalTotal++;
    for (const rule of r.rules) {
      const seen = this.ruleCounts.get(rule);
      this.ruleCounts.set(rule, { count: (seen?.count ?? 0) + 1, last: seen === undefined || r.time > seen.last ? r.time : seen.last });
    }
  });
  private readonly activity = new LogTail<ActivityView>(ACTIVITY_LOG_PATH, RECENT_ACTIVITY, activityView);
  private current: Snapshot | undefined;
  /** Each task's JSON in `current`, so a patch compares strings instead of re-serialising old tasks. */
  private taskJson = new Map<number, string>();
  private dependsJson = new Map<number, string>();

  constructor(
    private readonly ctx: Context,
    private readonly backend: StorageBackend,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The last snapshot built (call `refresh` first). */
  snapshot(): Snapshot {
    if (this.current === undefined) throw new Error('refresh() before snapshot()');
    return this.current;
  }

  /**
   * Re-reads the given sections (every one the first time) and returns the patch from the previous
   * snapshot, or undefined when nothing the page shows changed.
   */
  async refresh(dirty: ReadonlySet<Section> = new Set(SECTIONS)): Promise<SnapshotPatch | undefined> {
    const all = new Set<Section>(this.current === undefined ? SECTIONS : dirty);
    const timings: string[] = [];
    const run = async (section: Section, fn: () => Promise<void>): Promise<void> => {
      if (!all.has(section)) return;
      const started = Date.now();
      try {
        this.errors.delete(section);
        await fn();
      } catch (err) {
        this.errors.set(section, [sourceError(this.ctx, section, err)]);
      }
      timings.push(`${section} ${Date.now() - started}`);
    };
    const { ctx, backend } = this;
    // Sections read side by side: on a busy database a refresh takes its slowest read, not their sum.
    await Promise.all([
      run('campaign', async () => {
        this.sections.campaign = await readCampaignView(ctx, backend);
      }),
      run('archive', async () => {
        const { archive, skipped } = await readArchiveView(ctx);
        this.sections.archive = archive;
        if (skipped.length > 0) this.errors.set('archive', skipped.map((s) => ({ source: 'archive', code: 'unreadable', message: s.reason, file: displayPath(ctx, s.path) })));
      }),
      run('session', () => {
        this.sections.session = readSessionView(ctx);
        return Promise.resolve();
      }),
      run('flows', async () => {
        const { flows, errors } = await readFlowViews(ctx);
        this.sections.flows = flows;
        if (errors.length > 0) this.errors.set('flows', errors.map((e) => sourceError(ctx, 'flows', e)));
      }),
      run('jixo', async () => {
        const { jobs, errors } = await readJixoViews(ctx, backend);
        this.sections.jixo = jobs;
        if (errors.length > 0) this.errors.set('jixo', errors.map((e) => sourceError(ctx, 'jixo', e)));
      }),
      run('refusals', async () => {
        await this.refusals.read(backend);
      }),
      run('activity', async () => {
        await this.activity.read(backend);
      }),
    ]);
    // What waits for the user joins halted flows and open clarifications to the goals state.
    if (all.has('flows') || all.has('jixo')) all.add('goals');
    await run('goals', async () => {
      this.sections.waiting = await readWaiting(ctx, backend, this.sections.flows, this.sections.jixo);
    });
    this.lastTimings = timings.join(', ');
    return this.publish(this.build());
  }

  /** How long each section of the last refresh took (ms), for RATCHET_SERVE_TRACE. */
  lastTimings = '';

  private build(): Snapshot {
    const byRule = [...this.ruleCounts].map(([rule, { count, last }]) => ({ rule, count, last })).sort((a, b) => b.count - a.count || (a.rule < b.rule ? -1 : 1));
    return {
      format: 'ratchet-dashboard/1',
      now: this.clock().toISOString(),
      project: { root: this.ctx.cwd, name: basename(this.ctx.cwd) },
      backend: { kind: this.backend.kind, location: this.backend.location },
      campaign: this.sections.campaign,
      archive: this.sections.archive,
      session: this.sections.session,
      flows: this.sections.flows,
      jixo: this.sections.jixo,
      waiting: this.sections.waiting,
      refusals: { recent: [...this.refusals.records].reverse(), byRule, total: this.refusalTotal },
      activity: [...this.activity.records].reverse(),
      errors: SECTIONS.flatMap((s) => this.errors.get(s) ?? []),
    };
  }

  /** Makes `next` current and returns what changed since the previous snapshot. */
  private publish(next: Snapshot): SnapshotPatch | undefined {
    const previous = this.current;
    this.current = next;
    const nextJson = new Map<number, string>();
    const nextDepends = new Map<number, string>();
    for (const t of next.campaign?.tasks ?? []) {
      nextJson.set(t.seq, JSON.stringify(t));
      nextDepends.set(t.seq, t.depends.join(','));
    }
    const oldJson = this.taskJson;
    const oldDepends = this.dependsJson;
    this.taskJson = nextJson;
    this.dependsJson = nextDepends;
    if (previous === undefined) return undefined;

    const patch: SnapshotPatch = { now: next.now, set: {} };
    let changed = false;
    const set = patch.set as Record<string, unknown>;
    for (const key of ['project', 'backend', 'archive', 'session', 'flows', 'jixo', 'waiting', 'refusals', 'activity', 'errors'] as const) {
      if (JSON.stringify(previous[key]) !== JSON.stringify(next[key])) {
        set[key] = next[key];
        changed = true;
      }
    }
    const meta = (c: CampaignView | null): string => (c === null ? 'null' : JSON.stringify({ ...c, tasks: undefined }));
    if (meta(previous.campaign) !== meta(next.campaign)) {
      if (next.campaign === null) patch.campaign = null;
      else {
        const { tasks: _tasks, ...rest } = next.campaign;
        patch.campaign = rest;
      }
      changed = true;
    }
    const changedTasks: DashboardTask[] = [];
    const removed: number[] = [];
    let relayout = (previous.campaign === null) !== (next.campaign === null) || previous.campaign?.id !== next.campaign?.id;
    for (const t of next.campaign?.tasks ?? []) {
      const old = oldJson.get(t.seq);
      if (old !== nextJson.get(t.seq)) changedTasks.push(t);
      if (old === undefined || oldDepends.get(t.seq) !== nextDepends.get(t.seq)) relayout = true;
    }
    for (const seq of oldJson.keys()) {
      if (!nextJson.has(seq)) {
        removed.push(seq);
        relayout = true;
      }
    }
    if (changedTasks.length > 0 || removed.length > 0) {
      patch.tasks = { changed: changedTasks, removed };
      changed = true;
    }
    if (relayout) {
      patch.relayout = true;
      changed = true;
    }
    return changed ? patch : undefined;
  }
}
