import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ARCHIVE_VERSION, CAMPAIGN_VERSION } from '@ratchet/campaign-dag';
import { SESSION_VERSION as FLOW_SESSION_VERSION } from '@ratchet/flows';
import { GOALS_STATE_VERSION } from '@ratchet/goals';
import { MEMORY_SCHEMA_VERSION } from '@ratchet/memory';
import { ORIENTATION_REPORT_VERSION } from '@ratchet/orchestrator';
import { SESSION_SCHEMA_VERSION } from '@ratchet/orchestrator/session-view';
import { PLAN_REGISTRY_VERSION } from '@ratchet/plan-lint/registry';
import {
  NotFoundError,
  StoreError,
  TamperedError,
  acceptCurrent,
  checkDigest,
  describeHolder,
  type LockHolder,
  inspectLock,
  journalEntriesUnder,
  parseJson,
  recordRemoval,
  readDigestRecord,
  readLinesSync,
  readTextFileSync,
  resolveInsideRoot,
  restorePrevious,
} from '@ratchet/store';
import { requireUser } from '../../actor.js';
import { pinDrift } from '../../rule-pins.js';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import { stringOption } from '../../option-values.js';
import type { CommandAction } from '../../program.js';
import { jixoLogReports, repairJixoLog } from './jixo-logs.js';

const STATE_DIR = '.ratchet';
/** State files outside .ratchet/ that doctor checks too. */
const OTHER_FILES = ['logs/activity.log.jsonl', 'knowledge_core/lessons.jsonl', 'knowledge_core/plan_registry.json'];
/** JSONL state written whole through the store with a digest record (not an append-only log). */
const TRACKED_JSONL = /(?:^|[\\/])knowledge_core[\\/]lessons\.jsonl$/u;

/** The schemaVersion each known document supports, by path relative to the project (`*` is one name). */
const KNOWN: ReadonlyArray<[RegExp, number]> = [
  [/^\.ratchet\/session\.json$/u, SESSION_SCHEMA_VERSION],
  [/^\.ratchet\/flows\/[^/]+\.json$/u, FLOW_SESSION_VERSION],
  [/^\.ratchet\/goals\.json$/u, GOALS_STATE_VERSION],
  [/^\.ratchet\/memory\.json$/u, MEMORY_SCHEMA_VERSION],
  [/^\.ratchet\/campaign\.json$/u, CAMPAIGN_VERSION],
  [/^\.ratchet\/archive\/[^/]+\.json$/u, ARCHIVE_VERSION],
  [/^\.ratchet\/orientation\.json$/u, ORIENTATION_REPORT_VERSION],
  [/^knowledge_core\/plan_registry\.json$/u, PLAN_REGISTRY_VERSION],
];

/** Beside a state file, not state: digest records, kept copies, refused content, locks, temp files. */
const NOT_STATE = /(?:\.digest|\.prev|\.lock|\.tmp|\.lock\.break-[A-Za-z0-9_-]+|\.rejected-[0-9TZ-]+)$/u;

type ProblemCode = 'tampered' | 'corrupt' | 'newer-version' | 'stale-lock' | 'unreadable' | 'rule-changed' | 'hooks-off';

interface Problem {
  code: ProblemCode;
  message: string;
  line?: number;
  column?: number;
}

interface FileReport {
  file: string;
  /** Whether a digest record guards the file (JSONL files never have one). */
  tracked: boolean;
  schemaVersion?: number;
  /** The newest schemaVersion this Ratchet reads, for documents it knows. */
  supported?: number;
  /** When Ratchet last wrote the file, from its digest record. */
  writtenAt?: string;
  problems: Problem[];
}

/** `ratchet doctor [--accept <file> | --restore <file>]` */
const doctor: CommandAction = async (ctx, _args, options) => {
  const accept = stringOption(options, 'accept');
  const restore = stringOption(options, 'restore');
  if (accept !== undefined && restore !== undefined) throw new CliError('use --accept or --restore, not both');
  if (accept !== undefined || restore !== undefined) return repair(ctx, accept !== undefined ? 'accept' : 'restore', (accept ?? restore)!);

  const reports: FileReport[] = [];
  const locks: string[] = [];
  for (const file of [...walk(join(ctx.cwd, STATE_DIR), locks), ...OTHER_FILES.map((f) => join(ctx.cwd, f))]) {
    const report = check(ctx, file);
    if (report !== undefined) reports.push(report);
  }
  reports.push(...vanished(ctx));
  // Claude Code told to skip every hook: the rails are off in this project.
  for (const file of ['.claude/settings.json', '.claude/settings.local.json']) {
    const value = readJsonQuiet(join(ctx.cwd, file));
    if (value !== undefined && (value as { disableAllHooks?: unknown }).disableAllHooks === true) {
      reportFor(ctx, reports, join(ctx.cwd, file)).problems.push({ code: 'hooks-off', message: 'sets "disableAllHooks": true, so Claude Code runs none of Ratchet\'s hooks here; remove it (only a person should)' });
    }
  }
  // Rule files edited while work runs: the work keeps its pinned copy; a person should know.
  for (const drift of pinDrift(ctx.cwd)) {
    reportFor(ctx, reports, join(ctx.cwd, drift.file)).problems.push({
      code: 'rule-changed',
      message: `changed since ${drift.scope} started: that work keeps running by the copy pinned at its start; the change applies to the next task`,
    });
  }
  // Every state file's lock, and locks of anything else under .ratchet/ (logs, workspaces).
  const targets = new Set([...reports.map((r) => join(ctx.cwd, r.file)), ...locks.map((l) => l.slice(0, -'.lock'.length))]);
  for (const target of targets) {
    let info;
    try {
      info = await inspectLock(target);
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      reportFor(ctx, reports, target).problems.push({ code: 'stale-lock', message: err.reason });
      continue;
    }
    if (info?.stale === true) {
      reportFor(ctx, reports, target).problems.push({
        code: 'stale-lock',
        message: `stale lock ${displayPath(ctx, info.lockPath)} held by ${describeHolder(info.holder)} (${staleReason(info.holder)}); the next write takes it over, or delete it`,
      });
    }
  }
  reports.push(...(await jixoLogReports(ctx)));
  reports.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const bad = reports.filter((r) => r.problems.length > 0);
  // Hooks configured for an agent CLI that has not been told to trust them run nowhere: say so.
  // A warning, not a problem: the state is fine, and the user may not use that CLI on this machine.
  const { trustWarnings } = await import('../../harness-setup/trust.js');
  const trust = trustWarnings(ctx.cwd, ctx.io.env);
  if (ctx.json) {
    ctx.emitJson({ ok: bad.length === 0, files: reports, ...(trust.length === 0 ? {} : { hookTrust: trust }) });
  } else {
    for (const w of trust) ctx.out(`warning: ${w.harness}: ${w.message}`);
    for (const r of bad) {
      for (const p of r.problems) ctx.out(`${r.file}${p.line === undefined ? '' : `:${p.line}:${p.column ?? 1}`}: ${p.code}: ${p.message}`);
    }
    const untracked = reports.filter((r) => !r.tracked && r.file.endsWith('.json')).length;
    const summary = `${reports.length} state file${reports.length === 1 ? '' : 's'} checked`;
    const note = untracked > 0 ? ` (${untracked} without a digest record: not tracked)` : '';
    ctx.out(bad.length === 0 ? `${summary}${note}: all well` : `${summary}${note}: ${bad.length} with problems`);
    if (bad.some((r) => r.problems.some((p) => p.code === 'tampered'))) {
      // The same decisions for JIXO logs (\`ratchet jixo accept|restore\` do them too).
      ctx.out('A person decides: `ratchet doctor --restore <file>` puts back the last good version, `ratchet doctor --accept <file>` keeps the edit.');
    }
  }
  return bad.length === 0 ? EXIT_OK : EXIT_PROBLEMS;
};
export default doctor;

/**
 * State files the journal says Ratchet wrote (and did not remove) that are gone: deleted by hand, by
 * `git clean` or `git stash --all`. Their absence would otherwise read as "nothing started".
 */
function vanished(ctx: Context): FileReport[] {
  let real: string;
  try {
    real = realpathSync(ctx.cwd);
  } catch {
    return [];
  }
  const out: FileReport[] = [];
  for (const { path, entry } of journalEntriesUnder(ctx.cwd, ctx.io.env)) {
    if (entry.removed === true || existsSync(path)) continue;
    const inProject = join(ctx.cwd, relative(real, path));
    out.push({
      file: displayPath(ctx, inProject),
      tracked: true,
      writtenAt: entry.at,
      problems: [{ code: 'tampered', message: `removed outside Ratchet (Ratchet last wrote revision ${entry.revision} at ${entry.at}); \`--restore\` puts back its last good copy if one is left, \`--accept\` records that it is gone` }],
    });
  }
  return out;
}

function readJsonQuiet(path: string): unknown {
  try {
    return parseJson(readTextFileSync(path, { maxBytes: 4 * 1024 * 1024 }).text, { path });
  } catch {
    return undefined;
  }
}

/** State files under `dir` (sorted), and the lock files met on the way into `locks`. */
function walk(dir: string, locks: string[]): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    // Pinned rule copies are checked against their recorded digests when read (rule-pins.ts), not here.
    if (entry.isDirectory() && path.endsWith(`${sep}.ratchet${sep}pins`)) continue;
    if (entry.isDirectory()) files.push(...walk(path, locks));
    else if (entry.name.endsWith('.lock')) locks.push(path);
    else if (!NOT_STATE.test(entry.name) && (entry.name.endsWith('.json') || entry.name.endsWith('.jsonl'))) files.push(path);
  }
  return files;
}

function reportFor(ctx: Context, reports: FileReport[], path: string): FileReport {
  const file = displayPath(ctx, path);
  let report = reports.find((r) => r.file === file);
  if (report === undefined) {
    report = { file, tracked: false, problems: [] };
    reports.push(report);
  }
  return report;
}

/** One file's report; undefined when it does not exist. */
function check(ctx: Context, path: string): FileReport | undefined {
  const report: FileReport = { file: displayPath(ctx, path), tracked: false, problems: [] };
  if (path.endsWith('.jsonl')) {
    // Logs are read line by line; the lessons file is state too: its digest record is checked.
    const lines = checkLines(path, report);
    if (lines !== undefined && TRACKED_JSONL.test(path)) digestCheck(path, readTextFileSync(path).text, lines);
    return lines;
  }
  let text: string;
  try {
    text = readTextFileSync(path).text;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    if (!(err instanceof StoreError)) throw err;
    report.problems.push(placed('unreadable', err));
    return report;
  }
  let value: unknown;
  try {
    value = parseJson(text, { path });
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    report.problems.push(placed('corrupt', err));
  }
  digestCheck(path, text, report);
  const found = (value as { schemaVersion?: unknown } | undefined)?.schemaVersion;
  if (typeof found === 'number') report.schemaVersion = found;
  const rel = relative(ctx.cwd, path).split(sep).join('/');
  const supported = KNOWN.find(([pattern]) => pattern.test(rel))?.[1];
  if (supported !== undefined) {
    report.supported = supported;
    if (typeof found === 'number' && found > supported) {
      report.problems.push({ code: 'newer-version', message: `written by a newer version: schemaVersion ${found}, this Ratchet reads up to ${supported}; upgrade Ratchet` });
    }
  }
  return report;
}

/**
 * A JSONL log: appended on every tool call, with no digest (see the store's README) and no size
 * limit (the activity log passes 16 MiB at about 30,000 tool calls), so it is read line by line.
 * Every line must be text and parse; each one that does not is reported at its line.
 */
function checkLines(path: string, report: FileReport): FileReport | undefined {
  try {
    for (const line of readLinesSync(path)) {
      if (line.error !== undefined) report.problems.push(placed('unreadable', line.error));
      else if (line.text.trim() !== '') {
        try {
          parseJson(line.text, { path, firstLine: line.line });
        } catch (err) {
          if (!(err instanceof StoreError)) throw err;
          report.problems.push(placed('corrupt', err));
        }
      }
    }
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    if (!(err instanceof StoreError)) throw err;
    report.problems.push(placed('unreadable', err));
  }
  return report;
}

/** Whether the file is what Ratchet last wrote (a tampered or unreadable record is a problem on the report). */
function digestCheck(path: string, text: string, report: FileReport): void {
  try {
    const record = readDigestRecord(path);
    report.tracked = record !== undefined;
    if (record !== undefined) report.writtenAt = record.writtenAt;
    // Full check (SHA-256 whatever the size); a concurrent writer is waited out like any reader.
    checkDigest(path, text, () => readTextFileSync(path).text, { full: true });
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    report.problems.push({ code: err instanceof TamperedError ? 'tampered' : 'unreadable', message: err.reason });
  }
}

function placed(code: ProblemCode, err: StoreError): Problem {
  const problem: Problem = { code, message: err.reason };
  if (err.line !== undefined) problem.line = err.line;
  if (err.column !== undefined) problem.column = err.column;
  return problem;
}

/** `--accept` / `--restore`: a person's decision about one file. */
async function repair(ctx: Context, what: 'accept' | 'restore', file: string): Promise<number> {
  requireUser(ctx, `ratchet doctor --${what} (deciding about a state file changed outside Ratchet)`);
  const path = resolveInsideRoot(ctx.cwd, file, { allowAbsolute: true });
  const shown = displayPath(ctx, path);
  const lessons = TRACKED_JSONL.test(path);
  if (path.endsWith('.jsonl') && !lessons) throw new CliError(`${shown}: JSONL logs carry no digest record; there is nothing to ${what}`, { file: shown });
  if (path.endsWith('.log.md')) return repairJixoLog(ctx, what, path);
  if (what === 'accept' && !existsSync(path)) {
    // A person's "it is gone on purpose": the journal stops calling its absence tampering.
    await recordRemoval(path);
    if (ctx.json) ctx.emitJson({ ok: true, file: shown, accepted: null, removed: true });
    else ctx.out(`${shown}: its absence is now recorded as good (the next read starts it afresh)`);
    return EXIT_OK;
  }
  if (what === 'accept') {
    // A file that does not parse would only fail on the next read: fix it first. (A lessons file
    // keeps bad lines as they are, reported by every lessons command: accepting it is the person's call.)
    if (!lessons) parseJson(readTextFileSync(path).text, { path });
    const record = await acceptCurrent(path);
    if (ctx.json) ctx.emitJson({ ok: true, file: shown, accepted: record });
    else ctx.out(`${shown}: its current content is now recorded as good (${record.writtenAt})`);
    return EXIT_OK;
  }
  const result = await restorePrevious(path);
  if (ctx.json) ctx.emitJson({ ok: true, file: shown, restored: result.restored, rejected: result.rejectedPath === undefined ? null : displayPath(ctx, result.rejectedPath) });
  else {
    ctx.out(`${shown}: the last good version is back`);
    if (result.rejectedPath !== undefined) ctx.out(`the refused content is kept as ${displayPath(ctx, result.rejectedPath)}`);
  }
  return EXIT_OK;
}

/**
 * Why a lock is stale: its lease ran out (a holder on another host, or one that stopped renewing),
 * or its holder process is gone on this host. A lease that ran out says nothing about the process.
 */
function staleReason(holder: LockHolder): string {
  const leaseUntil = typeof holder.leaseUntil === 'string' ? Date.parse(holder.leaseUntil) : Number.NaN;
  return Number.isFinite(leaseUntil) && leaseUntil <= Date.now() ? `its lease ran out at ${String(holder.leaseUntil)}` : 'the holder is gone';
}
