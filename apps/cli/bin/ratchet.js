#!/usr/bin/env node
// Thin entry: everything lives in dist/. Keep this file tiny: it runs on every agent call.
//
// CommonJS (bin/package.json), although the package is ES modules: an ES module entry makes Node
// start its ES module loader, which loads fs/promises, the readline interface and a dozen loader
// modules before the first line runs, about 4% of every call here (BENCHMARKS.md, "Hook start-up").
// The program and the per-call hooks are CommonJS scripts run with a code cache (compile-cache.js),
// so nothing on those paths needs that loader; import() still loads the few ES modules left (the
// once-per-session hooks and the hooks' lazy modules).
'use strict';
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
  const { readFileSync } = require('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(require('node:path').join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
} else {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      // As an unhandled rejection would end it (exit 1, the stack on stderr).
      process.exitCode = 1;
      console.error(err);
    },
  );
}

async function main() {
  // Hooks run on every tool call: `ratchet hook <event> [--harness <name>]` runs the event's own
  // start-up file (dist/hooks/<event>.cjs or .js, see src/hook-main.ts), which checks the harness name. The
  // event is folded as parseHookEvent folds it (pre-tool-use, PreToolUse, pre_tool_use); any other
  // form takes the full program. A folded name has no `-`, so it never reaches the `lazy-*` modules
  // that share the directory.
  const path = require('node:path');
  const dist = path.join(__dirname, '..', 'dist');
  const harness = args.length === 4 && args[2] === '--harness' ? args[3] : args.length === 3 && args[2].startsWith('--harness=') ? args[2].slice(10) : undefined;
  if (args[0] === 'hook' && (args.length === 2 || harness !== undefined)) {
    const key = args[1].toLowerCase().replace(/[-_]/g, '');
    if (/^[a-z]{1,32}$/.test(key)) {
      const { existsSync } = require('node:fs');
      // Per-call events are CommonJS files run with a code cache; the once-per-session ones are ES modules.
      const perCall = path.join(dist, 'hooks', `${key}.cjs`);
      const file = path.join(dist, 'hooks', `${key}.js`);
      let code;
      if (existsSync(perCall)) code = await require('./compile-cache.js').runHook(perCall, key, harness);
      else if (existsSync(file)) code = await (await import(require('node:url').pathToFileURL(file).href)).main(harness);
      if (code !== undefined) return code;
    }
  }
  quietOnEpipe();
  // The program is CommonJS files, one per command area, compiled with a V8 code cache (compile-cache.js).
  const { bundleFor, runBundle } = require('./compile-cache.js');
  return runBundle(bundleFor(dist, args), args);
}
