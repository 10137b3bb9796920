// Load dist/cli.cjs (the whole program, one CommonJS file; or a command area's file, or a per-call
// hook's dist/hooks/<event>.cjs) with a V8 code cache, so a call does not parse and compile the same
// code again. Node 22's module.enableCompileCache() does this for any
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
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

const BUILD_LINE = /^\/\/ ratchet-build ([0-9a-f]{16})\n/;
const AREA = /^[a-z][a-z-]{0,31}$/;
/** Cache files kept per directory: enough for every area of a few installed versions at once. */
const MAX_CACHE_FILES = 64;

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
function commandWord(args) {
  return commandWords(args)[0];
}

/**
 * The cache key of a call: its command and subcommand (`plan-lint`, `run-next`), since a cache holds
 * the functions the run that wrote it compiled.
 */
function cacheKey(args) {
  const words = commandWords(args);
  return words.length === 0 ? 'other' : words.join('-');
}

/** The cache directory to use, or undefined when caching is off or no safe place exists. */
function cacheDir(env = process.env) {
  const setting = env.RATCHET_COMPILE_CACHE;
  if (setting === 'off' || setting === '0') return undefined;
  if (setting !== undefined && setting !== '') return path.resolve(setting);
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'ratchet');
  return env.HOME ? path.join(env.HOME, '.cache', 'ratchet') : undefined;
}

/** The cache file for this build, Node and command: undefined without a build digest or directory. */
function cacheFile(source, key, dir) {
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
function bundleFor(distDir, args) {
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

/** The parameters a CommonJS bundle's code sees, as Node's own module wrapper gives them. */
const CJS_PARAMS = ['exports', 'require', 'module', '__filename', '__dirname'];

/**
 * Compile the CommonJS bundle `source` (read from `bundlePath`) as a function of `params`, with the
 * code cache named by `key`. `save()`, called after the run, writes the cache when there was none or
 * V8 refused it: after, so that it holds the functions the run compiled, not only the top level.
 */
function compileCached(bundlePath, source, key, env, params) {
  const dir = cacheDir(env);
  const file = dir !== undefined && ownDirectory(dir) ? cacheFile(source, key, dir) : undefined;
  const cachedData = file === undefined ? undefined : readCache(file);
  const script = new vm.Script(`(function (${params.join(', ')}) {${source}\n})`, { filename: bundlePath, cachedData });
  const save = () => {
    if (file !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) writeCache(file, script.createCachedData());
  };
  return { fn: script.runInThisContext(), save };
}

/**
 * Compile and run the CommonJS bundle `bundlePath`, then call its `run(args)`; returns its exit
 * code. The command and subcommand pick the cache file.
 */
async function runBundle(bundlePath, args, env = process.env) {
  const source = fs.readFileSync(bundlePath, 'utf8');
  // The bundles contain no import(): scripts/bundle.mjs turns each into require().
  const { fn, save } = compileCached(bundlePath, source, cacheKey(args), env, CJS_PARAMS);
  const module = { exports: {} };
  fn(module.exports, Module.createRequire(bundlePath), module, bundlePath, path.dirname(bundlePath));
  const code = await module.exports.run(args);
  save();
  return code;
}

/**
 * Run a per-call hook's CommonJS bundle (dist/hooks/<key>.cjs, `key` the folded event name) with
 * its own code cache (`hook-<key>`), and return its `main(harness)`: an exit code, or undefined for
 * "not mine" (an unknown harness: the full program answers). Its few lazy modules are the main ES
 * module graph's dist/hooks/lazy-<name>.js, loaded through `__ratchetImportLazy` (a vm.Script cannot
 * run import() itself on Node 20). The Claude Code plugin's shim calls this too.
 */
async function runHook(bundlePath, key, harness, env = process.env) {
  const source = fs.readFileSync(bundlePath, 'utf8');
  const { fn, save } = compileCached(bundlePath, source, `hook-${key}`, env, [...CJS_PARAMS, '__ratchetModuleUrl', '__ratchetImportLazy']);
  const dir = path.dirname(bundlePath);
  const { pathToFileURL } = require('node:url');
  const importLazy = (name) => import(pathToFileURL(path.join(dir, `lazy-${name}.js`)).href);
  const module = { exports: {} };
  fn(module.exports, Module.createRequire(bundlePath), module, bundlePath, dir, pathToFileURL(bundlePath).href, importLazy);
  const code = await module.exports.main(harness);
  save();
  return code;
}

exports.MAX_CACHE_FILES = MAX_CACHE_FILES;
exports.commandWord = commandWord;
exports.cacheKey = cacheKey;
exports.cacheDir = cacheDir;
exports.cacheFile = cacheFile;
exports.bundleFor = bundleFor;
exports.runBundle = runBundle;
exports.runHook = runHook;
