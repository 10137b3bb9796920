/**
 * The definition format as TypeScript types. The document types are derived from the zod schema
 * (schema.ts, the one source of the format, which documents each field) with `import type` only: the
 * main entry must not load zod (it costs ~100 ms of CLI start-up). The normalised model
 * (`Definition`, `StateInfo`, `Transition`) is in-memory only, not a file format, so it is written here.
 *
 * Two document shapes are accepted (Jules' fdc_fsm.json and its orchestrator fsm.json) and both
 * normalise to one model, `Definition`.
 */
import type { z } from 'zod';
import type { FsmDefinitionSchema, ListDefinitionSchema, ListTransitionSchema, MapDefinitionSchema, StateDeclarationSchema } from './schema.js';

/** Where the shipped JSON Schema is published; definitions can point their `$schema` at it. */
export const FSM_DEFINITION_SCHEMA_URL = 'https://unpkg.com/@ratchet/fsm-core/schemas/fsm-definition.schema.json';

/** The definition format version this package reads and writes. */
export const FSM_DEFINITION_VERSION = 1;

/** A state is a name, or a name with a description. */
export type StateDeclaration = z.infer<typeof StateDeclarationSchema>;

/** Map style: `transitions: {STATE: {symbol: STATE}}` (fdc_fsm.json). */
export type MapDefinitionDocument = z.infer<typeof MapDefinitionSchema>;

/** One transition of a list-style definition: `{source, dest, trigger}`. */
export type ListTransition = z.infer<typeof ListTransitionSchema>;

/** List style: `transitions: [{source, dest, trigger}]` (the orchestrator's fsm.json); alphabet optional. */
export type ListDefinitionDocument = z.infer<typeof ListDefinitionSchema>;

/** What a definition file holds: either shape. */
export type DefinitionDocument = z.infer<typeof FsmDefinitionSchema>;

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
