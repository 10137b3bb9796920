/**
 * @ratchet/fsm-core: finite and pushdown automata for agent workflows.
 *
 * This entry loads no zod and compiles no schema: definitions are validated by precompiled code
 * (src/generated/), so `ratchet fsm accept` starts fast. The zod schema, the one source of truth
 * for the format, is at `@ratchet/fsm-core/schema`.
 */
export {
  FSM_DEFINITION_SCHEMA_URL,
  FSM_DEFINITION_VERSION,
  RESERVED_NAMES,
  type Definition,
  type DefinitionDocument,
  type ListDefinitionDocument,
  type ListTransition,
  type MapDefinitionDocument,
  type StateDeclaration,
  type StateInfo,
  type Transition,
} from './definition.js';
export { RULES, type Diagnostic, type RuleId, type Severity } from './diagnostics.js';
export {
  FsmError,
  InvalidArgumentError,
  InvalidDefinitionError,
  InvalidSnapshotError,
  RecursionDepthError,
  RejectedEventError,
  UnknownMachineError,
  UnknownStateError,
  type RejectionReason,
  type SnapshotProblem,
} from './errors.js';
export { check } from './check.js';
export { normalize } from './normalize.js';
export { loadDefinition, type LoadResult } from './load.js';
export { compile, toDefinition, DENSE_TABLE_MAX_CELLS, type CompileOptions, type Machine } from './machine.js';
export { accepts, isAcceptState, nextSymbols, transition, triggerBetween, type AcceptResult } from './run.js';
export { reachableStates, shortestPath } from './graph.js';
export { callChain, depth, isAccepted, start, step, type StartOptions, type StepResult } from './pushdown.js';
export { DEFAULT_MAX_DEPTH, SNAPSHOT_VERSION, restore, type Frame, type Machines, type RunEvent, type RunSnapshot } from './snapshot.js';
export { toDot, toMermaid } from './render.js';
export { escapeToken, parsePointer, pointer } from './pointer.js';
