/**
 * `ratchet doctor` for JIXO logs (`.jixo/**\/*.log.md`): whether Ratchet tracks each one (it has
 * written it, so it keeps a digest and the last good version), whether its text is still what
 * Ratchet last wrote, and what the audit every `ratchet jixo` command runs finds in a change made
 * outside it. The decisions (`--accept`, `--restore`) are jixo-log's: a log is Markdown, and
 * accepting one that does not parse would only move the refusal to the next command.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { acceptLogFile, inspectLogFile, logLockHolder, restoreLogFile } from '@ratchet/jixo-log';
import { NotFoundError, StoreError, inspectLock } from '@ratchet/store';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';

/** The report doctor prints for one file (its FileReport). */
export interface JixoLogReport {
  file: string;
  tracked: boolean;
  writtenAt?: string;
  problems: { code: 'tampered' | 'corrupt' | 'stale-lock' | 'unreadable'; message: string; line?: number; column?: number }[];
}

const JIXO_DIR = '.jixo';
/** Deep enough for any layout JIXO used (`.jixo/` and one level of sub-directories), bounded against link loops. */
const MAX_DEPTH = 4;

/** One report per JIXO log of the project, sorted by path. */
export async function jixoLogReports(ctx: Context): Promise<JixoLogReport[]> {
  const reports: JixoLogReport[] = [];
  for (const path of logsUnder(join(ctx.cwd, JIXO_DIR), 0)) {
    const report: JixoLogReport = { file: displayPath(ctx, path), tracked: false, problems: [] };
    reports.push(report);
    let audit;
    try {
      audit = await inspectLogFile(path);
    } catch (err) {
      if (err instanceof NotFoundError) continue;
      if (!(err instanceof StoreError)) throw err;
      report.problems.push({ code: 'unreadable', message: err.reason });
      continue;
    }
    const lock = await inspectLock(path).catch(() => undefined);
    const holder = await logLockHolder(path);
    report.tracked = audit.tracked;
    if (audit.writtenAt !== undefined) report.writtenAt = audit.writtenAt;
    for (const d of audit.diagnostics) {
      if (d.severity === 'error') report.problems.push({ code: audit.edited ? 'tampered' : 'corrupt', message: `${d.message} (${d.rule})`, line: d.line, column: d.column });
    }
    if (audit.edited && holder === undefined && report.problems.length === 0) {
      report.problems.push({ code: 'tampered', message: `changed outside Ratchet since ${audit.writtenAt ?? 'its last good version'}; no status and no Work Log entry changed, so the next ratchet jixo command records it (a person can also run ratchet jixo accept ${report.file})` });
    }
    if (lock?.stale === true) report.problems.push({ code: 'stale-lock', message: `stale lock ${displayPath(ctx, lock.lockPath)} held by ${typeof lock.holder.runner === 'string' ? lock.holder.runner : `pid ${lock.holder.pid}`}: the next command takes it over and judges what its holder wrote` });
  }
  return reports;
}

function logsUnder(dir: string, depth: number): string[] {
  if (depth > MAX_DEPTH) return [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...logsUnder(path, depth + 1));
    else if (entry.isFile() && entry.name.endsWith('.log.md')) out.push(path);
  }
  return out;
}

/** `doctor --accept|--restore <x.log.md>`: jixo-log's decisions, which read the log as Markdown. */
export async function repairJixoLog(ctx: Context, what: 'accept' | 'restore', path: string): Promise<number> {
  const shown = displayPath(ctx, path);
  if (what === 'accept') {
    await acceptLogFile(path);
    if (ctx.json) ctx.emitJson({ ok: true, file: shown, accepted: true });
    else ctx.out(`${shown}: its current text is now the last good version; the audit starts from it`);
    return EXIT_OK;
  }
  const { rejectedPath } = await restoreLogFile(path);
  if (ctx.json) ctx.emitJson({ ok: true, file: shown, restored: true, rejected: rejectedPath === undefined ? null : displayPath(ctx, rejectedPath) });
  else {
    ctx.out(`${shown}: the last good version is back`);
    if (rejectedPath !== undefined) ctx.out(`the refused content is kept as ${displayPath(ctx, rejectedPath)}`);
  }
  return EXIT_OK;
}
