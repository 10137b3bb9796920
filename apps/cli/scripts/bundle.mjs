// Bundle the CLI for start-up speed: agents call `ratchet` many times per turn, and on our 2-core
// machines every extra module costs milliseconds (loading the workspace packages and commander as
// separate modules put `ratchet fsm accept` at ~1.7x `node -e 0`, over its 1.6x budget). esbuild
// bundles from the packages' TypeScript sources (the @ratchet/source condition) with code
// splitting, so each lazily imported command stays its own chunk and tree-shaking drops what a
// command does not use. Types come from `tsc --emitDeclarationOnly`.
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cliRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

// Start clean: chunk names carry content hashes, so stale chunks would pile up in dist/.
await rm(join(cliRoot, 'dist'), { recursive: true, force: true });

// commander requires node:child_process at load time, only to spawn executable subcommands, which
// Ratchet never defines (a test checks). Loading child_process costs ~5 ms of every call's start-up
// here, so the bundled copy requires it on first use instead.
const CHILD_PROCESS = "const childProcess = require('node:child_process');";
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(CHILD_PROCESS)) throw new Error(`${args.path}: expected "${CHILD_PROCESS}" (did commander change?)`);
      const lazy = "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
      return { contents: source.replace(CHILD_PROCESS, lazy), loader: 'js' };
    });
  },
};

// `ratchet hook <event>`: the bin imports dist/hooks/<event>.js (src/hook/fast/<event>.ts). Events
// that run on every tool call or turn get one self-contained file each (built below); the rest
// join the main graph.
const hookDir = join(cliRoot, 'src', 'hook', 'fast');
// Which events are per-call is the hook event table's `perCall` (src/hook/events.ts, plain data):
// compiled here on the fly, so the table is the only list.
const eventsModule = await build({ absWorkingDir: cliRoot, entryPoints: ['src/hook/events.ts'], bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'warning' });
const { HOOK_EVENT_TABLE, fastKey } = await import(`data:text/javascript;base64,${Buffer.from(eventsModule.outputFiles[0].text).toString('base64')}`);
const PER_CALL_HOOKS = HOOK_EVENT_TABLE.filter((e) => e.perCall).map((e) => fastKey(e.event));
const MAIN_GRAPH_HOOKS = (await readdir(hookDir)).map((f) => f.replace(/\.ts$/, '')).filter((key) => !PER_CALL_HOOKS.includes(key));
const LAZY_HOOK_MODULES = ['flow-obligations', 'claim-obligations', 'activity-shared', 'refusal-shared'];

// jsonc-parser's `main` is a UMD wrapper whose require() calls esbuild cannot follow (the bundle
// then fails at run time with "Cannot find module './impl/format'"); its `module` entry is plain ESM.
// Resolved from the importing package (pnpm gives the CLI no copy of its own).
const jsoncEsm = {
  name: 'jsonc-parser-esm',
  setup(b) {
    b.onResolve({ filter: /^jsonc-parser$/ }, (args) => b.resolve('jsonc-parser/lib/esm/main.js', { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer }));
  },
};

await build({
  absWorkingDir: cliRoot,
  entryPoints: {
    main: 'src/main.ts',
    index: 'src/index.ts',
    // Hook events that run once per session or prompt, and the modules the per-call hook bundles
    // below load only when there is a flow or a campaign to read: these share the main graph.
    ...Object.fromEntries(MAIN_GRAPH_HOOKS.map((key) => [`hooks/${key}`, `src/hook/fast/${key}.ts`])),
    ...Object.fromEntries(LAZY_HOOK_MODULES.map((name) => [`hooks/lazy-${name}`, `src/hook/${name}.ts`])),
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  conditions: ['@ratchet/source'],
  chunkNames: '[name]-[hash]',
  // Maps are for this repository (the tests read them; `node --enable-source-maps` gives readable
  // stack traces): package.json keeps them out of the published tarball, where they were 5 MB of
  // its 8 MB and users never see a stack trace but for an internal error.
  sourcemap: true,
  // Less text for V8 to scan at every start.
  minify: true,
  // commander is CommonJS: its bundled require() of node builtins needs a real `require`.
  banner: { js: "import { createRequire as __ratchetCreateRequire } from 'node:module';\nconst require = __ratchetCreateRequire(import.meta.url);" },
  plugins: [lazyChildProcess, jsoncEsm],
  logLevel: 'warning',
});


// The per-call hooks: one file each, not an entry plus shared chunks (every extra file costs each
// tool call a read and a compile), and CommonJS, so that the bin compiles them with a V8 code cache
// as it does the program (bin/compile-cache.js `runHook`; Node 20 has no code cache for ES modules).
// Parsing and compiling a ~100 KB bundle from scratch was about 8% of every hook call's time
// (BENCHMARKS.md, "Hook start-up").
//
// Their rare dynamic imports (flows, campaigns, a shared database's logs: the LAZY_HOOK_MODULES) are
// not inlined but load the main graph's ES module copy. A script compiled by vm.Script cannot run
// import() on Node 20 without --experimental-vm-modules, so each such import becomes a small module
// whose exports (every export of a lazy module is an async function; checked here) call the
// importer the bin passes to the bundle's wrapper, `__ratchetImportLazy(name)`. Those modules return
// plain obligations and catch their own errors, since that copy's classes (StoreError) are not these
// bundles'. No `require` banner: nothing on these paths is CommonJS (commander, the one CJS
// dependency, is not reachable).
const lazyHookModules = {
  name: 'lazy-hook-modules',
  setup(b) {
    const names = LAZY_HOOK_MODULES.join('|');
    b.onResolve({ filter: new RegExp(`^\\./(${names})\\.js$`) }, (args) => {
      if (args.kind !== 'dynamic-import') throw new Error(`${args.importer}: import ${args.path} only dynamically (it loads from the main bundle)`);
      return { path: args.path.slice(2, -3), namespace: 'lazy-hook' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-hook' }, async (args) => {
      const file = join(cliRoot, 'src', 'hook', `${args.path}.ts`);
      const source = await readFile(file, 'utf8');
      const exported = [...source.matchAll(/^export\s+(async\s+function\s+(\w+)|.*)/gm)];
      const other = exported.filter((m) => m[2] === undefined);
      if (other.length > 0) throw new Error(`${file}: every export of a lazy hook module must be an async function (found "${other[0][0]}")`);
      const lines = [`const load = () => __ratchetImportLazy(${JSON.stringify(args.path)});`];
      for (const m of exported) lines.push(`export const ${m[2]} = async (...args) => (await load()).${m[2]}(...args);`);
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};
// A hook must not pay for builtins it does not use on its path. In CommonJS every builtin an included
// module imports is required when the bundle starts (and in an ES module, `import { readSync } from
// 'node:fs'` builds a facade of node:fs whose ReadStream getter loads the stream modules, ~4 ms
// here). So builtins come through process.getBuiltinModule: one constant per export, dropped by
// tree-shaking when unused. A builtin that a bare `node` has not loaded yet (fs/promises pulls in
// the readline interface and the watchers, ~1.5 ms; os) is loaded on first call instead: its
// plain functions (lower-case names; classes and values stay constants) become wrappers, since a
// constant would load it as soon as any included module names one of them. Build-time Node lists
// the exports.
const PRELOADED_BUILTINS = new Set(['node:fs', 'node:path', 'node:buffer', 'node:util', 'node:url', 'node:events', 'node:module', 'node:vm']);
const builtinsOnFirstUse = {
  name: 'builtins-on-first-use',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'import-statement' ? { path: args.path, namespace: 'builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, async (args) => {
      const builtin = await import(args.path);
      const names = Object.keys(builtin).filter((name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name));
      const lines = [`let cached;`, `const m = () => (cached ??= process.getBuiltinModule(${JSON.stringify(args.path)}));`, 'export default /* @__PURE__ */ m();'];
      for (const name of names) {
        const onCall = !PRELOADED_BUILTINS.has(args.path) && typeof builtin[name] === 'function' && /^[a-z]/.test(name);
        lines.push(onCall ? `export function ${name}(...a) { return m().${name}(...a); }` : `export const ${name} = /* @__PURE__ */ (() => m().${name})();`);
      }
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};
const perCallHooks = await build({
  absWorkingDir: cliRoot,
  entryPoints: PER_CALL_HOOKS.map((key) => `src/hook/fast/${key}.ts`),
  outdir: 'dist/hooks',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  splitting: false,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // vm.Script has no import(): what is left (a bundled module's lazy import) becomes a call in the file.
  supported: { 'dynamic-import': false },
  conditions: ['@ratchet/source'],
  sourcemap: 'external',
  minify: true,
  define: { 'import.meta.url': '__ratchetModuleUrl' },
  plugins: [lazyHookModules, builtinsOnFirstUse],
  // What each per-call file carries, by source module: `node scripts/hook-bundle-report.mjs` reads it
  // (every KB here is parsed at each tool call's start).
  metafile: true,
  write: false,
  logLevel: 'warning',
});
for (const out of perCallHooks.outputFiles) {
  // An import() esbuild could not follow (a variable specifier) would become require(variable),
  // which cannot load an ES module: the hooks must not reach one.
  if (!out.path.endsWith('.map') && /require\((?!"node:)/.test(out.text)) throw new Error(`${out.path}: a require() of something other than a node: builtin (an import() the bundle could not follow?)`);
}
await writeDigested(perCallHooks.outputFiles);
await writeFile(join(cliRoot, 'dist', 'hooks', 'meta.json'), JSON.stringify(perCallHooks.metafile));

/**
 * Write esbuild's output files, each script with a first line naming its build by a digest of its
 * code (bin/compile-cache.js names the cache file by it: a rebuilt bundle can never be run with the
 * bytecode of an earlier one; V8 itself only checks the source's length), and its map shifted by
 * that one line.
 */
async function writeDigested(outputFiles) {
  for (const out of outputFiles) {
    if (out.path.endsWith('.map')) {
      const map = JSON.parse(out.text);
      map.mappings = `;${map.mappings}`;
      await writeFile(out.path, JSON.stringify(map));
    } else {
      const id = createHash('sha256').update(out.contents).digest('hex').slice(0, 16);
      await writeFile(out.path, `// ratchet-build ${id}\n${out.text}\n//# sourceMappingURL=${basename(out.path)}.map\n`);
    }
  }
}

// The program as the bin runs it: CommonJS files that bin/ratchet.js compiles with a V8 code cache
// (bin/compile-cache.js). Node 20 has no code cache for ES modules (module.enableCompileCache()
// arrived in 22), and without one every call spent most of its own time resolving, reading and
// compiling the ~20 ESM chunks above: `plan lint` measured 1.72x `node -e 0` that way and 1.40x from
// one CommonJS file with its cache (BENCHMARKS.md). One file for the whole program is 1.5 MB that
// every call reads and whose cache it deserialises, so each command area gets its own file, built
// with RATCHET_BUNDLE_AREA set (src/areas.ts): the other areas' imports fold away. `cli-core.cjs`
// has the core commands (fsm, plan, init); `cli.cjs` has everything, for --help, unknown commands
// and the quickstart (whose tour runs every area in process). dist/cli-routes.json maps each command
// word to its file; a test holds it to AREAS.
//
// The ESM build above stays: it is the library entry (dist/index.js, which the MCP server imports),
// the once-per-session hooks, the per-call hooks' lazy modules and the module graph the start-up tests inspect; its lazy import boundaries are
// the same here, where esbuild keeps each dynamically imported module's initialisation lazy.
const areasSource = await readFile(join(cliRoot, 'src', 'areas.ts'), 'utf8');
const AREA_ROUTES = [...areasSource.matchAll(/\{ name: '([a-z-]+)', commands: \[([^\]]*)\]/g)].map((m) => ({ name: m[1], commands: [...m[2].matchAll(/'([a-z-]+)'/g)].map((c) => c[1]) }));
if (AREA_ROUTES.length < 10) throw new Error(`src/areas.ts: expected the AREAS entries as "{ name: '...', commands: [...] ...", found ${AREA_ROUTES.length}`);
const CORE_COMMANDS = ['fsm', 'plan', 'init'];
// Areas whose commands run other areas' commands in process (the hook area's session-start and
// prompt handlers call `turn assess` and `flow start`): they run from the full program. Their hot
// paths do not come here anyway: the bin answers `ratchet hook <event>` from dist/hooks/.
const FULL_PROGRAM_AREAS = ['hook'];

async function buildProgramBundle(file, area) {
  const result = await build({
    absWorkingDir: cliRoot,
    entryPoints: { [file]: 'src/bundle-entry.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    bundle: true,
    splitting: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // A script compiled by vm.Script has no module loader for import(): the few left (node:net and
    // node:dns/promises, loaded lazily by the network probe) become require() calls.
    supported: { 'dynamic-import': false },
    conditions: ['@ratchet/source'],
    sourcemap: 'external',
    minify: true,
    define: { 'import.meta.url': '__ratchetModuleUrl', ...(area === undefined ? {} : { 'process.env.RATCHET_BUNDLE_AREA': JSON.stringify(area) }) },
    banner: { js: "'use strict';const __ratchetModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [lazyChildProcess, jsoncEsm],
    write: false,
    logLevel: 'warning',
  });
  await writeDigested(result.outputFiles);
}

const ownBundles = AREA_ROUTES.filter((a) => !FULL_PROGRAM_AREAS.includes(a.name));
await Promise.all([buildProgramBundle('cli', undefined), buildProgramBundle('cli-core', 'core'), ...ownBundles.map((a) => buildProgramBundle(`cli-${a.name}`, a.name))]);
const routes = Object.fromEntries([
  ...CORE_COMMANDS.map((c) => [c, 'cli-core.cjs']),
  ...AREA_ROUTES.flatMap((a) => a.commands.map((c) => [c, FULL_PROGRAM_AREAS.includes(a.name) ? 'cli.cjs' : `cli-${a.name}.cjs`])),
]);
await writeFile(join(cliRoot, 'dist', 'cli-routes.json'), `${JSON.stringify(routes, null, 2)}\n`);
