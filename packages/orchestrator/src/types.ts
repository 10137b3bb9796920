/** The session: plain JSON, the value the session document stores (its zod schema is in session.ts). */
import type { PlanExpansion } from '@ratchet/plan-lint';

/** One plan on the stack: its flattened command lines and the index of the current one. */
export interface PlanFrame {
  /** Project-relative path of the plan file. */
  planPath: string;
  /** Command lines, for_each_file expanded and `{file}` substituted; `call_plan <target>` lines stay as they are. */
  steps: string[];
  /** Index into `steps` of the step to run next. */
  current: number;
}

/** One lifecycle transition. */
export interface HistoryEntry {
  /** ISO 8601 time from the injected clock. */
  at: string;
  from: string;
  trigger: string;
  to: string;
  /** Free text given with the move (a failed step's message). */
  message?: string | undefined;
}

/** A research cycle the task entered (`ratchet research plan`), from PLANNING or, pausing the plan, from EXECUTING. */
export interface ResearchInfo {
  topic: string;
  /** Project-relative path of the generated research plan. */
  planPath: string;
  /** Project-relative path of the report the plan creates; `research done` requires it, with content. */
  reportPath?: string | undefined;
  startedAt: string;
  /** The state the research started in; `research done` returns there. Absent (older sessions): PLANNING. */
  from?: string | undefined;
}

/** The post-mortem `task close` wrote; its hash tells a filled-in report from the untouched template. */
export interface PostMortemInfo {
  /** Project-relative path of the report. */
  path: string;
  /** SHA-256 (hex) of the template as written. */
  templateSha256: string;
  outcome: 'SUCCESS' | 'FAILURE';
}

/** What `run plan` linted, by content: a sub-plan that differs when it is called is refused (a change is a new plan). */
export interface PlanPins {
  /** Project-relative plan path -> SHA-256 (hex) of its text, for the root plan and every sub-plan lint reached ({file} targets included). */
  plans: Record<string, string>;
  /**
   * The plan registry lint resolved names through (name -> path); the run resolves call_plan names
   * through it, so a later `plan registry register --force` cannot swap a sub-plan. (Sessions from
   * before it held only the names a reached call_plan used.)
   */
  registry: Record<string, string>;
}

/**
 * The file a step names, as it was when the step became current: `run done` checks the step changed
 * it (a write), or made exactly what a known diff makes (a code change), instead of taking it on trust.
 */
export interface StepBaseline {
  /** The step it belongs to (a baseline for another step is ignored). */
  planPath: string;
  index: number;
  line: string;
  /** Project-relative path of the file the step names. */
  path: string;
  /** SHA-256 (hex) of the file when the step became current; null when it did not exist. */
  sha256: string | null;
  /** When the step applies a known diff (a code-change plan's `<name>.diff` beside it): the SHA-256 of the file once it is applied. */
  expected?: string | undefined;
  /** The diff file `expected` comes from (project-relative). */
  diff?: string | undefined;
}

export interface Session {
  taskId: string;
  /** One id per `task start`, shared by every activity-log entry of that run (the seed's session_id). */
  sessionId?: string | undefined;
  /** Current lifecycle state (a state of the orchestrator FSM). */
  state: string;
  /** The plan stack, outermost (root plan) first. Empty outside EXECUTING. */
  stack: PlanFrame[];
  history: HistoryEntry[];
  createdAt: string;
  updatedAt: string;
  /** Present while (and after) a research cycle ran. */
  research?: ResearchInfo | undefined;
  /** Present once the task was closed. */
  postMortem?: PostMortemInfo | undefined;
  /** The plan registry the running plan resolves call_plan names through (project-relative); default knowledge_core/plan_registry.json. */
  registry?: string | undefined;
  /** The content pins `run plan` took of the plans it linted. */
  pins?: PlanPins | undefined;
  /**
   * What `run plan`'s lint made of the for_each_file lines of the frames not loaded yet (frame
   * position -> loops, see @ratchet/plan-lint's PlanExpansion): a sub-plan's loops iterate these
   * files, not what the disk holds when it is called. Absent in sessions written before it existed:
   * their loops glob the project.
   */
  expansion?: PlanExpansion | undefined;
  /** The current step's file as it was when the step became current (see StepBaseline). */
  stepBaseline?: StepBaseline | undefined;
}

/** The clock every function that stamps a time takes. */
export interface Clock {
  now: () => Date;
}
