/**
 * The inputs of the JIXO area's typed operations (src/operations/jixo.ts, jixo-tasks.ts,
 * jixo-worklog.ts), apart from the operations so that their declarations import no library type.
 * File arguments are as the user gave them: the operations resolve them against the project.
 */

/** `jixo check <file>`: a *.log.md or *.job.md file. */
export interface JixoCheckInput {
  file: string;
}

/** `jixo triage <job> --runner ID`: Protocol 0. */
export interface JixoTriageInput {
  job: string;
  runner: string;
  /** The other active runners (their Locked tasks are not stale). */
  active?: readonly string[] | undefined;
  /** The log, where it is not the default next to the job. */
  log?: string | undefined;
  /** How long a Planner round lasts when this runner is elected (default 10 minutes). */
  leaseMs?: number | undefined;
  /** Decide without releasing stale locks or recording an election. */
  dryRun?: boolean | undefined;
}

/** `jixo lock <log> --runner ID`: the detached log lock. */
export interface JixoLockInput {
  log: string;
  runner: string;
  /** Wait this long for another holder (default 10 s). */
  timeoutMs?: number | undefined;
  /** The lock expires after this long if never unlocked (default 10 minutes). */
  leaseMs?: number | undefined;
  /** Presume a holder on another host dead after this long. */
  staleAfterMs?: number | undefined;
}

/** `jixo unlock <log> --runner ID`. */
export interface JixoUnlockInput {
  log: string;
  runner: string;
}

/** `jixo accept|restore <log>`: a person's decision about a log changed outside Ratchet. */
export interface JixoDecideInput {
  log: string;
  decision: 'accept' | 'restore';
}

/** `jixo task list <log>`, `jixo progress <log>`. */
export interface JixoLogInput {
  log: string;
}

/** What `jixo task complete|fail|pause` records. */
export const JIXO_OUTCOMES = ['complete', 'fail', 'pause'] as const;
export type JixoOutcome = (typeof JIXO_OUTCOMES)[number];

/** The Planner's moves on one roadmap item (`jixo task <action> <log> <id>`). */
export const JIXO_PLAN_ACTIONS = ['unblock', 'edit', 'depends', 'remove', 'retry', 'cancel'] as const;
export type JixoPlanAction = (typeof JIXO_PLAN_ACTIONS)[number];

interface TaskMoveBase {
  log: string;
}

/** Every `jixo task` change: one locked, atomic write of the log. */
export type JixoTaskMoveInput = TaskMoveBase &
  (
    | { verb: 'lock'; id: string; runner: string; leaseMs?: number | undefined }
    | { verb: JixoOutcome; id: string; runner: string; summary: string; objective?: string | undefined; blocker?: string | undefined }
    | { verb: 'add'; runner?: string | undefined; title: string; id?: string | undefined; parent?: string | undefined; dependsOn?: readonly string[] | undefined; phase?: boolean | undefined }
    | { verb: 'unblock'; id: string; runner?: string | undefined; summary: string }
    | { verb: 'edit'; id: string; runner?: string | undefined; title: string }
    | { verb: 'depends'; id: string; runner?: string | undefined; on: readonly string[] }
    | { verb: 'remove' | 'retry'; id: string; runner?: string | undefined }
    | { verb: 'cancel'; id: string; runner?: string | undefined; summary?: string | undefined }
  );

export type JixoTaskVerb = JixoTaskMoveInput['verb'];

export const JIXO_RESULTS = ['Succeeded', 'Failed', 'Pending', 'Cancelled'] as const;
export type JixoResult = (typeof JIXO_RESULTS)[number];

/** `jixo log add|title|progress|exit`: one locked, atomic write of the log. */
export type JixoLogChangeInput = TaskMoveBase &
  (
    | { verb: 'add'; runner?: string | undefined; role?: 'Planner' | 'Runner' | undefined; objective: string; summary: string; result?: JixoResult | undefined; job?: string | undefined }
    | { verb: 'title'; runner?: string | undefined; title: string }
    | { verb: 'progress' }
    | { verb: 'exit'; runner: string; code: 0 | 1 | 2; reason: string }
  );

/** `jixo clarify add|remove <job>`: the job file's clarification requests. */
export type JixoClarifyInput = { job: string } & ({ verb: 'add'; id: string; question: string } | { verb: 'remove'; id: string } | { verb: 'list' });
