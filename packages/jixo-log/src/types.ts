/**
 * The parsed forms of JIXO's two Markdown files, as plain JSON-serialisable data. The zod schemas in
 * schema.ts describe the same shapes (a test keeps them in step); this file imports no zod.
 */

export const TASK_STATUSES = ['Pending', 'Locked', 'Completed', 'Failed', 'Cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const WORK_LOG_RESULTS = ['Succeeded', 'Failed', 'Pending', 'Cancelled'] as const;
export type WorkLogResult = (typeof WORK_LOG_RESULTS)[number];

export const ROLES = ['Planner', 'Runner'] as const;
export type Role = (typeof ROLES)[number];

/** One checklist item of the Roadmap: a phase (no status, has children) or a task (has a status). */
export interface RoadmapItem {
  /** `1.2` for `1.2. Move code`; the whole text when it has no number. Derived from `text`. */
  id: string;
  /** Everything after the checkbox, as written (`1.2. Move shared code to \`packages/core\``). */
  text: string;
  checked: boolean;
  /** Absent for phases. */
  status?: TaskStatus;
  runner?: string;
  /**
   * `leaseUntil:` (ISO-8601) on a Locked task: the runner holds the task until then unless it renews
   * the lease; once it has passed, the task is recoverable from any host (stale). A Locked task
   * without one (logs written before leases, or by hand) never expires by time: it is stale only when
   * its runner is not active, as before.
   */
  leaseUntil?: string;
  dependsOn?: string[];
  /**
   * True when the file has no `status:` sub-bullet and the status was read from the checkbox (JIXO
   * v1/v2 logs, whose roadmap was a plain checklist): `[x]` Completed, `[ ]` Pending. Such a status
   * is not written back (the file stays as JIXO wrote it) and the audit does not ask for its entry.
   */
  statusInferred?: boolean;
  /** Sub-bullets and lines Ratchet does not understand, kept verbatim (de-indented to the item). */
  notes: string[];
  children: RoadmapItem[];
}

export interface WorkLogEntry {
  number: number;
  job: string;
  time: string;
  role: string;
  objective: string;
  result: string;
  summary: string;
  /** `**Runner**`: the runner that committed the entry (absent in entries written by hand or before 0.x). */
  runner?: string;
  /**
   * `**Blocker**`: set on a Pending entry when the runner cannot go on without a Planner (what is
   * missing). Triage reads this field, never the summary's wording: a Pending entry without it is a
   * normal pause (out of turns) that the next runner continues.
   */
  blocker?: string;
  /** Anything else in the entry, verbatim. */
  extra: string;
  /**
   * An entry in an older JIXO layout, kept byte for byte (entries are never edited): `v1` a bullet
   * `- 时间：`T`，执行者：`@job`，第N次执行任务：` with sub-bullets; `v3` a `### Log-N @ time for runner`
   * heading. New entries are always written in the current layout.
   */
  legacy?: { format: 'v1' | 'v3'; text: string };
}

/** What `jixo_tasks_exit` recorded last: the outer loop stops on code 0. */
export interface TasksExit {
  code: 0 | 1 | 2;
  reason: string;
  runner: string;
  time: string;
}

/**
 * The elected Planner (front matter `planner`): one runner plans at a time. Triage (the CLI's, or
 * the outer loop's assignment) records the runner it makes the Planner, with a lease like a task
 * lock's; Planner moves by an agent are refused unless it is this runner. The round ends with the
 * Planner's Work Log entry (`jixo log add`), when its agent exits (`jixo run`), or when the lease
 * runs out.
 */
export interface PlannerRound {
  runner: string;
  /** UTC time (`toISOString`) after which another runner may be elected. */
  leaseUntil: string;
  /** When it was elected. */
  since: string;
}

export interface LogFrontMatter {
  title: string;
  /** 0..1 (the file says "NN%"). */
  progress: number;
  createTime?: string;
  updateTime?: string;
  exit?: TasksExit;
  planner?: PlannerRound;
  /** Unknown keys, kept in order. */
  extra: Record<string, unknown>;
}

/** A level-2 section Ratchet does not own, kept verbatim. */
export interface ExtraSection {
  title: string;
  body: string;
}

export interface LogFile {
  frontMatter: LogFrontMatter;
  /** Text between the front matter and the first `##` heading. */
  preamble: string;
  /** Text in `## Roadmap` before the checklist. */
  roadmapIntro: string;
  roadmap: RoadmapItem[];
  /** Text in `## Roadmap` after the checklist. */
  roadmapOutro: string;
  workLogIntro: string;
  /** Newest first, as the seed writes them. */
  workLog: WorkLogEntry[];
  sections: ExtraSection[];
  /**
   * The headings as the file wrote them when they are not "Roadmap"/"Work Log" (JIXO v1/v2 wrote
   * `## 工作计划` / `## 工作路线图` and `## 工作日志`): written back unchanged. An empty string is no
   * heading at all, as JIXO v1 wrote some logs: `workLogTitle: ''` entries after the plan and a `---`
   * line; both empty, a log of entries only (a plan added later gets both headings).
   */
  roadmapTitle?: string;
  workLogTitle?: string;
}

export interface JobFrontMatter {
  name?: string;
  dirs?: string[];
  agents?: string[];
  model?: string;
  useLog?: string;
  extra: Record<string, unknown>;
}

export interface Clarification {
  id: string;
  toUser: string;
  question: string;
  /** The response text, without the placeholder comment. Empty when unanswered. */
  response: string;
  answered: boolean;
}

export interface JobFile {
  frontMatter: JobFrontMatter;
  /** The body without clarification blocks: the job's goal. */
  goal: string;
  clarifications: Clarification[];
}

export type Severity = 'error' | 'warning';

/** One problem in a file, with its place. */
export interface Diagnostic {
  rule: string;
  severity: Severity;
  message: string;
  line: number;
  column: number;
}
