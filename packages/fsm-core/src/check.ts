/**
 * `check`: every problem in a definition document, structural and semantic, each with its rule id,
 * severity and a JSON pointer into the document as written. Rules run on the located model
 * (locate.ts), so they are shape-independent; a rule skips a part the validator already rejected,
 * so one mistake is reported once rather than cascading.
 */
import { RESERVED_NAMES, type Definition } from './definition.js';
import { diagnostic, sortDiagnostics, type Diagnostic } from './diagnostics.js';
import { locateDocument, locateModel, type LocatedModel, type LocatedName, type LocatedState, type LocatedTransition } from './locate.js';
import { pointer } from './pointer.js';
import { detectStyle, isPlainObject, validateStructure } from './validate.js';

const q = (s: string): string => JSON.stringify(s);

/** Every diagnostic for a definition document (either shape), in document order. */
export function check(doc: unknown): Diagnostic[] {
  return analyzeDocument(doc).diagnostics;
}

/** Validation plus semantic rules; also returns the located model so callers can normalise it. */
export function analyzeDocument(doc: unknown): { model: LocatedModel; diagnostics: Diagnostic[] } {
  const style = detectStyle(doc);
  const structural = validateStructure(doc, style);
  const model = locateDocument(doc, style);
  const semantic = semanticRules(model, structural.length === 0);
  return { model, diagnostics: sortDiagnostics([...structural, ...semantic], doc) };
}

/** The same rules for a normalised `Definition` (as `compile` receives it); pointers into it. */
export function analyzeModel(def: Definition): { model: LocatedModel; diagnostics: Diagnostic[] } {
  const structural = validateModelStructure(def);
  const model = locateModel(def);
  const semantic = semanticRules(model, structural.length === 0);
  return { model, diagnostics: sortDiagnostics([...structural, ...semantic], def) };
}

/**
 * Semantic rules. Graph rules (unreachable, dead, unused) need the whole graph, so they only run
 * when the structure is valid: on a half-read document they would report false positives.
 */
export function semanticRules(m: LocatedModel, structureValid: boolean): Diagnostic[] {
  const out: Diagnostic[] = [];
  reservedNames(m, out);

  const declared = declaredStates(m, out);
  const alphabet = m.alphabet ? firstOccurrences(m.alphabet, 'symbol', out) : undefined;
  if (m.accept) firstOccurrences(m.accept, 'accept state', out);

  if (declared && m.start && !declared.has(m.start.name)) {
    const none = declared.size === 0 ? ' (no states are declared)' : '';
    out.push(diagnostic('missing-start-state', m.start.pointer, `start state ${q(m.start.name)} is not a declared state${none}`));
  }
  if (declared && m.accept) {
    for (const a of m.accept) {
      if (!declared.has(a.name)) out.push(diagnostic('undefined-state', a.pointer, `accept state ${q(a.name)} is not a declared state`));
    }
  }
  if (m.accept && m.acceptEntries === 0) {
    out.push(diagnostic('no-accept-states', m.acceptPointer, 'no accept states: the machine accepts no input'));
  }
  if (m.transitions) transitionRules(m.transitions, declared, alphabet, out);

  if (structureValid && declared && m.transitions) graphRules(m, declared, out);
  return out;
}

function reservedNames(m: LocatedModel, out: Diagnostic[]): void {
  const report = (what: string, n: LocatedName): void => {
    if (RESERVED_NAMES.has(n.name)) out.push(diagnostic('reserved-name', n.pointer, `${what} ${q(n.name)} is a reserved name; choose another`));
  };
  if (m.id) report('machine id', m.id);
  for (const s of m.states ?? []) report('state name', s);
  for (const a of m.alphabet ?? []) report('symbol', a);
  // Keys of a map-style document are where a hostile name would become an object key; report the
  // source once per row. Without a declared alphabet, list-style triggers declare the symbols.
  const sources = new Set<string>();
  for (const t of m.transitions ?? []) {
    if (m.style === 'map') {
      if (!sources.has(t.fromPointer)) {
        sources.add(t.fromPointer);
        report('state name', { name: t.from, pointer: t.fromPointer });
      }
      report('symbol', { name: t.symbol, pointer: t.symbolPointer });
    } else if (!m.alphabet) {
      report('symbol', { name: t.symbol, pointer: t.symbolPointer });
    }
  }
}

function firstOccurrences<T extends LocatedName>(list: readonly T[], what: string, out: Diagnostic[]): Map<string, T> {
  const seen = new Map<string, T>();
  for (const item of list) {
    const first = seen.get(item.name);
    if (first) out.push(diagnostic('duplicate-declaration', item.pointer, `${what} ${q(item.name)} is listed again (first at ${first.pointer})`));
    else seen.set(item.name, item);
  }
  return seen;
}

function declaredStates(m: LocatedModel, out: Diagnostic[]): Map<string, LocatedState> | undefined {
  return m.states ? firstOccurrences(m.states, 'state', out) : undefined;
}

function transitionRules(
  transitions: readonly LocatedTransition[],
  declared: Map<string, LocatedState> | undefined,
  alphabet: Map<string, LocatedName> | undefined,
  out: Diagnostic[],
): void {
  const reportedSources = new Set<string>();
  const seen = new Map<string, Map<string, LocatedTransition>>();
  for (const t of transitions) {
    const label = `${q(t.from)} --${t.symbol}--> ${q(t.to)}`;
    if (declared && !declared.has(t.from)) {
      const group = t.sourceGroup ?? t.fromPointer;
      if (!reportedSources.has(group)) {
        reportedSources.add(group);
        out.push(diagnostic('undefined-state', t.fromPointer, `transition source ${q(t.from)} is not a declared state`));
      }
    }
    if (declared && !declared.has(t.to)) {
      out.push(diagnostic('undefined-state', t.toPointer, `transition ${label} goes to ${q(t.to)}, which is not a declared state`));
    }
    if (alphabet && !alphabet.has(t.symbol)) {
      out.push(diagnostic('unknown-symbol', t.symbolPointer, `symbol ${q(t.symbol)} of transition ${label} is not in the alphabet`));
    }
    let row = seen.get(t.from);
    if (!row) {
      row = new Map();
      seen.set(t.from, row);
    }
    const first = row.get(t.symbol);
    if (!first) row.set(t.symbol, t);
    else if (first.to === t.to) {
      out.push(diagnostic('duplicate-transition', t.pointer, `transition ${label} is listed again (first at ${first.pointer})`));
    } else {
      out.push(
        diagnostic(
          'conflicting-transition',
          t.pointer,
          `state ${q(t.from)} on ${q(t.symbol)} goes to ${q(t.to)} here but to ${q(first.to)} at ${first.pointer}`,
        ),
      );
    }
  }
}

function graphRules(m: LocatedModel, declared: Map<string, LocatedState>, out: Diagnostic[]): void {
  const forward = new Map<string, string[]>();
  const backward = new Map<string, string[]>();
  for (const name of declared.keys()) {
    forward.set(name, []);
    backward.set(name, []);
  }
  const used = new Set<string>();
  for (const t of m.transitions ?? []) {
    used.add(t.symbol);
    if (declared.has(t.from) && declared.has(t.to)) {
      forward.get(t.from)!.push(t.to);
      backward.get(t.to)!.push(t.from);
    }
  }
  if (m.start && declared.has(m.start.name)) {
    const reached = closure([m.start.name], forward);
    for (const s of declared.values()) {
      if (!reached.has(s.name)) out.push(diagnostic('unreachable-state', s.pointer, `state ${q(s.name)} cannot be reached from the start state ${q(m.start.name)}`));
    }
  }
  const accepting = (m.accept ?? []).map((a) => a.name).filter((a) => declared.has(a));
  if (accepting.length > 0) {
    const live = closure(accepting, backward);
    for (const s of declared.values()) {
      if (!live.has(s.name)) out.push(diagnostic('dead-state', s.pointer, `no accept state can be reached from state ${q(s.name)}`));
    }
  }
  for (const a of m.alphabet ?? []) {
    if (!used.has(a.name)) out.push(diagnostic('unused-symbol', a.pointer, `symbol ${q(a.name)} is not used by any transition`));
  }
}

function closure(from: readonly string[], edges: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set(from);
  const queue = [...from];
  for (let i = 0; i < queue.length; i++) {
    for (const next of edges.get(queue[i]!) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

/** Hand-written shape check of a `Definition` (code-built, so no JSON Schema of its own). */
function validateModelStructure(def: unknown): Diagnostic[] {
  const out: Diagnostic[] = [];
  const bad = (at: string, message: string): void => void out.push(diagnostic('schema', at, message));
  if (!isPlainObject(def)) {
    bad('', 'a Definition must be an object');
    return out;
  }
  const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v.length > 0;
  const get = (key: string): unknown => (Object.hasOwn(def, key) ? def[key] : undefined);
  const stringList = (key: string, item: (v: unknown) => boolean, what: string): void => {
    const v = get(key);
    if (!Array.isArray(v)) bad(pointer('', key), `${key} must be an array`);
    else v.forEach((x, i) => item(x) || bad(pointer('', key, i), what));
  };
  if (get('id') !== undefined && !nonEmpty(get('id'))) bad('/id', 'id must be a non-empty string');
  if (get('description') !== undefined && typeof get('description') !== 'string') bad('/description', 'description must be a string');
  stringList(
    'states',
    (s) => isPlainObject(s) && nonEmpty(s.name) && (s.description === undefined || typeof s.description === 'string'),
    'a state must be {name, description?} with a non-empty name',
  );
  stringList('alphabet', nonEmpty, 'a symbol must be a non-empty string');
  stringList('accept', (s) => typeof s === 'string', 'an accept state must be a string');
  if (typeof get('start') !== 'string') bad('/start', 'start must be a string');
  stringList(
    'transitions',
    (t) => isPlainObject(t) && typeof t.from === 'string' && nonEmpty(t.symbol) && typeof t.to === 'string',
    'a transition must be {from, symbol, to} with string values',
  );
  return out;
}
