/**
 * `normalize`: either document shape -> the one `Definition` model. Structural errors throw
 * (there is no model to build); semantic problems do not, they are `check`'s business, except
 * that exact duplicates collapse. Orderings are canonical so both shapes of one machine normalise
 * to deep-equal values.
 */
import type { Definition, StateInfo, Transition } from './definition.js';
import { sortDiagnostics } from './diagnostics.js';
import { InvalidDefinitionError } from './errors.js';
import { locateDocument, type LocatedModel } from './locate.js';
import { detectStyle, validateStructure } from './validate.js';

export function normalize(doc: unknown): Definition {
  const style = detectStyle(doc);
  const structural = validateStructure(doc, style);
  if (structural.length > 0) throw new InvalidDefinitionError(sortDiagnostics(structural, doc));
  return toModel(locateDocument(doc, style));
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}

/** Build the canonical model from a located one. Assumes the structure was valid. */
export function toModel(m: LocatedModel): Definition {
  const states: StateInfo[] = [];
  const stateOrder = new Map<string, number>();
  for (const s of m.states ?? []) {
    if (stateOrder.has(s.name)) continue;
    stateOrder.set(s.name, states.length);
    states.push(s.description === undefined ? { name: s.name } : { name: s.name, description: s.description });
  }
  const located = m.transitions ?? [];
  // Without a declared alphabet (list style), the symbols are the triggers in order of first use.
  const alphabet = unique(m.alphabet ? m.alphabet.map((a) => a.name) : located.map((t) => t.symbol));
  const symbolOrder = new Map(alphabet.map((a, i) => [a, i]));

  const seen = new Map<string, Map<string, Set<string>>>();
  const kept: { t: Transition; order: number }[] = [];
  located.forEach((t, order) => {
    let row = seen.get(t.from);
    if (!row) seen.set(t.from, (row = new Map<string, Set<string>>()));
    let targets = row.get(t.symbol);
    if (!targets) row.set(t.symbol, (targets = new Set<string>()));
    if (targets.has(t.to)) return;
    targets.add(t.to);
    kept.push({ t: { from: t.from, symbol: t.symbol, to: t.to }, order });
  });
  const rank = (map: Map<string, number>, key: string): number => map.get(key) ?? Number.MAX_SAFE_INTEGER;
  kept.sort(
    (a, b) =>
      rank(stateOrder, a.t.from) - rank(stateOrder, b.t.from) ||
      rank(symbolOrder, a.t.symbol) - rank(symbolOrder, b.t.symbol) ||
      a.order - b.order,
  );

  const def: Definition = {
    ...(m.id ? { id: m.id.name } : {}),
    ...(m.description !== undefined ? { description: m.description } : {}),
    states,
    alphabet,
    start: m.start?.name ?? '',
    accept: unique((m.accept ?? []).map((a) => a.name)),
    transitions: kept.map((k) => k.t),
  };
  return def;
}
