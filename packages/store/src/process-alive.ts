/**
 * Is the process that wrote a lock still there? `process.kill(pid, 0)` answers for pids, and on
 * Linux /proc adds two things a bare pid cannot: a killed-but-unreaped child is a zombie (dead for
 * our purposes), and a pid that was reused by a new process has a different start time.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { errnoCode } from './errors.js';

let host: string | undefined;

/** This machine's name as lock files record it. */
export function thisHost(): string {
  host ??= hostname();
  return host;
}

let ownStart: string | null | undefined;

/** This process's start time in clock ticks since boot (/proc/self/stat field 22), or undefined without /proc. */
export function ownPidStart(): string | undefined {
  if (ownStart === undefined) {
    let text: string | undefined;
    try {
      text = readFileSync('/proc/self/stat', 'utf8');
    } catch {
      text = undefined;
    }
    ownStart = parseStat(text)?.start ?? null;
  }
  return ownStart ?? undefined;
}

interface ProcStat {
  state: string;
  start: string;
}

function parseStat(text: string | undefined): ProcStat | undefined {
  if (text === undefined) return undefined;
  // The command name (field 2) is in parentheses and may contain spaces or ')'.
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = text.slice(close + 2).split(' ');
  const state = fields[0];
  const start = fields[19];
  return state !== undefined && start !== undefined ? { state, start } : undefined;
}

/**
 * True unless the process is known to be gone (no such pid, a zombie, or a different process under
 * that pid). Synchronous: a signal probe and a tiny /proc read cost microseconds.
 */
export function isProcessAlive(pid: number, pidStart?: string): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  let otherUser = false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ESRCH') return false;
    otherUser = code === 'EPERM';
  }
  if (ownPidStart() === undefined) return true;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    // Gone since the probe; but a /proc mounted with hidepid hides other users' live processes.
    return errnoCode(err) !== 'ENOENT' || otherUser;
  }
  const stat = parseStat(text);
  if (stat === undefined) return true;
  if (stat.state === 'Z' || stat.state === 'X') return false;
  if (pidStart !== undefined && stat.start !== pidStart) return false;
  return true;
}
