// Load dist/cli.cjs (the whole program, one CommonJS file) with a V8 code cache, so a call does not
// parse and compile the same code again. Node 22's module.enableCompileCache() does this for any
// module; Node 20, which Ratchet supports, has nothing for ES modules, so the program ships as one
// script and this file does it with vm.Script's cachedData (measured in BENCHMARKS.md).
//
// Where the cache lives: RATCHET_COMPILE_CACHE names a directory, or `off` (or 0) turns the cache
// off; by default $XDG_CACHE_HOME/ratchet, else ~/.cache/ratchet. Never the package directory:
// a global install is often read-only to the user who runs it, and a shared temp directory would let
// another user plant bytecode. A directory owned by someone else is not used.
//
// What a cache file is for: its name holds the bundle's build digest (first line of cli.cjs), the
// Node version and architecture, and the command and subcommand, since a cache holds the functions
// the run that wrote it compiled, and `plan lint` and `run next` compile different ones. V8 rejects
// a cache from another V8 or other flags (then it is rewritten); a cache of another build can never
// be picked up, since the build digest is in the name. Any failure here falls back to a plain
// compile: the cache only ever makes a call faster.
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');
const vm = process.getBuiltinModule('node:vm');
const Module = process.getBuiltinModule('node:module');

const BUILD_LINE = /^\/\/ ratchet-build ([0-9a-f]{16})\n/;
const AREA = /^[a-z][a-z-]{0,31}$/;
/** Cache files kept per directory: enough for every area of a few installed versions at once. */
export const MAX_CACHE_FILES = 64;

/**
 * The command words of a call, at most two (`plan`, `lint` in `ratchet --cwd x --json plan lint f`):
 * the arguments that are not options, skipping the value of --cwd, as src/areas.ts's commandName
 * reads argv. A word that is not command-like (a file, `..`, capitals) ends them, so no argument can
 * shape a file name.
 */
function commandWords(args) {
  const words = [];
  for (let i = 0; i < args.length && words.length < 2; i++) {
    if (args[i] === '--cwd') i++;
    else if (!args[i].startsWith('-')) {
      if (!AREA.test(args[i])) break;
      words.push(args[i]);
    }
  }
  return words;
}

/** The command word of a call, which picks its bundle; undefined without one. */
export function commandWord(args) {
  return commandWords(args)[0];
}

/**
 * The cache key of a call: its command and subcommand (`plan-lint`, `run-next`), since a cache holds
 * the functions the run that wrote it compiled.
 */
export function cacheKey(args) {
  const words = commandWords(args);
  return words.length === 0 ? 'other' : words.join('-');
}

/** The cache directory to use, or undefined when caching is off or no safe place exists. */
export function cacheDir(env = process.env) {
  const setting = env.RATCHET_COMPILE_CACHE;
  if (setting === 'off' || setting === '0') return undefined;
  if (setting !== undefined && setting !== '') return path.resolve(setting);
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'ratchet');
  return env.HOME ? path.join(env.HOME, '.cache', 'ratchet') : undefined;
}

/** The cache file for this build, Node and command: undefined without a build digest or directory. */
export function cacheFile(source, key, dir) {
  const build = BUILD_LINE.exec(source)?.[1];
  if (build === undefined || dir === undefined) return undefined;
  return path.join(dir, `cli-${build}-${process.version}-${process.arch}-${/^[a-z][a-z-]{0,64}$/.test(key ?? '') ? key : 'other'}.v8`);
}

/** A directory that is missing (we create it) or ours: never one another user could have filled. */
function ownDirectory(dir) {
  try {
    const stat = fs.statSync(dir);
    return stat.isDirectory() && (typeof process.getuid !== 'function' || stat.uid === process.getuid());
  } catch (err) {
    return err.code === 'ENOENT';
  }
}

function readCache(file) {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written beside and renamed into place, so a concurrent reader sees a whole file or none. */
function writeCache(file, data) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(temp, data, { mode: 0o600 });
    fs.renameSync(temp, file);
    prune(path.dirname(file));
  } catch {
    // A read-only home or a full disk: the next call compiles without the cache, as this one did.
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // nothing to clean
    }
  }
}

/** Each build leaves its own files: past MAX_CACHE_FILES, the least recently written go. */
function prune(dir) {
  const files = fs.readdirSync(dir).filter((name) => name.startsWith('cli-') && name.endsWith('.v8'));
  if (files.length <= MAX_CACHE_FILES) return;
  const byAge = files.map((name) => ({ name, mtime: fs.statSync(path.join(dir, name)).mtimeMs })).sort((a, b) => a.mtime - b.mtime);
  for (const { name } of byAge.slice(0, files.length - MAX_CACHE_FILES)) fs.rmSync(path.join(dir, name), { force: true });
}

/**
 * The bundle a call runs from: its command word's area bundle (dist/cli-routes.json, written by
 * scripts/bundle.mjs), else the full program (no command, `--help` alone, an unknown command, quickstart).
 */
export function bundleFor(distDir, args) {
  const word = commandWord(args);
  if (word !== undefined) {
    try {
      const routes = JSON.parse(fs.readFileSync(path.join(distDir, 'cli-routes.json'), 'utf8'));
      if (Object.hasOwn(routes, word) && /^cli(-[a-z-]+)?\.cjs$/.test(routes[word])) return path.join(distDir, routes[word]);
    } catch {
      // No routes (a partial build): the full program serves every command.
    }
  }
  return path.join(distDir, 'cli.cjs');
}

/**
 * Compile and run the CommonJS bundle `bundlePath`, then call its `run(args)`; returns its exit
 * code. The command and subcommand pick the cache file.
 */
export async function runBundle(bundlePath, args, env = process.env) {
  const source = fs.readFileSync(bundlePath, 'utf8');
  const dir = cacheDir(env);
  const file = dir !== undefined && ownDirectory(dir) ? cacheFile(source, cacheKey(args), dir) : undefined;
  const cachedData = file === undefined ? undefined : readCache(file);
  // The bundles contain no import(): scripts/bundle.mjs turns each into require().
  const script = new vm.Script(Module.wrap(source), { filename: bundlePath, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, Module.createRequire(bundlePath), module, bundlePath, path.dirname(bundlePath));
  const code = await module.exports.run(args);
  // After the run, so the cache holds the functions this command compiled, not only the top level.
  if (file !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) writeCache(file, script.createCachedData());
  return code;
}
