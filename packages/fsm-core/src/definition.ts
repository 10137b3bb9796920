/**
 * The definition format as TypeScript types, without zod: the main entry must not load zod (it
 * costs ~100 ms of CLI start-up). `test/schema.test.ts` proves these types equal the zod schema's.
 *
 * Two document shapes are accepted (Jules' fdc_fsm.json and its orchestrator fsm.json) and both
 * normalise to one model, `Definition`.
 */

/** Where the shipped JSON Schema is published; definitions can point their `$schema` at it. */
export const FSM_DEFINITION_SCHEMA_URL = 'https://unpkg.com/@ratchet/fsm-core/schemas/fsm-definition.schema.json';

/** The definition format version this package reads and writes. */
export const FSM_DEFINITION_VERSION = 1;

/** A state is a name, or a name with a description. */
export type StateDeclaration = string | { name: string; description?: string | undefined };

interface DocumentCommon {
  $schema?: string | undefined;
  id?: string | undefined;
  description?: string | undefined;
  schemaVersion?: 1 | undefined;
  states: StateDeclaration[];
}

/** Map style: `transitions: {STATE: {symbol: STATE}}` (fdc_fsm.json). */
export interface MapDefinitionDocument extends DocumentCommon {
  alphabet: string[];
  transitions: Record<string, Record<string, string>>;
  start_state: string;
  accept_states: string[];
}

/** One transition of a list-style definition. */
export interface ListTransition {
  source: string;
  dest: string;
  trigger: string;
}

/** List style: `transitions: [{source, dest, trigger}]` (the orchestrator's fsm.json); alphabet optional. */
export interface ListDefinitionDocument extends DocumentCommon {
  alphabet?: string[] | undefined;
  transitions: ListTransition[];
  initial_state: string;
  final_states: string[];
}

/** What a definition file holds: either shape. */
export type DefinitionDocument = MapDefinitionDocument | ListDefinitionDocument;

export interface StateInfo {
  name: string;
  description?: string;
}

export interface Transition {
  from: string;
  symbol: string;
  to: string;
}

/**
 * The one normalised model both shapes become. Plain JSON. States keep declaration order; the
 * alphabet is the declared one, or (list style without `alphabet`) the triggers in order of first
 * use; transitions are ordered by source state, then symbol, in those orders.
 */
export interface Definition {
  id?: string;
  description?: string;
  states: StateInfo[];
  alphabet: string[];
  start: string;
  accept: string[];
  transitions: Transition[];
}

/** Names refused anywhere a name becomes a key: they could reach object prototypes in naive code. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
