/**
 * `ratchet import <system> [dir]`: what Ratchet finds of an original system in `dir`, in three lists:
 * what it reads in place (and with what), what it would convert and to where, and what it ignores
 * (and why). Writes only with --write, never over an existing file (that conversion is refused and
 * named), and a broken file Ratchet reads stops everything (exit 2, with its place) before any write.
 */
import { join, relative } from 'node:path';
import { importFtlCampaign } from '@ratchet/campaign-dag';
import { importFtlMemory, openMemory, type FtlImportResult } from '@ratchet/memory';
import { readJsonFile } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from '../../exit-codes.js';
import { withInput } from '../../option-values.js';
import { versioned } from '../../output/json-output.js';
import { resolvePath } from '../../paths.js';
import { DEFAULT_FILE } from '../memory/shared.js';
import { inspectClaudeOrchestration, inspectFrontalCortex, inspectFtl, inspectJixo, inspectJules, problemOf } from './inspect.js';
import { importInput, type ImportInput } from './inputs.js';
import { detectSystems, exists, SYSTEMS, type Conversion, type Ignored, type System, type SystemReport } from './layouts.js';

const STATE_DIR = '.ratchet';

async function inspect(system: System, root: string): Promise<SystemReport> {
  switch (system) {
    case 'jules':
      return inspectJules(root);
    case 'jixo':
      return inspectJixo(root);
    case 'ftl':
      return inspectFtl(root, STATE_DIR, DEFAULT_FILE);
    case 'claude-orchestration':
      return inspectClaudeOrchestration(root);
    case 'frontal-cortex':
      return inspectFrontalCortex(root);
  }
}

/** Carry out one planned conversion; the target is checked first and never overwritten. */
async function convert(root: string, c: Conversion, now: number, notes: string[]): Promise<void> {
  if ((await exists(join(root, c.to))) !== undefined) {
    c.status = 'refused';
    c.reason = `${c.to} already exists; it is not overwritten`;
    return;
  }
  try {
    if (c.from === '.ftl/memory.json') {
      const { value } = await readJsonFile(join(root, c.from));
      let result: FtlImportResult | undefined;
      await openMemory(join(root, c.to), { createParentDirs: true }).update((draft) => void (result = importFtlMemory(draft, value, { now })));
      const r = result!;
      notes.push(`memory: ${r.added.length} added, ${r.merged.length} merged, ${r.refused.length} refused by the gates, ${r.skipped.length} skipped`);
      for (const n of r.neutralised) notes.push(`memory: ${n.name} kept without its match ${JSON.stringify(n.match)}: ${n.reason}`);
    } else notes.push(...(await importFtlCampaign(root, join(root, c.from), { stateDir: STATE_DIR })).notes);
    c.status = 'written';
  } catch (err) {
    c.status = 'refused';
    c.reason = problemOf(c.from, err)[0]!.message;
  }
}

/**
 * The ignored files for a person: one line per file, except that more than three files sharing a
 * reason and an extension are one line with their common folder and the count
 * (`.claude/orchestration/**\/*.py: 142 files`). --json lists every file.
 */
export function ignoredLines(ignored: readonly Ignored[]): string[] {
  const groups = new Map<string, { why: string; paths: string[] }>();
  for (const i of ignored) {
    const key = `${i.why}\u0000${extensionOf(i.path)}`;
    const group = groups.get(key) ?? { why: i.why, paths: [] };
    group.paths.push(i.path);
    groups.set(key, group);
  }
  const out: string[] = [];
  for (const { why, paths } of groups.values()) {
    if (paths.length <= 3) for (const p of paths) out.push(`${p}  (${why})`);
    else out.push(`${globOf(paths)}: ${paths.length} files  (${why})`);
  }
  return out;
}

const extensionOf = (path: string): string => /(\.[A-Za-z0-9]+)$/.exec(path.slice(path.lastIndexOf('/') + 1))?.[1] ?? '';

/** `dir/**\/*.ext` for paths under one folder sharing an extension (`dir/**` when they do not). */
function globOf(paths: readonly string[]): string {
  const dirs = paths.map((p) => p.split('/').slice(0, -1));
  const common: string[] = [];
  for (let i = 0; dirs.every((d) => i < d.length && d[i] === dirs[0]![i]); i++) common.push(dirs[0]![i]!);
  const exts = new Set(paths.map(extensionOf));
  const tail = exts.size === 1 && !exts.has('') ? `**/*${[...exts][0]!}` : '**';
  return common.length === 0 ? tail : `${common.join('/')}/${tail}`;
}

async function importCommand(ctx: Context, { system: which, dir: dirArg, write }: ImportInput): Promise<number> {
  const root = resolvePath(ctx, dirArg ?? '.');
  if ((await exists(root)) !== 'dir') throw new CliError(`import: ${dirArg ?? '.'} is not a directory`, { file: dirArg ?? '.' });
  const systems = which === 'auto' ? await detectSystems(root) : [which];
  const reports: SystemReport[] = [];
  for (const s of systems) reports.push(await inspect(s, root));
  const shownDir = relative(ctx.cwd, root) || '.';
  const problems = reports.flatMap((r) => r.problems);
  const nothing = reports.every((r) => r.found.length === 0);
  if (problems.length === 0 && write) for (const r of reports) for (const c of r.convert) await convert(root, c, Date.now(), r.notes);
  const refused = reports.flatMap((r) => r.convert.filter((c) => c.status === 'refused'));
  const code = problems.length > 0 || nothing ? EXIT_USAGE : refused.length > 0 ? EXIT_PROBLEMS : EXIT_OK;
  if (ctx.json) {
    ctx.emitJson(versioned('import', { ok: code === EXIT_OK, system: which, dir: shownDir, write, systems: reports, problems }));
  } else {
    if (nothing) ctx.out(which === 'auto' ? `no layout of ${SYSTEMS.join(', ')} found in ${shownDir}` : `no ${which} layout found in ${shownDir}`);
    for (const r of reports) {
      ctx.out(`${r.system}: ${r.found.length} file(s) found: ${r.readInPlace.length} read in place, ${r.convert.length} to convert, ${r.ignored.length} ignored${r.problems.length === 0 ? '' : `, ${r.problems.length} problem(s)`}`);
      for (const f of r.readInPlace) ctx.out(`  read in place  ${f.path}  (${f.by}${f.checked ? '; it parses' : ''})`);
      for (const c of r.convert) ctx.out(`  ${c.status === 'planned' ? 'would convert' : c.status === 'written' ? 'converted' : 'refused'}  ${c.from} -> ${c.to}  (${c.reason ?? c.how})`);
      for (const line of ignoredLines(r.ignored)) ctx.out(`  ignored        ${line}`);
      for (const n of r.notes) ctx.out(`  note: ${n}`);
    }
    if (!write && problems.length === 0 && reports.some((r) => r.convert.length > 0)) ctx.out('nothing written: pass --write to convert');
  }
  for (const p of problems) ctx.io.stderr(`${join(shownDir, p.file)}${p.line === undefined ? '' : `:${p.line}${p.column === undefined ? '' : `:${p.column}`}`}: error: ${p.message}\n`);
  if (problems.length > 0 && write) ctx.io.stderr('nothing written: fix the files above first\n');
  return code;
}
export default withInput(importInput, importCommand);
