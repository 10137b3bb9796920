/**
 * Importing an FTL memory.json (no schemaVersion; FTL's field names, loosely typed). Every entry goes
 * through the same gates and near-duplicate merging as a new one, so an FTL file full of
 * near-identical triggers comes out deduplicated; counters and dates are carried over when valid,
 * and typed relations are re-linked (with inverses) once both ends exist.
 */
import { MemoryError } from './errors.js';
import { NAME_PATTERN, type GateRefusal } from './gates.js';
import { EDGE_TYPES, findEntry, isEdgeType, link } from './graph.js';
import { addFailure, addPattern, type AddResult } from './mutate.js';
import type { EdgeType, Entry, EntryKind, MemoryData } from './types.js';

export interface FtlImportResult {
  added: { kind: EntryKind; name: string }[];
  merged: { kind: EntryKind; name: string; into: string }[];
  refused: { kind: EntryKind; name: string | undefined; refusals: GateRefusal[] }[];
  /** Entries that were not objects or lacked a trigger. */
  skipped: { pointer: string; reason: string }[];
  /**
   * Entries kept without their `match` regex because the guard refused it (it could hang a query):
   * the entry is still found by its words; the pattern is reported so a human can rewrite it.
   */
  neutralised: { kind: EntryKind; name: string; match: string; reason: string }[];
  links: number;
}

type Raw = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const count = (v: unknown): number => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0);
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : typeof v === 'string' && v.trim() !== '' ? [v] : undefined);

/** ISO string, or epoch seconds/milliseconds (Python's time.time()) -> ISO; undefined if unusable. */
function date(v: unknown): string | undefined {
  if (typeof v === 'string' && Number.isFinite(Date.parse(v))) return new Date(Date.parse(v)).toISOString();
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return new Date(v < 1e11 ? v * 1000 : v).toISOString();
  return undefined;
}

/** `{ type: [names] }` (Ratchet) or `{ name: type }` (flat) -> [type, name] pairs. */
function edges(v: unknown): [EdgeType, string][] {
  const out: [EdgeType, string][] = [];
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
  for (const [key, value] of Object.entries(v as Raw)) {
    if (isEdgeType(key)) for (const name of strings(value) ?? []) out.push([key, name]);
    else if (isEdgeType(value)) out.push([value, key]);
  }
  return out;
}

export function importFtlMemory(data: MemoryData, raw: unknown, options: { now: number }): FtlImportResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new MemoryError('bad-input', 'an FTL memory file is a JSON object with "failures" and "patterns" arrays');
  const result: FtlImportResult = { added: [], merged: [], refused: [], skipped: [], neutralised: [], links: 0 };
  const pending: { from: string; type: EdgeType; to: string }[] = [];
  // FTL name -> the name in memory (merged entries, and FTL names Ratchet does not accept, which get a derived one).
  const renamed = new Map<string, string>();
  for (const kind of ['failure', 'pattern'] as const) {
    const key = kind === 'failure' ? 'failures' : 'patterns';
    const list = (raw as Raw)[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      result.skipped.push({ pointer: `/${key}`, reason: 'not an array' });
      continue;
    }
    list.forEach((item: unknown, i) => {
      const pointer = `/${key}/${i}`;
      if (typeof item !== 'object' || item === null || Array.isArray(item)) return void result.skipped.push({ pointer, reason: 'not an object' });
      const e = item as Raw;
      const trigger = str(e.trigger);
      if (trigger === undefined) return void result.skipped.push({ pointer, reason: 'no "trigger" string' });
      const ftlName = str(e.name);
      const common = { name: ftlName !== undefined && NAME_PATTERN.test(ftlName) ? ftlName : undefined, trigger, source: strings(e.source), tags: strings(e.tags) };
      const failureInput = { ...common, fix: str(e.fix) ?? '', cost: num(e.cost) ?? 0, match: str(e.match) ?? null };
      let r: AddResult = kind === 'failure' ? addFailure(data, failureInput, options) : addPattern(data, { ...common, insight: str(e.insight) ?? '', saved: num(e.saved) ?? 0 }, options);
      // A risky regex never costs the entry: keep it without the regex (never run) and say so.
      if (r.status === 'refused' && kind === 'failure' && failureInput.match !== null && r.refusals.every((g) => g.gate === 'match')) {
        const reason = r.refusals.map((g) => g.reason).join('; ');
        r = addFailure(data, { ...failureInput, match: null }, options);
        if (r.status !== 'refused') result.neutralised.push({ kind, name: r.name, match: failureInput.match, reason });
      }
      if (r.status === 'refused') return void result.refused.push({ kind, name: r.name, refusals: r.refusals });
      const entry = findEntry(data, r.name)?.entry as Entry;
      if (ftlName !== undefined) renamed.set(ftlName, r.name);
      if (r.status === 'added') {
        result.added.push({ kind, name: r.name });
        entry.access_count = count(e.access_count);
        entry.last_accessed = date(e.last_accessed) ?? null;
        entry.created_at = date(e.created_at) ?? entry.created_at;
      } else {
        result.merged.push({ kind, name: ftlName ?? r.name, into: r.name });
        entry.access_count += count(e.access_count);
      }
      entry.times_helped += count(e.times_helped);
      entry.times_failed += count(e.times_failed);
      for (const [type, to] of edges(e.related_typed)) pending.push({ from: r.name, type, to });
      for (const to of strings(e.related) ?? []) pending.push({ from: r.name, type: 'co_occurs', to });
    });
  }
  for (const { from, type, to: ftlTo } of pending) {
    const to = renamed.get(ftlTo) ?? ftlTo;
    if (from === to || findEntry(data, to) === undefined) continue;
    const have = findEntry(data, from)!.entry.related_typed;
    if (EDGE_TYPES.some((t) => have[t]?.includes(to) === true)) continue;
    link(data, from, to, type);
    result.links++;
  }
  return result;
}
