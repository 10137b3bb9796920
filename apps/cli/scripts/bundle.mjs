// Bundle the CLI for start-up speed: agents call `ratchet` many times per turn, and on our 2-core
// machines every extra module costs milliseconds (loading the workspace packages and commander as
// separate modules put `ratchet fsm accept` at ~1.7x `node -e 0`, over its 1.6x budget). esbuild
// bundles from the packages' TypeScript sources (the @ratchet/source condition) with code
// splitting, so each lazily imported command stays its own chunk and tree-shaking drops what a
// command does not use. Types come from `tsc --emitDeclarationOnly`.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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

await build({
  absWorkingDir: cliRoot,
  entryPoints: ['src/main.ts', 'src/index.ts', 'src/hook-main.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  conditions: ['@ratchet/source'],
  chunkNames: '[name]-[hash]',
  sourcemap: true,
  // Less text for V8 to scan at every start (source maps keep stack traces readable).
  minify: true,
  // commander is CommonJS: its bundled require() of node builtins needs a real `require`.
  banner: { js: "import { createRequire as __ratchetCreateRequire } from 'node:module';\nconst require = __ratchetCreateRequire(import.meta.url);" },
  plugins: [lazyChildProcess],
  logLevel: 'warning',
});
