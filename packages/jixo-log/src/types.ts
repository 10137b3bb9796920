/**
 * The parsed forms of JIXO's two Markdown files, as plain JSON-serialisable data. Their types are
 * derived from the zod schemas in schema.ts (the one source of the formats; each field's description
 * is there) with `import type` only: the main entry never loads zod.
 */
import type { z } from 'zod';
import type {
  ClarificationSchema,
  ExtraSectionSchema,
  JobFileSchema,
  JobFrontMatterSchema,
  LogFileSchema,
  LogFrontMatterSchema,
  PlannerRoundSchema,
  RoadmapItemSchema,
  TaskStatusSchema,
  TasksExitSchema,
  WorkLogEntrySchema,
} from './schema.js';

export const TASK_STATUSES = ['Pending', 'Locked', 'Completed', 'Failed', 'Cancelled'] as const;
/** Task state: Pending->Locked->Completed|Failed, Locked->Pending, Failed->Pending|Cancelled, Pending->Cancelled. */
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

export const WORK_LOG_RESULTS = ['Succeeded', 'Failed', 'Pending', 'Cancelled'] as const;
export type WorkLogResult = (typeof WORK_LOG_RESULTS)[number];

export const ROLES = ['Planner', 'Runner'] as const;
export type Role = (typeof ROLES)[number];

/** One checklist item of the Roadmap: a phase (no status, has children) or a task (has a status). */
export type RoadmapItem = z.infer<typeof RoadmapItemSchema>;

/**
 * One `### Log N @Job (time)` entry of the Work Log. `runner` is the runner that committed it;
 * `blocker`, on a Pending entry, what it cannot go on without (triage reads it, never the summary);
 * `legacy` keeps an entry in an older JIXO layout byte for byte.
 */
export type WorkLogEntry = z.infer<typeof WorkLogEntrySchema>;

/** What `jixo_tasks_exit` recorded last: the outer loop stops on code 0. */
export type TasksExit = z.infer<typeof TasksExitSchema>;

/**
 * The elected Planner (front matter `planner`): one runner plans at a time. Triage (the CLI's, or
 * the outer loop's assignment) records the runner it makes the Planner, with a lease like a task
 * lock's; Planner moves by an agent are refused unless it is this runner. The round ends with the
 * Planner's Work Log entry (`jixo log add`), when its agent exits (`jixo run`), or when the lease
 * runs out.
 */
export type PlannerRound = z.infer<typeof PlannerRoundSchema>;

/** The front matter of a *.log.md file; `extra` keeps unknown keys in order. */
export type LogFrontMatter = z.infer<typeof LogFrontMatterSchema>;

/** A level-2 section Ratchet does not own, kept verbatim. */
export type ExtraSection = z.infer<typeof ExtraSectionSchema>;

/**
 * The parsed form of a *.log.md file. `roadmapTitle`/`workLogTitle` are the headings as the file
 * wrote them when they are not "Roadmap"/"Work Log" (JIXO v1/v2 wrote `## 工作计划` / `## 工作路线图`
 * and `## 工作日志`), written back unchanged; an empty string is no heading at all, as JIXO v1 wrote
 * some logs (`workLogTitle: ''`: entries after the plan and a `---` line; both empty: a log of
 * entries only, and a plan added later gets both headings).
 */
export type LogFile = z.infer<typeof LogFileSchema>;

/** The front matter of a *.job.md file; `extra` keeps unknown keys. */
export type JobFrontMatter = z.infer<typeof JobFrontMatterSchema>;

/** A `### JIXO: CLARIFICATION REQUEST` block; `response` is empty when unanswered. */
export type Clarification = z.infer<typeof ClarificationSchema>;

/** The parsed form of a *.job.md file: its goal (the body without clarification blocks) and clarifications. */
export type JobFile = z.infer<typeof JobFileSchema>;

export type Severity = 'error' | 'warning';

/** One problem in a file, with its place. */
export interface Diagnostic {
  rule: string;
  severity: Severity;
  message: string;
  line: number;
  column: number;
}
