/**
 * Everything `ratchet plan ...` needs around one plan, gathered by the shell so @ratchet/plan-lint
 * stays pure: the project root, the dialect (command -> FSM symbol, as data) and its FSM, the plan
 * registry, the files that exist (seeding the simulated file system) and a host that reads plans
 * through the store's guarded reader.
 */
import { existsSync, lstatSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { lineAlphabetDialect, loadDialect, planDirectives, type Dialect, type FileView, type PlanHost, type PlanRefusal } from '@ratchet/plan-lint';
import type { Machine } from '@ratchet/fsm-core';
import { NotFoundError, OutsideRootError, isInsideRoot, readJsonFileSync, type JsonFile, readTextFileSync, resolveInsideRoot } from '@ratchet/store';
import type { Context } from './context.js';
import { CliError } from './errors.js';
import { loadFsmFile, loadFsmFileAny, requireMachine } from './fsm-file.js';
import { assetPath, displayPath } from './paths.js';
import { ruleFile } from './rule-pins.js';

/** Plans larger than this are refused before reading (the seed's plans are a few dozen lines). */
export const PLAN_MAX_BYTES = 50 * 1024 * 1024;
import { DEFAULT_DIALECT, DEFAULT_REGISTRY, RESEARCH_DIALECT } from './project-files.js';

export { DEFAULT_DIALECT, DEFAULT_REGISTRY, RESEARCH_DIALECT };
/** Directories never seeded into the simulated file system: tooling, not project content. */
const SKIP_DIRS = new Set(['.git', 'node_modules', '.turbo']);

export interface PlanProject {
  root: string;
  entry: string;
  machine: Machine;
  dialect: Dialect;
  registry: Record<string, string>;
  files: FileView;
  host: PlanHost;
}

export interface PlanProjectOptions {
  root?: string | undefined;
  dialect?: string | undefined;
  fsm?: string | undefined;
  registry?: string | undefined;
}

export async function loadPlanProject(ctx: Context, planPath: string, options: PlanProjectOptions): Promise<PlanProject> {
  const root = resolve(ctx.cwd, options.root ?? '.');
  const planAbs = resolve(ctx.cwd, planPath);
  try {
    // Symbolic links followed: lint must judge the plan the agent would actually run.
    resolveInsideRoot(root, planAbs, { allowAbsolute: true });
  } catch (err) {
    if (err instanceof OutsideRootError) throw new CliError(`${planPath} ${err.reason} (set --root)`, { file: planAbs, code: 'outside-root' });
    throw err;
  }
  const entry = relative(root, planAbs);
  // Read the entry now so an unreadable plan is an input error (exit 2), not a finding.
  const { text } = readTextFileSync(planAbs, { maxBytes: PLAN_MAX_BYTES });

  // --fsm wins; else the FSM the plan names at its top; else the dialect's.
  const named = options.fsm === undefined ? directiveFsm(root, planAbs, text) : undefined;
  const source = dialectSource(ctx, root, named === undefined ? options : { ...options, fsm: named });
  const machine = requireMachine(await loadFsmFileAny(ctx, source.fsmPath), displayPath(ctx, source.fsmPath));
  // The dialect's own FSM must speak every symbol of it; an FSM given for this plan (--fsm, `# FSM:`)
  // may speak a subset (a command outside it is refused where a plan uses it), or be one whose
  // alphabet is the plan lines themselves (the original's first validator).
  const dialect = options.fsm === undefined && named === undefined ? checkedDialect(source, machine, true) : dialectForGivenFsm(ctx, source, machine);
  return {
    root,
    entry: entry.split(sep).join('/'),
    machine,
    dialect,
    registry: await loadRegistry(root, options.registry),
    files: projectFiles(root),
    host: { readPlan: planReader(root) },
  };
}

/**
 * Reads project-relative plans for lint and for the plan stack: through the store's guarded reader
 * (size limit, binary and encoding checks), and only when the file's real path, symbolic links
 * followed, is inside the root. A link out of the project is refused with its target named, so
 * call_plan can never pull in a plan from elsewhere on the machine.
 */
export function planReader(root: string): (relPath: string) => string | undefined | PlanRefusal {
  return (relPath) => {
    let abs: string;
    try {
      abs = resolveInsideRoot(root, relPath);
    } catch (err) {
      if (err instanceof OutsideRootError) return err.kind === 'broken-symlink' ? undefined : { refused: `${relPath} ${err.reason}` };
      throw err;
    }
    try {
      return readTextFileSync(abs, { maxBytes: PLAN_MAX_BYTES }).text;
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  };
}

/** The dialect plans are checked against unless told otherwise: the project's, else the bundled one. */
export function defaultDialectPath(root: string): string {
  return projectOrBundled(root, DEFAULT_DIALECT);
}

/** The dialect research plans are written in and checked against: the project's, else the bundled one. */
export function researchDialectPath(root: string): string {
  return projectOrBundled(root, RESEARCH_DIALECT);
}

function projectOrBundled(root: string, relPath: string): string {
  // While a task runs, its pinned copy (rule-pins.ts): an edit of a dialect applies to the next task.
  const own = ruleFile(root, join(root, relPath));
  return own.exists ? own.path : assetPath('protocols', relPath.slice(relPath.lastIndexOf('/') + 1));
}

/**
 * The FSM a dialect names, relative to the dialect. The bundled dialect stands in for a project that
 * has none, file by file: a project that brings its own FSM of that name (protocols/research.fsm.json,
 * the original's research machine, say) is checked against it, not against Ratchet's copy.
 */
function fsmOfDialect(root: string, dialectPath: string, declared: string): string {
  if (dirname(dialectPath) === assetPath('protocols') && !declared.includes('/')) {
    const own = join(root, 'protocols', declared);
    if (existsSync(own)) return own;
  }
  return resolve(dirname(dialectPath), declared);
}

/** What a dialect file means: its JSON and that of the FSM it names (formatting aside). */
export function dialectMeaning(path: string, root?: string): string {
  const value = readJsonFileSync(path).value as { fsm?: unknown } | null;
  const fsm = typeof value?.fsm === 'string' ? (root === undefined ? resolve(dirname(path), value.fsm) : fsmOfDialect(root, path, value.fsm)) : undefined;
  return JSON.stringify([value, fsm !== undefined && existsSync(fsm) ? readJsonFileSync(fsm).value : null]);
}

/** The project's dialect (else the bundled one), loaded and checked against its FSM. */
export function loadProjectDialect(ctx: Context): Dialect {
  return loadDialectAndFsm(ctx, ctx.cwd, {}).dialect;
}

/** The dialect file at `path`, loaded and checked against the FSM it names (CliError when it is invalid). */
export function loadDialectFile(ctx: Context, path: string): Dialect {
  return loadDialectAndFsm(ctx, ctx.cwd, { dialect: path }).dialect;
}

interface DialectSource {
  dialectPath: string;
  doc: JsonFile;
  fsmPath: string;
}

/** The dialect file and the FSM it is checked against: --fsm, else the one the dialect names. */
function dialectSource(ctx: Context, root: string, options: PlanProjectOptions): DialectSource {
  const dialectPath = options.dialect !== undefined ? resolve(ctx.cwd, options.dialect) : defaultDialectPath(root);
  const doc = readJsonFileSync(dialectPath);
  const declaredFsm = (doc.value as { fsm?: unknown } | null)?.fsm;
  const fsmPath =
    options.fsm !== undefined
      ? resolve(ctx.cwd, options.fsm)
      : typeof declaredFsm === 'string'
        ? fsmOfDialect(root, dialectPath, declaredFsm)
        : undefined;
  if (fsmPath === undefined) throw new CliError('the dialect names no "fsm" file; pass --fsm', { file: dialectPath, code: 'no-fsm' });
  return { dialectPath, doc, fsmPath };
}

function loadDialectAndFsm(ctx: Context, root: string, options: PlanProjectOptions): { dialect: Dialect; machine: Machine } {
  const source = dialectSource(ctx, root, options);
  const machine = requireMachine(loadFsmFile(ctx, source.fsmPath), displayPath(ctx, source.fsmPath));
  return { dialect: checkedDialect(source, machine, true), machine };
}

/**
 * The dialect compiled, with every problem placed in its file. `inAlphabet`: every symbol must be in
 * the machine's alphabet; off for an FSM a plan names itself (`# FSM:`), which may speak a subset
 * (the original's research FSM has no delete_op): a command outside it is refused by lint where used.
 */
function checkedDialect({ dialectPath, doc }: DialectSource, machine: Machine, inAlphabet: boolean): Dialect {
  const result = loadDialect(doc.value, inAlphabet ? machine : undefined);
  if (!result.dialect || result.problems.length > 0) {
    const problems = result.problems.map((p) => {
      const place = doc.locate(p.pointer);
      return { message: `invalid dialect: ${p.message}`, file: dialectPath, ...(place ? { line: place.line, column: place.column } : {}) };
    });
    // In file order, as a reader meets them (the dialect checker reports by kind).
    problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    const first = problems[0];
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    throw new CliError(`${first?.message ?? 'invalid dialect: unknown problem'}${more}`, {
      file: dialectPath,
      code: 'invalid-dialect',
      problems,
      ...(first?.line !== undefined ? { line: first.line, column: first.column ?? 1 } : {}),
    });
  }
  return result.dialect;
}

/**
 * The dialect for an FSM given with the plan: read as plan lines when its alphabet is made of them
 * (said on stderr, since every symbol then is a whole line), else the dialect as it is.
 */
function dialectForGivenFsm(ctx: Context, source: DialectSource, machine: Machine): Dialect {
  const dialect = checkedDialect(source, machine, false);
  const lines = lineAlphabetDialect(machine, dialect);
  if (lines.dialect === undefined) return dialect;
  ctx.note(`${displayPath(ctx, source.fsmPath)}: its alphabet is plan lines (${machine.alphabet.join(', ')}): each line of the plan is read as its own symbol`);
  return lines.dialect;
}

/**
 * The plan's FSM when it names one at its top (`# FSM: tooling/fdc_fsm.json`, the original Jules
 * form), resolved against the project root; a named file that is missing is an input error at the
 * directive's line.
 */
function directiveFsm(root: string, planAbs: string, text: string): string | undefined {
  const directive = planDirectives(text).fsm;
  if (directive === undefined) return undefined;
  const abs = resolve(root, directive.value);
  if (!existsSync(abs)) {
    throw new CliError(`# FSM: names ${directive.value}, which does not exist (relative to the project root ${root})`, {
      file: planAbs,
      line: directive.line,
      column: directive.column,
      code: 'fsm-not-found',
    });
  }
  return abs;
}

async function loadRegistry(root: string, registry: string | undefined): Promise<Record<string, string>> {
  const path = registry ?? DEFAULT_REGISTRY;
  // Only load the registry module (the store's document machinery) when there is a registry to read.
  if (!existsSync(resolve(root, path))) return {};
  const { readRegistry } = await import('@ratchet/plan-lint/registry');
  return readRegistry(path, root);
}

/**
 * The project's files as lint sees them, without walking the tree: a path exists when it is a file
 * (symbolic links followed, but none leading out of the project); the walk (listFiles) happens only
 * when a `for_each_file` glob needs every file. Tooling directories (.git, node_modules) are left
 * out of globs but a plan may still read a file in them by name.
 */
export function projectFiles(root: string): FileView {
  // Per path: a plan names the same files many times (and for_each_file many under one directory).
  // Per directory: whether it leads out of the project is the same for every file in it, so only a
  // file that is itself a link is resolved on its own (a 1 MB plan names ~10,000 new files: one
  // realpath walk each was most of its lint).
  type Checked = { abs: string; absent?: true } | { refused: string };
  const checked = new Map<string, Checked>();
  const dirs = new Map<string, Checked>();
  const resolved = (path: string): Checked => {
    try {
      return { abs: resolveInsideRoot(root, path) };
    } catch (err) {
      if (!(err instanceof OutsideRootError)) throw err;
      // A broken link is no file (file-not-found when read); one whose path leads out is a finding.
      return err.kind === 'broken-symlink' ? { abs: '' } : { refused: err.reason };
    }
  };
  const check = (path: string): Checked => {
    let result = checked.get(path);
    if (result === undefined) {
      const slash = path.lastIndexOf('/');
      const dirPath = slash < 0 ? '.' : path.slice(0, slash);
      let dir = dirs.get(dirPath);
      if (dir === undefined) dirs.set(dirPath, (dir = resolved(dirPath)));
      if ('refused' in dir || dir.abs === '') result = dir;
      else {
        const abs = join(dir.abs, path.slice(slash + 1));
        const link = lstatQuietly(abs);
        // A link is judged by where it leads; anything else is where its directory is.
        result = link === undefined ? { abs, absent: true } : link.isSymbolicLink() ? resolved(path) : { abs };
      }
      checked.set(path, result);
    }
    return result;
  };
  return {
    exists(path) {
      const r = check(path);
      return 'abs' in r && r.abs !== '' && r.absent !== true && statQuietly(r.abs)?.isFile() === true;
    },
    outside(path) {
      const r = check(path);
      return 'refused' in r ? r.refused : undefined;
    },
    list: () => listFiles(root),
  };
}

/** Project-relative paths (forward slashes) of every file under root, sorted, skipping tooling dirs. */
export function listFiles(root: string): string[] {
  const out: string[] = [];
  const realRoot = realpathSync(root);
  // `inLink`: under a linked directory, links to directories are not followed again, so no chain
  // of links (`loop -> ..`, or links to links) can make the walk loop or grow exponentially.
  const walk = (dir: string, prefix: string, inLink: boolean): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(path, `${prefix}${entry.name}/`, inLink);
      } else if (entry.isSymbolicLink()) {
        // A linked directory inside the project holds files a plan can read (`lib -> src`); one
        // that leads out is not the project's. A broken link is no file at all.
        const target = statQuietly(path);
        if (target === undefined) continue;
        if (!target.isDirectory()) out.push(`${prefix}${entry.name}`);
        else if (!inLink && !SKIP_DIRS.has(entry.name) && isInsideRoot(realRoot, realpathSync(path))) walk(path, `${prefix}${entry.name}/`, true);
      } else out.push(`${prefix}${entry.name}`);
    }
  };
  walk(root, '', false);
  return out.sort();
}

/** stat through a link; undefined for a broken one, a loop of links (ELOOP) or one we may not read. */
function lstatQuietly(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined; // ENOTDIR: a file used as a directory, so nothing there
  }
}

function statQuietly(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
