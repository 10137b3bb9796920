/**
 * Typed, weighted relations between entries. Linking A to B with type T stores B under
 * A.related_typed[T] and A under B.related_typed[inverse(T)], so the graph can be walked from
 * either end. `related` walks it breadth first; a path's weight is the product of its edge
 * weights, and paths under `minWeight` (default 0.5) are dropped (FTL's rule).
 */
import { MemoryError } from './errors.js';
import type { EdgeType, Entry, EntryKind, MemoryData } from './types.js';

/**
 * The relation types, in the order queries and errors list them. The schema's `EdgeTypeSchema` is
 * `z.enum(EDGE_TYPES)`, so this list is the one place a new type is named (the weight and inverse
 * tables below are then required for it by their `Record<EdgeType, ...>` types).
 */
export const EDGE_TYPES = ['co_occurs', 'causes', 'caused_by', 'solves', 'solved_by', 'prerequisite', 'requires', 'variant'] as const;

export const EDGE_WEIGHTS: Readonly<Record<EdgeType, number>> = {
  co_occurs: 0.8,
  causes: 1.0,
  caused_by: 1.0,
  solves: 1.5,
  solved_by: 1.5,
  prerequisite: 1.0,
  requires: 1.0,
  variant: 0.7,
};

export const EDGE_INVERSE: Readonly<Record<EdgeType, EdgeType>> = {
  co_occurs: 'co_occurs',
  causes: 'caused_by',
  caused_by: 'causes',
  solves: 'solved_by',
  solved_by: 'solves',
  prerequisite: 'requires',
  requires: 'prerequisite',
  variant: 'variant',
};

export function isEdgeType(value: unknown): value is EdgeType {
  return typeof value === 'string' && Object.hasOwn(EDGE_WEIGHTS, value);
}

/** The entry named `name` (names are unique across failures and patterns). */
export function findEntry(data: MemoryData, name: string): { kind: EntryKind; entry: Entry; index: number } | undefined {
  const f = data.failures.findIndex((e) => e.name === name);
  if (f >= 0) return { kind: 'failure', entry: data.failures[f]!, index: f };
  const p = data.patterns.findIndex((e) => e.name === name);
  if (p >= 0) return { kind: 'pattern', entry: data.patterns[p]!, index: p };
  return undefined;
}

function requireEntry(data: MemoryData, name: string): Entry {
  const hit = findEntry(data, name);
  if (hit === undefined) throw new MemoryError('not-found', `no memory entry named ${JSON.stringify(name)}`);
  return hit.entry;
}

function addSorted(list: string[], name: string): void {
  if (!list.includes(name)) {
    list.push(name);
    list.sort();
  }
}

function syncRelated(entry: Entry): void {
  const all = new Set<string>();
  for (const type of EDGE_TYPES) for (const n of entry.related_typed[type] ?? []) all.add(n);
  entry.related = [...all].sort();
}

/** Link `from` to `to` with `type` (and the inverse back). Idempotent. Mutates `data`. */
export function link(data: MemoryData, from: string, to: string, type: EdgeType): void {
  if (!isEdgeType(type)) throw new MemoryError('bad-input', `unknown relation type ${JSON.stringify(type)}; one of ${EDGE_TYPES.join(', ')}`);
  if (from === to) throw new MemoryError('bad-input', `cannot relate ${JSON.stringify(from)} to itself`);
  const a = requireEntry(data, from);
  const b = requireEntry(data, to);
  addSorted((a.related_typed[type] ??= []), to);
  addSorted((b.related_typed[EDGE_INVERSE[type]] ??= []), from);
  syncRelated(a);
  syncRelated(b);
}

/** Remove every edge pointing at a name no entry has any more. Mutates `data`. */
export function dropDanglingEdges(data: MemoryData): void {
  const names = new Set([...data.failures, ...data.patterns].map((e) => e.name));
  for (const entry of [...data.failures, ...data.patterns]) {
    for (const type of EDGE_TYPES) {
      const list = entry.related_typed[type];
      if (list === undefined) continue;
      const kept = list.filter((n) => names.has(n));
      if (kept.length === 0) delete entry.related_typed[type];
      else entry.related_typed[type] = kept;
    }
    entry.related = entry.related.filter((n) => names.has(n));
  }
}

export interface RelatedStep {
  from: string;
  to: string;
  type: EdgeType;
  weight: number;
}

export interface RelatedEntry {
  name: string;
  kind: EntryKind;
  /** Product of the edge weights along the best path found. */
  weight: number;
  depth: number;
  path: RelatedStep[];
}

export interface RelatedOptions {
  /** Longest path walked (default 3). */
  maxDepth?: number;
  /** Paths whose weight product falls below this are dropped (default 0.5). */
  minWeight?: number;
}

/**
 * Entries reachable from `name`, best first (weight, then name). Each is reported with its
 * strongest path; a node is expanded again only when a strictly stronger path reaches it, and
 * never beyond maxDepth, so the walk ends even though `solves` (1.5) can raise a product.
 * Untyped FTL `related` names count as co_occurs.
 */
export function related(data: MemoryData, name: string, options: RelatedOptions = {}): RelatedEntry[] {
  const maxDepth = options.maxDepth ?? 3;
  const minWeight = options.minWeight ?? 0.5;
  requireEntry(data, name);
  const byName = new Map<string, { kind: EntryKind; entry: Entry }>();
  for (const entry of data.failures) byName.set(entry.name, { kind: 'failure', entry });
  for (const entry of data.patterns) if (!byName.has(entry.name)) byName.set(entry.name, { kind: 'pattern', entry });
  const best = new Map<string, RelatedEntry>();
  let frontier: { name: string; weight: number; path: RelatedStep[] }[] = [{ name, weight: 1, path: [] }];
  for (let depth = 1; depth <= maxDepth && frontier.length > 0; depth++) {
    const next: typeof frontier = [];
    for (const node of frontier) {
      const entry = byName.get(node.name)?.entry;
      if (entry === undefined) continue;
      for (const [type, target] of edgesOf(entry)) {
        if (target === name) continue;
        const hit = byName.get(target);
        if (hit === undefined) continue;
        if (node.path.some((s) => s.from === target)) continue; // no cycles within a path
        const weight = node.weight * EDGE_WEIGHTS[type];
        if (weight < minWeight) continue;
        const known = best.get(target);
        if (known !== undefined && known.weight >= weight) continue;
        const path = [...node.path, { from: node.name, to: target, type, weight: EDGE_WEIGHTS[type] }];
        best.set(target, { name: target, kind: hit.kind, weight, depth, path });
        next.push({ name: target, weight, path });
      }
    }
    frontier = next;
  }
  return [...best.values()].sort((a, b) => b.weight - a.weight || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function* edgesOf(entry: Entry): Generator<[EdgeType, string]> {
  const typed = new Set<string>();
  for (const type of EDGE_TYPES) {
    for (const target of entry.related_typed[type] ?? []) {
      typed.add(target);
      yield [type, target];
    }
  }
  for (const target of entry.related) if (!typed.has(target)) yield ['co_occurs', target];
}
