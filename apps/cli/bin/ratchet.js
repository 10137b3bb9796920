#!/usr/bin/env node
// Thin entry: everything lives in dist/. Keep this file tiny: it runs on every agent call.
const args = process.argv.slice(2);

// `ratchet ... | head`: the reader went away. Stop quietly, as other Unix tools do, instead of
// dying with an EPIPE stack trace; anything else on stdout is a real error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Harnesses probe `ratchet --version` before every session: answer it without building the
  // command tree (the same package.json the program's own --version reads; about 10% of start-up).
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  // Hooks run on every tool call: `ratchet hook <event>` skips the command tree (see src/hook-main.ts).
  const code = args[0] === 'hook' ? await (await import('../dist/hook-main.js')).runHookFast(args) : undefined;
  if (code !== undefined) process.exitCode = code;
  else {
    const { run } = await import('../dist/main.js');
    process.exitCode = await run(args);
  }
}
