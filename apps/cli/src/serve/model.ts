/**
 * What `ratchet serve` sends its page: one snapshot of the project's state, then patches. Types
 * only, importing only types of modules that need no Node: the page (apps/cli/web) is compiled
 * against this same file, so the server and the page cannot drift apart. Every text in it is user
 * data the page shows as text, never as markup.
 */
import type { ErrorReport } from '../errors.js';
import type { RefusalRecord } from '../refusal-log.js';

/** A state file (or database key) that could not be read: shown in place of its section, with its place and every further problem. */
export interface SourceError extends ErrorReport {
  /** Which section it broke: campaign, session, flows, jixo, goals, activity, refusals, archive. */
  source: string;
}

export interface DashboardTask {
  seq: number;
  slug: string;
  type: string;
  status: 'pending' | 'in_progress' | 'complete' | 'blocked';
  description?: string;
  depends: number[];
  runner?: string;
  reason?: string;
  blockedBy?: number[];
  rootCause?: number;
  cascade?: boolean;
  updatedAt?: string;
  verify?: string;
  delta?: string[];
  /** The live leased claim, as the claim queue says now. */
  lease?: { runner: string; until: string; attempt: number; expired: boolean };
  lostAttempts?: { runner: string; attempt: number; leaseUntil: string; recoveredAt: string }[];
  /** Pending with every dependency complete. */
  ready?: boolean;
  /** Pending below a blocked task (it cannot run until the block is resolved). */
  unreachable?: { blockedBy: number[]; rootCause: number };
  /** Its wave (longest dependency chain above it); -1 on a cycle. */
  wave: number;
  /** On the critical path of what is left. */
  critical?: boolean;
}

export interface CampaignView {
  id: string;
  objective: string;
  framework: string | null;
  phase: string | null;
  status: string;
  /** none | complete | in_progress | stuck | all_blocked */
  state: string;
  counts: { pending: number; in_progress: number; complete: number; blocked: number };
  tasks: DashboardTask[];
  ready: number[];
  waves: number;
  criticalPath: number[];
  /** Where the campaign lives: the file, or backend#key. */
  where: string;
}

export interface ArchivedCampaign {
  id: string;
  objective: string;
  completedAt: string;
  total: number;
  counts: { pending: number; in_progress: number; complete: number; blocked: number };
}

export interface SessionView {
  taskId: string;
  sessionId?: string;
  state: string;
  /** The plan stack, outermost first. */
  stack: { planPath: string; step: number; steps: number; current?: string }[];
  step?: { line: string; index: number; planPath: string };
  research?: string;
  postMortem?: string;
  /** What the agent is told to do next. */
  next?: { instruction: string; commands: string[] };
  history: { at: string; from: string; trigger: string; to: string; message?: string }[];
}

export interface FlowView {
  sessionId: string;
  flow: string;
  status: string;
  step: string | null;
  stepTitle?: string;
  /** The command that moves it on (for a halted flow, the user's resume). */
  command?: string;
  haltReason?: string;
  questions?: string[];
}

export interface JixoTaskView {
  id: string;
  text: string;
  status: string;
  runner?: string;
  leaseUntil?: string;
  dependsOn?: string[];
  /** The phase it belongs to (its id). */
  phase?: string;
}

export interface JixoJobView {
  name: string;
  /** The job file, project-relative (absent for a log found without its job). */
  job?: string;
  log: string;
  title: string;
  /** 0..1 */
  progress: number;
  tasks: JixoTaskView[];
  /** Runners holding a task now. */
  runners: string[];
  /** The outer loop's live runner list (`<log>.runners`), when one is running on this machine. */
  activeRunners: string[];
  exit?: { code: number; reason: string; runner: string; time: string };
  workLog: { number: number; time: string; role: string; runner?: string; objective: string; result: string }[];
  clarifications: { id: string; answered: boolean }[];
}

/** Something only a person can move on, and the command they run for it. */
export interface WaitingItem {
  kind: 'action' | 'confirmation' | 'proposal' | 'clarification' | 'halted-flow';
  id: string;
  title: string;
  detail?: string;
  /** The command a person runs (from their own terminal). */
  command: string;
  due?: string;
  overdue?: boolean;
}

/** A refusal-log record as the page shows it. */
export type RefusalView = Omit<RefusalRecord, 'v'>;

export interface ActivityView {
  time: string;
  session: string;
  phase: string;
  task: string;
  action: string;
  status: string;
  message: string;
  tool?: string;
  /** What the call was about: its command, file, pattern or URL (as the log summarised it). */
  detail?: string;
}

export interface Snapshot {
  /** Of this shape; the page refuses one it does not know. */
  format: 'ratchet-dashboard/1';
  /** The server's clock when it read the state: leases count down from here. */
  now: string;
  project: { root: string; name: string };
  backend: { kind: string; location: string };
  campaign: CampaignView | null;
  archive: ArchivedCampaign[];
  session: SessionView | null;
  flows: FlowView[];
  jixo: JixoJobView[];
  waiting: WaitingItem[];
  refusals: { recent: RefusalView[]; byRule: { rule: string; count: number; last: string }[]; total: number };
  activity: ActivityView[];
  errors: SourceError[];
}

/** A change: every top-level section that changed, whole, except the campaign's tasks, which change one by one. */
export interface SnapshotPatch {
  now: string;
  /** Sections replaced whole (not `campaign`). */
  set: Partial<Omit<Snapshot, 'format' | 'campaign'>>;
  /** The campaign without its tasks (null: no campaign now); absent when unchanged. */
  campaign?: Omit<CampaignView, 'tasks'> | null;
  /** Tasks added or changed, and seqs removed. */
  tasks?: { changed: DashboardTask[]; removed: number[] };
  /** The graph's shape changed (tasks or dependencies added or removed): lay it out again. */
  relayout?: boolean;
}
