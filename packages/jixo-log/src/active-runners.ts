/**
 * The outer loop's live list of runners, published beside the log (`<log>.runners`). An agent's
 * RATCHET_JIXO_ACTIVE is a snapshot taken when it started; in a pool, runners start later, and an
 * agent triaging with its snapshot would take their Locked tasks for stale and release them. The
 * published list is read by `ratchet jixo triage` (and anyone with the log path) and joined to the
 * list given on the command line. It names its owner process: a list left by a dead loop is ignored.
 */
import { hostname } from 'node:os';
import { readTextFile, writeFileAtomic } from '@ratchet/store';
import { isAlive } from './files.js';

export interface ActiveRunnersFile {
  ownerPid: number;
  host: string;
  runners: string[];
}

export function activeRunnersPath(logPath: string): string {
  return `${logPath}.runners`;
}

/** Write the list (atomically; the caller serialises its writes). */
export async function publishActiveRunners(logPath: string, runners: readonly string[]): Promise<void> {
  const file: ActiveRunnersFile = { ownerPid: process.pid, host: hostname(), runners: [...runners] };
  await writeFileAtomic(activeRunnersPath(logPath), `${JSON.stringify(file, null, 2)}\n`);
}

/**
 * The runners a live outer loop has published for `logPath`; empty when there is no list, it does
 * not parse, or its owner is dead (or on another host, where its liveness cannot be checked).
 */
export async function readActiveRunners(logPath: string): Promise<string[]> {
  let text: string;
  try {
    ({ text } = await readTextFile(activeRunnersPath(logPath)));
  } catch {
    return [];
  }
  let file: Partial<ActiveRunnersFile>;
  try {
    file = JSON.parse(text) as Partial<ActiveRunnersFile>;
  } catch {
    return [];
  }
  if (typeof file.ownerPid !== 'number' || file.host !== hostname() || !Array.isArray(file.runners) || !isAlive(file.ownerPid)) return [];
  return file.runners.filter((r): r is string => typeof r === 'string');
}

