/**
 * The data model: flow definitions (what a file declares, after defaults) and session state (what
 * `.ratchet/flows/<session>.json` holds). Plain JSON data; the zod mirror is in schema.ts.
 */

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

/** A verdict a REMEDIATION step read. */
export interface VerdictRecord {
  visit: number;
  verdict: Verdict;
  at: string;
  /** reportDigest of the report (the file without its verdict lines): a FAIL report later edited to PASS has the same one. */
  report?: string;
}

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

/** A step's output as the session recorded it. */
export interface StepOutput {
  /** Which visit of the step it was handed in for. */
  visit: number;
  text: string;
  /** contentDigest of the text. */
  digest: string;
  at: string;
}

/** When an OPTIONAL step is skipped on entry. */
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

export type HistoryEvent = 'start' | 'enter' | 'skip' | 'leave' | 'loop' | 'remediate' | 'branch' | 'halt' | 'resume' | 'complete' | 'set' | 'learnings' | 'decline';

/**
 * What a finished session hands over to: the flow its completion directive starts (the reasoning
 * protocol's route, or the next queued flow) and the session it starts it as. The hooks hold the
 * agent to it: until that session exists, or the user declined it, the work is not done.
 */
export interface Handoff {
  flow: string;
  session: string;
  /** The user's decision not to start it (`ratchet flow decline`), with why. */
  declined?: { reason: string; at: string };
}

export interface HistoryEntry {
  event: HistoryEvent;
  step: string | null;
  at: string;
  to?: string | null;
  detail?: string;
}

export interface SessionState {
  sessionId: string;
  flow: { id: string; ref: string };
  mode: SessionMode;
  status: SessionStatus;
  /** Current step; null once COMPLETED. */
  current: string | null;
  vars: Record<string, string>;
  /** Times each step has been entered. */
  visits: Record<string, number>;
  /** Loop-backs taken from each ITERATIVE step. */
  iterations: Record<string, number>;
  /** Remediations taken from each REMEDIATION step. */
  remediations: Record<string, number>;
  /** Completed branches of each PARALLEL step (reset when the step is entered again). */
  branches: Record<string, string[]>;
  /** Notes recorded per step (`advance --note`, `resume --note`). */
  notes: Record<string, string[]>;
  haltReason: string | null;
  /** The questions the last clarification halt asked; kept after the session resumes. */
  clarificationQuestions: string[];
  /** The user's answers to them, one per question (given on resume); empty while they are open. */
  clarificationAnswers: string[];
  history: HistoryEntry[];
  /** Incremented by every saved change. */
  revision: number;
  /**
   * What the current step's artifacts held when it was entered (artifact -> content digest, null:
   * absent). Leaving the step refuses a file that still holds the same content.
   */
  baseline: Record<string, string | null>;
  /** What each step handed in (`advance --output`), every visit (the original's step_outputs). */
  stepOutputs: Record<string, StepOutput[]>;
  /**
   * Flows to run after this one, in order (dynamic skill sequencing: `start --then`, `advance
   * --then`). The completion directive starts the first and passes the rest on.
   */
  then: string[];
  /** The verdicts each REMEDIATION step read, every visit. */
  verdicts: Record<string, VerdictRecord[]>;
  /** Set when the session finishes with a directive that starts another flow (see Handoff). */
  handoff?: Handoff;
}
