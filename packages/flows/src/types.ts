/**
 * The data model: flow definitions (what a file declares, after defaults) and session state (what
 * `.ratchet/flows/<session>.json` holds). The session's types are its zod schema's (schema.ts); the
 * flow's are the in-memory shape `parseFlow` builds, every default applied, so they are written out
 * here (the file as written is `FlowFileDocument`, the schema's input).
 */
import type { z } from 'zod';
import type { FlowSchema, SessionDataSchema } from './schema.js';

/** How a step behaves when the session leaves it (the seed's PhaseType). */
export const STEP_TYPES = ['LINEAR', 'OPTIONAL', 'ITERATIVE', 'REMEDIATION', 'PARALLEL'] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const FLOW_KINDS = ['protocol', 'skill'] as const;
/** `skill`: a composite skill, every phase invokes an agent and every transition has a memory-agent gate. */
export type FlowKind = (typeof FLOW_KINDS)[number];

/**
 * COMPLETED ends a protocol. A skill (a flow with a learnings gate) goes, as the original's skill
 * machine does, from its last phase to LEARNINGS_PENDING, and to FULLY_COMPLETE once its learnings
 * are written.
 */
export const SESSION_STATUSES = ['EXECUTING', 'HALTED', 'COMPLETED', 'LEARNINGS_PENDING', 'FULLY_COMPLETE'] as const;
/** Statuses with no current step. */
export const FINISHED_STATUSES: readonly SessionStatus[] = ['COMPLETED', 'LEARNINGS_PENDING', 'FULLY_COMPLETE'];
export const VERDICTS = ['PASS', 'FAIL'] as const;
/** A validation verdict, read from the REMEDIATION step's verdict file. */
export type Verdict = (typeof VERDICTS)[number];
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/**
 * A verdict a REMEDIATION step read; `report` is the reportDigest of the report (the file without its
 * verdict lines): a FAIL report later edited to PASS has the same one.
 */
export type VerdictRecord = SessionState['verdicts'][string][number];

export const SESSION_MODES = ['normal', 'agent'] as const;
/** `agent`: the flow runs inside a sub-agent; OPTIONAL steps with `skip: { mode: agent }` (routing) are skipped. */
export type SessionMode = (typeof SESSION_MODES)[number];

/** An artifact the session must have produced before it may move on. */
export interface Gate {
  /** Project-relative path template, e.g. `.claude/memory/{task}-{agent}-memory.md`. */
  artifact: string;
  /** Minimum length in characters (after a BOM). Default 1: the file must not be empty. */
  minLength: number;
  /** Lines the file must contain, exactly (e.g. `## Section 0: Context Loaded`). */
  headings: string[];
}

/**
 * What a step's recorded output (`advance --output FILE`, or standard input) must look like: the
 * reasoning protocol's steps hand in their work as text the session keeps (`stepOutputs`).
 */
export interface OutputGate {
  /** Minimum length in characters. */
  minLength: number;
  /** Lines the output must contain (outside code fences). */
  headings: string[];
}

/** A step's output as the session recorded it: which visit it was handed in for, the text, its contentDigest. */
export type StepOutput = SessionState['stepOutputs'][string][number];

/**
 * A flow file as written, before defaults (`flow.schema.json`): what `parseFlow` reads and
 * normalises into a {@link Flow}.
 */
export type FlowFileDocument = z.input<typeof FlowSchema>;

/**
 * When an OPTIONAL step is skipped on entry. Recursive, so written out once here: schema.ts's
 * `SkipConditionSchema` is declared as a `z.ZodType<SkipCondition>`, so the compiler holds the two together.
 */
export type SkipCondition = { mode: SessionMode } | { input: string; equals?: string } | { not: SkipCondition };

export interface Branch {
  id: string;
  title: string;
  /** The agent this branch invokes (its agentGate applies). */
  agent?: string;
  gates: Gate[];
}

export interface Step {
  id: string;
  title: string;
  type: StepType;
  /** Markdown file, relative to the flow file's directory. */
  content: string;
  /** Next step id; null ends the flow. */
  next: string | null;
  /** The agent the step invokes through the Task tool (never run by Ratchet). */
  agent?: string;
  /** The atomic skill that names the agent (e.g. orchestrate-analysis). */
  atomicSkill?: string;
  /** ITERATIVE: further agents each iteration invokes. */
  iterationAgents: string[];
  /** ITERATIVE: where `advance --loop` goes back to (default: this step). */
  loopTo?: string;
  /** ITERATIVE: how many times the step may loop back. */
  maxIterations: number;
  /** REMEDIATION: where `advance --remediate` goes back to. */
  remediationTarget?: string;
  /** REMEDIATION: how many times the step may send the session back. */
  maxRemediation: number;
  /** PARALLEL: branches that must all be completed (`complete-branch`) before advancing. */
  branches: Branch[];
  /** OPTIONAL: skipped on entry when this holds. */
  skip?: SkipCondition;
  /**
   * REMEDIATION: the file whose `Verdict: PASS` / `Verdict: FAIL` line decides where the session goes
   * (default: the memory file of the step's agent). FAIL sends the work back; it never completes.
   */
  verdictFrom?: string;
  /** Session variables (`--input`/`--set`) that must be set before leaving the step. */
  requires: string[];
  /** Recording clarifying questions on this step halts the session (the Johari step 0). */
  haltOnQuestions: boolean;
  /**
   * The step may be left only while this holds; otherwise the agent records clarifying questions
   * and the session halts (task routing: a confidence below HIGH).
   */
  haltUnless?: SkipCondition;
  /** The step hands in its output (`advance --output`), which must have this shape. */
  output?: OutputGate;
  gates: Gate[];
}

export interface InputDeclaration {
  description?: string;
  required: boolean;
  default?: string;
  /**
   * The values the variable may take, checked when it is given (`--input` at start, `--set` on
   * advance): a list, or `"flows"`, the names of the flows the runner knows (`RunnerOptions.flows`),
   * for a variable that names the flow to run next (the reasoning protocol's route).
   */
  values?: readonly string[] | 'flows';
}

export interface DirectiveText {
  /** First line of every directive. */
  heading: string;
  /** Lines printed after the command. */
  warnings: string[];
}

export interface Flow {
  id: string;
  title: string;
  description?: string;
  /** What requests this flow is for, by meaning (the original's routing table `semantic_trigger`). */
  semanticTrigger?: string;
  /** What it is explicitly not for, though it may look like it (the original's `not_for`). */
  notFor?: string;
  kind: FlowKind;
  start: string;
  steps: Step[];
  inputs: Record<string, InputDeclaration>;
  /** Applied once per agent a step or branch invokes. */
  agentGate?: Gate;
  /** Checked at every step-to-step transition: the memory-agent's file ({from}, {to}). */
  transitionGate?: Gate;
  /**
   * A skill's learnings, written after its last phase: the session waits in LEARNINGS_PENDING until
   * this file holds, then is FULLY_COMPLETE. Required for skills.
   */
  learningsGate?: Gate;
  /** The command template printed as the directive when the flow completes. */
  onComplete?: string;
  directive?: Partial<DirectiveText>;
}

export type HistoryEvent = HistoryEntry['event'];

/**
 * What a finished session hands over to: the flow its completion directive starts (the reasoning
 * protocol's route, or the next queued flow) and the session it starts it as. The hooks hold the
 * agent to it: until that session exists, or the user declined it (`ratchet flow decline`), the work
 * is not done.
 */
export type Handoff = NonNullable<SessionState['handoff']>;

export type HistoryEntry = SessionState['history'][number];

/**
 * `.ratchet/flows/<session>.json` without the store's envelope, typed from its zod schema (schema.ts,
 * the one source of the format; `import type` only, the main entry never loads zod). `visits`,
 * `iterations` and `remediations` count entries, loop-backs and remediations per step; `branches`
 * the completed branches of each PARALLEL step (reset when it is entered again); `notes` those of
 * `advance --note` / `resume --note`; `revision` is incremented by every saved change; `baseline`
 * what the current step's artifacts held when it was entered (leaving refuses a file that still
 * holds the same content); `then` the flows to run after this one (`start --then`, `advance --then`).
 */
export type SessionState = z.infer<typeof SessionDataSchema>;
