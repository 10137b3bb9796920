/**
 * The data model: flow definitions (what a file declares, after defaults) and session state (what
 * `.ratchet/flows/<session>.json` holds), both typed from their zod schemas (schema.ts, `import type`
 * only, so the main entry never loads zod): the session as stored, the flow as `parseFlow` builds it
 * with every default applied (the file as written is `FlowFileDocument`, the schema's input).
 */
import type { z } from 'zod';
import type { BranchSchema, FlowSchema, GateSchema, SessionDataSchema, StepSchema } from './schema.js';

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

/**
 * The keys `parseFlow` always fills in: a flow file may leave them out (the schema's optional keys),
 * the parsed flow has them. Each type below is the schema's own (schema.ts, `import type`), with the
 * defaulted keys made present and nested parts replaced by their parsed shapes; nothing is typed twice.
 */
type Filled<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: Exclude<T[P], undefined> };

type GateDocument = z.infer<typeof GateSchema>;
type StepDocument = z.infer<typeof StepSchema>;
type FlowDocument = z.infer<typeof FlowSchema>;

/** An artifact the session must have produced before it may move on; `minLength` default 1 (not empty), `headings` default none. */
export type Gate = Filled<GateDocument, 'minLength' | 'headings'>;

/**
 * What a step's recorded output (`advance --output FILE`, or standard input) must look like: the
 * reasoning protocol's steps hand in their work as text the session keeps (`stepOutputs`).
 */
export type OutputGate = Filled<NonNullable<StepDocument['output']>, 'minLength' | 'headings'>;

export interface Branch extends Omit<z.infer<typeof BranchSchema>, 'gates'> {
  gates: Gate[];
}

/** A step with its defaults: LINEAR, `next` the following step (null: the end), three loop-backs and remediations, no gates. */
export interface Step extends Filled<Omit<StepDocument, 'branches' | 'output' | 'gates'>, 'type' | 'next' | 'iterationAgents' | 'maxIterations' | 'maxRemediation' | 'requires' | 'haltOnQuestions'> {
  branches: Branch[];
  output?: OutputGate;
  gates: Gate[];
}

/** A declared input (`--input`); `required` default false. `values: "flows"` takes the name of a flow the runner knows (`RunnerOptions.flows`). */
export type InputDeclaration = Filled<NonNullable<FlowDocument['inputs']>[string], 'required'>;

export interface DirectiveText {
  /** First line of every directive. */
  heading: string;
  /** Lines printed after the command. */
  warnings: string[];
}

/** A flow with its defaults (kind protocol, start the first step, no inputs); the file's `$schema`/`schemaVersion` are not kept. */
export interface Flow extends Filled<Omit<FlowDocument, '$schema' | 'schemaVersion' | 'steps' | 'inputs' | 'agentGate' | 'transitionGate' | 'learningsGate'>, 'kind' | 'start'> {
  steps: Step[];
  inputs: Record<string, InputDeclaration>;
  /** Applied once per agent a step or branch invokes. */
  agentGate?: Gate;
  /** Checked at every step-to-step transition: the memory-agent's file ({from}, {to}). */
  transitionGate?: Gate;
  /** A skill's learnings: the session waits in LEARNINGS_PENDING until this file holds, then is FULLY_COMPLETE. */
  learningsGate?: Gate;
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
