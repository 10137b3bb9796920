/**
 * The session (`.ratchet/session.json`), as plain JSON: the types are the zod schemas' (schema.ts,
 * the one source of the format: it also generates schemas/session.schema.json). `import type`
 * only: the main entry checks with the hand-written validators in validate.ts and never loads zod.
 */
import type { z } from 'zod';
import type { HistoryEntrySchema, PlanFrameSchema, PlanPinsSchema, PostMortemInfoSchema, ResearchInfoSchema, SessionSchema, StepBaselineSchema } from './schema.js';

/**
 * One plan on the stack: `planPath` the project-relative plan file, `steps` its command lines
 * (for_each_file expanded, `{file}` substituted; `call_plan <target>` lines stay as they are),
 * `current` the index of the step to run next.
 */
export type PlanFrame = z.infer<typeof PlanFrameSchema>;

/** One lifecycle transition, `at` a time from the injected clock; `message` is free text given with the move (a failed step's). */
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/**
 * A research cycle the task entered (`ratchet research plan`), from PLANNING or, pausing the plan,
 * from EXECUTING: `planPath` is the generated research plan; `from` absent (older sessions): PLANNING.
 */
export type ResearchInfo = z.infer<typeof ResearchInfoSchema>;

/** The post-mortem `task close` wrote; its hash (`templateSha256`) tells a filled-in report from the untouched template. */
export type PostMortemInfo = z.infer<typeof PostMortemInfoSchema>;

/**
 * What `run plan` linted, by content: a sub-plan that differs when it is called is refused (a change
 * is a new plan). `plans` covers the root plan and every sub-plan lint reached ({file} targets
 * included); the run resolves call_plan names through `registry`, so a later `plan registry register
 * --force` cannot swap a sub-plan (sessions from before it held only the names a reached call_plan used).
 */
export type PlanPins = z.infer<typeof PlanPinsSchema>;

/**
 * The file a step names, as it was when the step became current: `run done` checks the step changed
 * it (a write), or made exactly what a known diff makes (a code change: `expected`, from the
 * `<name>.diff` beside a code-change plan), instead of taking it on trust. A baseline for another
 * step (`planPath`, `index`) is ignored.
 */
export type StepBaseline = z.infer<typeof StepBaselineSchema>;

/**
 * The session. `sessionId` is one id per `task start`, shared by every activity-log entry of that
 * run (the seed's session_id); `state` a state of the orchestrator FSM; `stack` the plan stack,
 * outermost (root plan) first, empty outside EXECUTING; `research` present while (and after) a
 * research cycle ran; `postMortem` once the task was closed; `expansion` what `run plan`'s lint made
 * of the for_each_file lines of the frames not loaded yet (@ratchet/plan-lint's PlanExpansion: a
 * sub-plan's loops iterate these files, not what the disk holds when it is called; absent in older
 * sessions, whose loops glob the project).
 */
export type Session = z.infer<typeof SessionSchema>;

/** The clock every function that stamps a time takes. */
export interface Clock {
  now: () => Date;
}
