/**
 * Obligations the agent opened, recorded by the command that opened them, whatever the channel: a
 * campaign claim, a flow session, a JIXO log lock. The Stop hook must see each one; reading the
 * agent's command line after the fact (post-tool-use) misses `--claim "$VAR"`, a script that calls
 * `ratchet`, and every MCP tool call. So the command itself appends to `.ratchet/hooks/opened.json`
 * when the agent is acting (Ratchet's MCP tools, or a shell of an agent harness), and the hooks
 * attribute each entry to the harness session that made it:
 *   - an MCP call carries its tool-use id (Claude Code sends it in `_meta`), and the PostToolUse
 *     hook of that call, which knows the session, claims the entry by that id;
 *   - a shell call has no id: the next PostToolUse of a shell tool claims it (a session's tool calls
 *     run one after another; two sessions in one project racing is the one ambiguity, and then the
 *     first to look takes it).
 * An entry nobody claimed yet (a hook that did not run) is an obligation of every session: failing
 * closed means the wrong agent is held, never that an open claim is forgotten.
 */
import { join } from 'node:path';
import { defineDocument, openDocument, type Document, type SafeParseResult, type SchemaIssue } from '@ratchet/store';
import { HOOKS_DIR, openHookMemory, remember, type HookMemory } from './memory.js';

export type OpenedKind = 'claim' | 'flow' | 'jixo-lock';

export interface Opened {
  kind: OpenedKind;
  /** The campaign runner (claim), the flow session id (flow), the JIXO log path (jixo-lock). */
  key: string;
  /** The lock's runner (jixo-lock). */
  runner?: string;
  /** The tool call that opened it, when the channel says (MCP). */
  toolUseId?: string;
  via: 'mcp' | 'shell';
  at: string;
}

interface OpenedFile {
  entries: Opened[];
}

export const OPENED_FILE = `${HOOKS_DIR}/opened.json`;
const MAX_ENTRIES = 500;
const KINDS = new Set<string>(['claim', 'flow', 'jixo-lock']);

const openedSchema = {
  safeParse(input: unknown): SafeParseResult<OpenedFile> {
    const issues: SchemaIssue[] = [];
    const o = input as Record<string, unknown>;
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return { success: false, error: { issues: [{ path: [], message: 'expected an object' }] } };
    const entries = o.entries;
    if (!Array.isArray(entries) || entries.length > MAX_ENTRIES) issues.push({ path: ['entries'], message: `expected at most ${MAX_ENTRIES} entries` });
    else {
      entries.forEach((e: unknown, i) => {
        const x = e as Record<string, unknown>;
        const ok =
          typeof e === 'object' && e !== null && KINDS.has(x.kind as string) && typeof x.key === 'string' && (x.via === 'mcp' || x.via === 'shell') && typeof x.at === 'string' &&
          (x.runner === undefined || typeof x.runner === 'string') && (x.toolUseId === undefined || typeof x.toolUseId === 'string');
        if (!ok) issues.push({ path: ['entries', i], message: 'expected {kind, key, via, at, runner?, toolUseId?}' });
      });
    }
    for (const key of Object.keys(o)) if (key !== 'entries') issues.push({ path: [key], message: 'unknown property' });
    return issues.length > 0 ? { success: false, error: { issues } } : { success: true, data: input as OpenedFile };
  },
};

const definition = defineDocument<OpenedFile>({ schema: openedSchema, version: 1, initial: { entries: [] } });

function openOpened(root: string): Document<OpenedFile> {
  return openDocument(join(root, OPENED_FILE), definition, { createParentDirs: true });
}

/**
 * The agent's channel for this process, or undefined for a person's own terminal: Ratchet's MCP
 * server marks its calls (RATCHET_VIA=mcp, with the tool-use id when the client sent one); an agent
 * harness marks its shell (Claude Code: CLAUDECODE=1; any harness: RATCHET_ACTOR=agent).
 */
export function agentChannel(env: Readonly<Record<string, string | undefined>>): { via: 'mcp' | 'shell'; toolUseId?: string } | undefined {
  if (env.RATCHET_VIA === 'mcp') return { via: 'mcp', ...(env.RATCHET_TOOL_USE_ID ? { toolUseId: env.RATCHET_TOOL_USE_ID } : {}) };
  if (env.CLAUDECODE === '1' || env.RATCHET_ACTOR === 'agent' || env.SANDBOX_RUNTIME === '1') return { via: 'shell' };
  return undefined;
}

/** Record an obligation the agent just opened (nothing when a person opened it from their own terminal). */
export async function recordOpened(root: string, env: Readonly<Record<string, string | undefined>>, item: { kind: OpenedKind; key: string; runner?: string }, now: Date = new Date()): Promise<void> {
  const channel = agentChannel(env);
  if (channel === undefined) return;
  const entry: Opened = { ...item, ...channel, at: now.toISOString() };
  await openOpened(root).update((f) => ({ entries: [...f.entries, entry].slice(-MAX_ENTRIES) }));
}

/** Entries not yet attributed to a session. */
export function unattributed(root: string): Opened[] {
  return openOpened(root).readSync().entries;
}

/** `memory` with the obligations of `entries` added (the lists the Stop hook reads). */
export function withOpened(memory: HookMemory, entries: readonly Opened[]): HookMemory {
  let next = memory;
  for (const e of entries) {
    if (e.kind === 'claim') next = { ...next, runners: remember(next.runners, e.key) };
    else if (e.kind === 'flow') next = { ...next, flows: remember(next.flows, e.key) };
    else if (e.runner !== undefined) {
      const lock = { log: e.key, runner: e.runner };
      next = { ...next, jixoLocks: remember(next.jixoLocks, lock, (a, b) => a.log === b.log && a.runner === b.runner) };
    }
  }
  return next;
}

/**
 * Move the entries this tool call opened into the session's memory: by tool-use id for an MCP call,
 * every shell entry for a shell call. Cheap when there is nothing to take (one small read).
 */
export async function attributeOpened(root: string, sessionId: string, call: { toolUseId?: string; shell: boolean }): Promise<void> {
  const doc = openOpened(root);
  const mine = (e: Opened): boolean => (e.via === 'mcp' ? call.toolUseId !== undefined && e.toolUseId === call.toolUseId : call.shell);
  if (!doc.readSync().entries.some(mine)) return;
  let taken: Opened[] = [];
  await doc.update((f) => {
    taken = f.entries.filter(mine);
    return { entries: f.entries.filter((e) => !mine(e)) };
  });
  if (taken.length === 0) return;
  await openHookMemory(root, sessionId).update((m) => ({ ...withOpened(m, taken), sessionId }));
}
