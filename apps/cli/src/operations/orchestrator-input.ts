/**
 * The inputs of the task lifecycle's typed operations (src/operations/orchestrator*.ts), apart from
 * the operations so that their declarations import no library type.
 */

/** Which task session: its file, relative to the project (default .ratchet/session.json). */
export interface TaskSessionInput {
  session?: string | undefined;
}

/** `task start`: the task, and how orientation probes the network. */
export interface TaskStartInput extends TaskSessionInput {
  /** Checked like `--task-id` (letters, digits, . _ -). */
  taskId: string;
  /** false skips the network probe (`--no-network`); default true. */
  network?: boolean | undefined;
  /** What the probe connects to, `host:port` (default registry.npmjs.org:443). */
  networkTarget?: string | undefined;
  /** Give up on the probe after this many milliseconds, 1 to 60000, as given (default 1500). */
  networkTimeout?: string | undefined;
}

/** `task close`: the task; `abandon` with a `reason` gives up a task still in PLANNING. */
export interface TaskCloseInput extends TaskSessionInput {
  taskId: string;
  abandon?: boolean | undefined;
  reason?: string | undefined;
}

/** `task submit`. */
export interface TaskSubmitInput extends TaskSessionInput {
  taskId: string;
}

/** `run plan <plan>`: the plan file, and the dialect and registry to lint it with. */
export interface RunPlanInput extends TaskSessionInput {
  plan: string;
  dialect?: string | undefined;
  registry?: string | undefined;
}

/** `run done` and `research done`: the result of the step (or of the research). */
export interface StepResultInput extends TaskSessionInput {
  failed?: boolean | undefined;
  message?: string | undefined;
}

/** `research plan <topic...>`: the topic, its words joined by spaces. */
export interface ResearchPlanInput extends TaskSessionInput {
  topic: string;
}
