/**
 * Whether this harness session has work under way that allows writing when no task is started (the
 * `requireTask` gate): an open flow session it started, a campaign task its runners hold, a JIXO log
 * lock it took. Read raw and synchronously (the PreToolUse hook runs on every tool call and only
 * needs a yes or no); a file that cannot be read counts as no work, so the gate stays shut.
 */
import { join } from 'node:path';
import { readJsonFileSync, storageKind } from '@ratchet/store';
import { openHookMemory, type HookMemory } from './memory.js';
import { unattributed, withOpened } from './opened.js';
import { sessionRunners } from './runner.js';

const OPEN_FLOW = new Set(['EXECUTING', 'LEARNINGS_PENDING']);

function readRaw(path: string): Record<string, unknown> | undefined {
  try {
    const { value } = readJsonFileSync(path, { maxBytes: 16 * 1024 * 1024 });
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function memoryOf(root: string, sessionId: string | undefined): HookMemory | undefined {
  try {
    const memory = openHookMemory(root, sessionId ?? 'unknown').readSync();
    return withOpened(memory, unattributed(root));
  } catch {
    return undefined;
  }
}

export function activeWork(root: string, sessionId: string | undefined, env: Readonly<Record<string, string | undefined>>): boolean {
  const memory = memoryOf(root, sessionId);
  if (memory === undefined) return false;
  const flowFile = (id: string): Record<string, unknown> | undefined => readRaw(join(root, '.ratchet', 'flows', `${id.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`));
  const open = (state: Record<string, unknown> | undefined): boolean => typeof state?.status === 'string' && OPEN_FLOW.has(state.status);
  for (const id of memory.flows) {
    const state = flowFile(id);
    if (open(state)) return true;
    // The flow a reasoning session routed to, started however (the handoff names its session).
    const handoff = state?.handoff as { session?: unknown } | undefined;
    if (typeof handoff?.session === 'string' && open(flowFile(handoff.session))) return true;
  }
  if (memory.jixoLocks.length > 0) return true;
  const runners = sessionRunners(env, sessionId, memory);
  let shared: boolean;
  try {
    shared = storageKind(root, env) !== 'file';
  } catch {
    return false;
  }
  // A shared campaign cannot be read synchronously here: a claim this session made counts.
  if (shared) return memory.runners.length > 0;
  const tasks = readRaw(join(root, '.ratchet', 'campaign.json'))?.tasks;
  if (!Array.isArray(tasks)) return false;
  return tasks.some((t: unknown) => {
    const task = t as { status?: unknown; runner?: unknown };
    return task.status === 'in_progress' && typeof task.runner === 'string' && runners.includes(task.runner);
  });
}
