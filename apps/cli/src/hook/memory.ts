/**
 * What the hooks remember about one Claude Code session, in `.ratchet/hooks/<session_id>.json`:
 * the runner names it claimed campaign tasks under, the JIXO logs it locked, the flow sessions it
 * started, and the Stop guard (how often Stop was blocked, and on which obligations last). The
 * obligations themselves are never copied here: they are read from the state that owns them.
 */
import { join } from 'node:path';
import { defineDocument, openDocument, type Document, type SafeParseResult, type SchemaIssue } from '@ratchet/store';

export interface HookMemory {
  sessionId: string;
  /** Runner names this session claimed campaign tasks as (`campaign ready --claim R`). */
  runners: string[];
  /** JIXO logs (project-relative) this session locked, with the runner. */
  jixoLocks: { log: string; runner: string }[];
  /** Flow sessions started for this session's prompts or by its own commands. */
  flows: string[];
  /** How many times Stop was blocked. */
  stopBlocks: number;
  /** The obligations (as text) the last block named: an unchanged state is never blocked twice in a row. */
  lastBlock: string | null;
}

export const HOOKS_DIR = '.ratchet/hooks';
export const HOOK_MEMORY_SCHEMA_URL = 'https://unpkg.com/@ratchet/cli/schemas/hook-memory.schema.json';
/** Lists are capped so a long session cannot grow the file without bound. */
const MAX_ITEMS = 200;

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.length <= MAX_ITEMS && v.every((s) => typeof s === 'string');

/** Hand-written (no zod on the hook path), shaped like zod's safeParse for @ratchet/store. */
export const hookMemorySchema = {
  safeParse(input: unknown): SafeParseResult<HookMemory> {
    const issues: SchemaIssue[] = [];
    const o = input as Record<string, unknown>;
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return { success: false, error: { issues: [{ path: [], message: 'expected an object' }] } };
    if (typeof o.sessionId !== 'string') issues.push({ path: ['sessionId'], message: 'expected a string' });
    if (!isStrings(o.runners)) issues.push({ path: ['runners'], message: `expected at most ${MAX_ITEMS} strings` });
    if (!isStrings(o.flows)) issues.push({ path: ['flows'], message: `expected at most ${MAX_ITEMS} strings` });
    if (!Array.isArray(o.jixoLocks) || o.jixoLocks.length > MAX_ITEMS || !o.jixoLocks.every((l: unknown) => typeof l === 'object' && l !== null && typeof (l as { log?: unknown }).log === 'string' && typeof (l as { runner?: unknown }).runner === 'string')) {
      issues.push({ path: ['jixoLocks'], message: 'expected a list of {log, runner}' });
    }
    if (typeof o.stopBlocks !== 'number' || !Number.isSafeInteger(o.stopBlocks) || o.stopBlocks < 0) issues.push({ path: ['stopBlocks'], message: 'expected a non-negative integer' });
    if (o.lastBlock !== null && typeof o.lastBlock !== 'string') issues.push({ path: ['lastBlock'], message: 'expected a string or null' });
    for (const key of Object.keys(o)) if (!['sessionId', 'runners', 'jixoLocks', 'flows', 'stopBlocks', 'lastBlock'].includes(key)) issues.push({ path: [key], message: 'unknown property' });
    return issues.length > 0 ? { success: false, error: { issues } } : { success: true, data: input as HookMemory };
  },
};

const definition = defineDocument<HookMemory>({
  schema: hookMemorySchema,
  version: 1,
  $schema: HOOK_MEMORY_SCHEMA_URL,
  initial: { sessionId: '', runners: [], jixoLocks: [], flows: [], stopBlocks: 0, lastBlock: null },
});

/** Session ids name files: anything but letters, digits, `-` and `_` is replaced. */
export function memoryFileName(sessionId: string): string {
  return `${sessionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 128) || 'unknown'}.json`;
}

export function openHookMemory(root: string, sessionId: string): Document<HookMemory> {
  return openDocument(join(root, HOOKS_DIR, memoryFileName(sessionId)), definition, { createParentDirs: true });
}

/** Add `item` to a capped list (oldest dropped), keeping it unique. */
export function remember<T>(list: T[], item: T, same: (a: T, b: T) => boolean = (a, b) => a === b): T[] {
  const rest = list.filter((x) => !same(x, item));
  return [...rest, item].slice(-MAX_ITEMS);
}
