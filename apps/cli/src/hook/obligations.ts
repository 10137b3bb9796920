/**
 * An agent's open obligations, read from the state that owns each one: the task lifecycle
 * (`.ratchet/session.json`), the flow sessions this Claude Code session started, the campaign
 * tasks its runners claimed, the JIXO log locks it took. Each obligation names the exact command
 * that discharges it. A state file that does not parse or validate is an obligation too (the one
 * thing the hooks do not fail open on): nothing can be judged until a person repairs it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { NotFoundError, StoreError, inspectLock, storageKind } from '@ratchet/store';
import { nextDirective, readSessionSync, type Session } from '@ratchet/orchestrator/session-view';
import type { Context } from '../context.js';
import type { HookMemory } from './memory.js';
import { unattributed, withOpened } from './opened.js';

export type ObligationKind = 'task' | 'flow' | 'claim' | 'jixo-lock' | 'corrupt';

export interface Obligation {
  kind: ObligationKind;
  /** One line: what is open. */
  what: string;
  /** The exact command that moves it on. */
  command: string;
}

export const TASK_SESSION = '.ratchet/session.json';

/** A state file that cannot be read: its place, for the block reason. */
export function corruptObligation(root: string, err: StoreError): Obligation {
  const file = err.path.startsWith(root) ? err.path.slice(root.length + 1) : err.path;
  const place = err.line === undefined ? (err.pointer !== undefined ? ` at ${err.pointer || '(root)'}` : '') : `:${err.line}:${err.column ?? 1}`;
  return {
    kind: 'corrupt',
    what: `${file}${place} cannot be read (${err.reason}); Ratchet will not guess what it meant`,
    command: `ratchet doctor (a person restores the last good version with ratchet doctor --restore ${file}, or accepts the edit with --accept; never edit it by hand)`,
  };
}

/** The task session, undefined when there is none; throws StoreError when it is unreadable. */
export function readTaskSession(root: string): Session | undefined {
  return readSessionSync(join(root, TASK_SESSION));
}

/** The task's obligation: any state between a start and DONE. */
export function taskObligation(session: Session | undefined): Obligation | undefined {
  if (session === undefined || session.state === 'START' || session.state === 'DONE') return undefined;
  const directive = nextDirective(session);
  return {
    kind: 'task',
    what: `task ${session.taskId} is ${session.state}: ${directive.instruction}`,
    // Self-correction is a sequence of commands; elsewhere they are alternatives.
    command: directive.commands.length === 0 ? 'ratchet run status' : directive.commands.join(session.state === 'POST_MORTEM' || session.state === 'SELF_CORRECTING' ? '`, then `' : '` or `'),
  };
}

/** Obligations that block stopping, in a stable order. Reads only. */
export async function openObligations(ctx: Context, sessionMemory: HookMemory, sessionRunnerNames: readonly string[]): Promise<Obligation[]> {
  let memory = sessionMemory;
  let runners = sessionRunnerNames;
  const root = ctx.cwd;
  const out: Obligation[] = [];
  const guard = async (fn: () => Promise<void> | void): Promise<void> => {
    try {
      await fn();
    } catch (err) {
      if (err instanceof NotFoundError) return;
      if (err instanceof StoreError) out.push(corruptObligation(root, err));
      else throw err;
    }
  };
  await guard(() => {
    const task = taskObligation(readTaskSession(root));
    if (task) out.push(task);
  });
  // Obligations opened through any channel and not yet attributed to a session are everyone's.
  await guard(() => {
    const pending = unattributed(root);
    if (pending.length === 0) return;
    memory = withOpened(memory, pending);
    runners = [...new Set([...runners, ...memory.runners])];
  });
  // Flows and campaigns are read by modules loaded only when there is something to read (Stop
  // runs at every turn's end). Each catches its own state errors and returns them as obligations:
  // the hook bundles load them from the main bundle, whose StoreError is a different class.
  if (memory.flows.length > 0) {
    const { flowObligations } = await import('./flow-obligations.js');
    out.push(...(await flowObligations(ctx, memory.flows)));
  }
  // On files, no campaign.json is no claim (and nothing else is loaded). A project whose state is
  // shared (RATCHET_STORE=postgres://...) keeps its campaign in the database: read it there.
  if (runners.length > 0) {
    let shared = false;
    await guard(() => {
      shared = !existsSync(join(root, '.ratchet', 'campaign.json')) && storageKind(root, ctx.io.env) !== 'file';
    });
    if (shared || existsSync(join(root, '.ratchet', 'campaign.json'))) {
      const { claimObligations } = await import('./claim-obligations.js');
      out.push(...(await claimObligations(root, runners, shared ? ctx.io.env : undefined)));
    }
  }
  for (const lock of memory.jixoLocks) {
    await guard(async () => {
      const info = await inspectLock(join(root, lock.log));
      if (info !== undefined && info.holder.detached === true && info.holder.runner === lock.runner && !info.stale) {
        out.push({ kind: 'jixo-lock', what: `${lock.runner} holds the JIXO log lock on ${lock.log}`, command: `ratchet jixo unlock ${lock.log} --runner ${lock.runner}` });
      }
    });
  }
  return out;
}

/** One block reason naming every obligation and its command. */
export function describeObligations(obligations: readonly Obligation[]): string {
  return obligations.map((o) => `- ${o.what}\n  next: \`${o.command}\``).join('\n');
}
