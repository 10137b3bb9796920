/**
 * Read a definition document, leniently, into one located model: every name and transition with
 * the JSON pointer it came from. Both document shapes (and the normalised `Definition` itself)
 * become this form, so the semantic rules in check.ts are written once and their diagnostics
 * point into whatever the user actually wrote. Malformed parts are skipped here: the structural
 * validator has already reported them.
 */
import type { Definition } from './definition.js';
import { pointer } from './pointer.js';
import { isPlainObject, type DocumentStyle } from './validate.js';

export interface LocatedName {
  name: string;
  pointer: string;
}

export interface LocatedState extends LocatedName {
  description?: string;
}

export interface LocatedTransition {
  from: string;
  symbol: string;
  to: string;
  /** The transition as a whole: `/transitions/3` (list) or `/transitions/A/x` (map). */
  pointer: string;
  fromPointer: string;
  symbolPointer: string;
  toPointer: string;
  /** Map style: the source key, to report an undefined source once rather than per symbol. */
  sourceGroup?: string;
}

export interface LocatedModel {
  style: DocumentStyle | 'model';
  id?: LocatedName;
  description?: string;
  /** `undefined` when the part is missing or not of the right type. */
  states?: LocatedState[];
  statesPointer: string;
  alphabet?: LocatedName[];
  alphabetPointer: string;
  start?: LocatedName;
  startPointer: string;
  accept?: LocatedName[];
  acceptPointer: string;
  /** Entries in the accept list as written, well-formed or not (so a bad entry is not "no accept states"). */
  acceptEntries: number;
  transitions?: LocatedTransition[];
  transitionsPointer: string;
}

function own(obj: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

function names(value: unknown, at: string): LocatedName[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: LocatedName[] = [];
  value.forEach((v, i) => {
    if (typeof v === 'string') out.push({ name: v, pointer: pointer(at, i) });
  });
  return out;
}

function entries(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

function states(value: unknown): LocatedState[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: LocatedState[] = [];
  value.forEach((v, i) => {
    const at = pointer('/states', i);
    if (typeof v === 'string') out.push({ name: v, pointer: at });
    else if (isPlainObject(v) && typeof own(v, 'name') === 'string') {
      const description = own(v, 'description');
      out.push({ name: v.name as string, pointer: at, ...(typeof description === 'string' ? { description } : {}) });
    }
  });
  return out;
}

function located(value: unknown, at: string): LocatedName | undefined {
  return typeof value === 'string' ? { name: value, pointer: at } : undefined;
}

function mapTransitions(value: unknown): LocatedTransition[] | undefined {
  if (!isPlainObject(value)) return undefined;
  const out: LocatedTransition[] = [];
  for (const [from, row] of Object.entries(value)) {
    if (!isPlainObject(row)) continue;
    const fromPointer = pointer('/transitions', from);
    for (const [symbol, to] of Object.entries(row)) {
      if (typeof to !== 'string') continue;
      const at = pointer(fromPointer, symbol);
      out.push({ from, symbol, to, pointer: at, fromPointer, symbolPointer: at, toPointer: at, sourceGroup: fromPointer });
    }
  }
  return out;
}

function listTransitions(value: unknown, keys: { from: string; symbol: string; to: string }): LocatedTransition[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: LocatedTransition[] = [];
  value.forEach((t, i) => {
    if (!isPlainObject(t)) return;
    const from = own(t, keys.from);
    const symbol = own(t, keys.symbol);
    const to = own(t, keys.to);
    if (typeof from !== 'string' || typeof symbol !== 'string' || typeof to !== 'string') return;
    const at = pointer('/transitions', i);
    out.push({ from, symbol, to, pointer: at, fromPointer: pointer(at, keys.from), symbolPointer: pointer(at, keys.symbol), toPointer: pointer(at, keys.to) });
  });
  return out;
}

/** A raw document (either shape) as a located model. */
export function locateDocument(doc: unknown, style: DocumentStyle): LocatedModel {
  const raw = isPlainObject(doc) ? doc : {};
  const id = located(own(raw, 'id'), '/id');
  const description = own(raw, 'description');
  const common = {
    style,
    ...(id ? { id } : {}),
    ...(typeof description === 'string' ? { description } : {}),
    states: states(own(raw, 'states')),
    statesPointer: '/states',
    alphabet: names(own(raw, 'alphabet'), '/alphabet'),
    alphabetPointer: '/alphabet',
    transitionsPointer: '/transitions',
  };
  if (style === 'map') {
    return {
      ...common,
      start: located(own(raw, 'start_state'), '/start_state'),
      startPointer: '/start_state',
      accept: names(own(raw, 'accept_states'), '/accept_states'),
      acceptPointer: '/accept_states',
      acceptEntries: entries(own(raw, 'accept_states')),
      transitions: mapTransitions(own(raw, 'transitions')),
    };
  }
  return {
    ...common,
    start: located(own(raw, 'initial_state'), '/initial_state'),
    startPointer: '/initial_state',
    accept: names(own(raw, 'final_states'), '/final_states'),
    acceptPointer: '/final_states',
    acceptEntries: entries(own(raw, 'final_states')),
    transitions: listTransitions(own(raw, 'transitions'), { from: 'source', symbol: 'trigger', to: 'dest' }),
  };
}

/** A normalised `Definition` (say, built in code and passed to `compile`) as a located model. */
export function locateModel(def: Definition): LocatedModel {
  const raw: Record<string, unknown> = isPlainObject(def) ? def : {};
  const id = located(own(raw, 'id'), '/id');
  const description = own(raw, 'description');
  const stateList = own(raw, 'states');
  return {
    style: 'model',
    ...(id ? { id } : {}),
    ...(typeof description === 'string' ? { description } : {}),
    states: Array.isArray(stateList) ? states(stateList.map((s: unknown) => (isPlainObject(s) ? s : { name: s }))) : undefined,
    statesPointer: '/states',
    alphabet: names(own(raw, 'alphabet'), '/alphabet'),
    alphabetPointer: '/alphabet',
    start: located(own(raw, 'start'), '/start'),
    startPointer: '/start',
    accept: names(own(raw, 'accept'), '/accept'),
    acceptPointer: '/accept',
    acceptEntries: entries(own(raw, 'accept')),
    transitions: listTransitions(own(raw, 'transitions'), { from: 'from', symbol: 'symbol', to: 'to' }),
    transitionsPointer: '/transitions',
  };
}
