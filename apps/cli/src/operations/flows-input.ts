/**
 * The inputs of the flows area's typed operations (src/operations/flows.ts), apart from the
 * operations so that their declarations import no library type.
 */

/** One flow session by id, or (without one) every session. */
export interface FlowStatusInput {
  session?: string | undefined;
}

/** `flow start`: a session of a flow (a name, or a flow file inside the project). */
export interface FlowStartInput {
  /** A flow name (reasoning, develop-feature, one in protocols/flows/) or a flow file path. */
  flow: string;
  session: string;
  /** Flow inputs by name ("task" names the memory files). */
  inputs?: Readonly<Record<string, string>> | undefined;
  /** Agent mode: the flow runs inside a sub-agent. */
  agent?: boolean | undefined;
  /** Flows to run after this one, in order. */
  then?: readonly string[] | undefined;
}

/** `flow advance`: leave the current step (or loop, or remediate) once its gates hold. */
export interface FlowAdvanceInput {
  session: string;
  loop?: boolean | undefined;
  remediate?: boolean | undefined;
  /** Session variables the step requires. */
  set?: Readonly<Record<string, string>> | undefined;
  notes?: readonly string[] | undefined;
  questions?: readonly string[] | undefined;
  /** The step's output itself (the text, not a file). */
  output?: string | undefined;
  then?: readonly string[] | undefined;
}

/** `flow complete-branch`: a branch (STEP:BRANCH, or BRANCH of the current step) of a parallel step. */
export interface FlowBranchInput {
  session: string;
  branch: string;
}

/** `flow halt`: stop a session with a reason. */
export interface FlowHaltInput {
  session: string;
  reason: string;
}
