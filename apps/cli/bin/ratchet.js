#!/usr/bin/env node
// Thin entry: everything lives in dist/. Keep this file tiny: it runs on every agent call.
const args = process.argv.slice(2);

// `ratchet ... | head`: the reader went away. Stop quietly, as other Unix tools do, instead of
// dying with an EPIPE stack trace; anything else on stdout is a real error. Hooks skip this: they
// write with writeSync and never build these streams (a few ms of every tool call).
const quietOnEpipe = () => {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw err;
    });
  }
};

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  quietOnEpipe();
  // Harnesses probe `ratchet --version` before every session: answer it without building the
  // command tree (the same package.json the program's own --version reads; about 10% of start-up).
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  // Hooks run on every tool call: `ratchet hook <event> [--harness <name>]` imports the event's own
  // start-up file (dist/hooks/<event>.js, see src/hook-main.ts), which checks the harness name. The
  // event is folded as parseHookEvent folds it (pre-tool-use, PreToolUse, pre_tool_use); any other
  // form takes the full program. A folded name has no `-`, so it never reaches the `lazy-*` modules
  // that share the directory.
  let code;
  const harness = args.length === 4 && args[2] === '--harness' ? args[3] : args.length === 3 && args[2].startsWith('--harness=') ? args[2].slice(10) : undefined;
  if (args[0] === 'hook' && (args.length === 2 || harness !== undefined)) {
    const key = args[1].toLowerCase().replace(/[-_]/g, '');
    const { existsSync } = process.getBuiltinModule('node:fs');
    const file = new URL(`../dist/hooks/${key}.js`, import.meta.url);
    if (/^[a-z]{1,32}$/.test(key) && existsSync(file)) code = await (await import(file.href)).main(harness);
  }
  if (code !== undefined) process.exitCode = code;
  else {
    quietOnEpipe();
    // The program is CommonJS files, one per command area, compiled with a V8 code cache (compile-cache.js).
    const { bundleFor, runBundle } = await import('./compile-cache.js');
    const dist = process.getBuiltinModule('node:url').fileURLToPath(new URL('../dist/', import.meta.url));
    process.exitCode = await runBundle(bundleFor(dist, args), args);
  }
}
