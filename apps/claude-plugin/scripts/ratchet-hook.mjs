#!/usr/bin/env node
// The plugin's only code: find @ratchet/cli and run `ratchet hook <event>` in this same process
// (one node start-up per hook: hooks run on every tool call), as its bin would. All decisions live in `ratchet hook`.
//
// Where ratchet is looked for, first match wins:
//   1. RATCHET_CLI: the path of its bin (bin/ratchet.js) or of its package directory;
//   2. the project's own install: $CLAUDE_PROJECT_DIR (else the working directory)/node_modules/@ratchet/cli;
//   3. `ratchet` on PATH, followed through symlinks (npm -g) or a shim script (pnpm -g) to its package.
// Not found, or broken: one note on stderr and exit 0, so a missing install never blocks the user.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const PACKAGE = '@ratchet/cli';
const note = (message) => process.stderr.write(`ratchet plugin: ${message}\n`);

/** The @ratchet/cli package directory at or above `start`, or undefined. */
function packageAbove(start) {
  let dir = start;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if (JSON.parse(readFileSync(manifest, 'utf8')).name === PACKAGE) return dir;
      } catch {
        // Not JSON: keep climbing.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function fromPath(path) {
  if (!path || !existsSync(path)) return undefined;
  const real = realpathSync(path);
  return packageAbove(statSync(real).isDirectory() ? real : dirname(real));
}

function fromShim(file) {
  // pnpm and npm on Windows install a small script that names the real bin instead of a symlink.
  try {
    const text = readFileSync(file, 'utf8').slice(0, 4096);
    const m = /[^\s"'$]*@ratchet[\\/]cli[\\/]bin[\\/]ratchet\.js/.exec(text);
    if (m) return fromPath(isAbsolute(m[0]) ? m[0] : resolve(dirname(file), m[0]));
  } catch {
    // Unreadable: not ours.
  }
  return undefined;
}

function onPath() {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, 'ratchet');
    if (!existsSync(file)) continue;
    const found = fromPath(file) ?? fromShim(file);
    if (found) return found;
  }
  return undefined;
}

function locate() {
  if (process.env.RATCHET_CLI) {
    const found = fromPath(resolve(process.env.RATCHET_CLI));
    if (found) return found;
    note(`RATCHET_CLI=${process.env.RATCHET_CLI} is not ${PACKAGE} (or its bin); looking elsewhere`);
  }
  const project = process.env.CLAUDE_PROJECT_DIR || process.cwd();
  return fromPath(join(project, 'node_modules', PACKAGE)) ?? onPath();
}

const event = process.argv[2];
const cli = event ? locate() : undefined;
if (!event) {
  note('usage: ratchet-hook.mjs <event>; nothing checked');
} else if (!cli) {
  note(`${PACKAGE} not found (set RATCHET_CLI, install it in the project, or put ratchet on PATH); ${event} not checked`);
} else {
  try {
    const args = ['hook', event];
    // The bin's fast path, as bin/ratchet.js takes it: the event's own start-up file
    // (dist/hooks/<event>.js, no command tree), else the full program.
    const key = event.toLowerCase().replace(/[-_]/g, '');
    const fast = join(cli, 'dist', 'hooks', `${key}.js`);
    let code = /^[a-z]{1,32}$/.test(key) && existsSync(fast) ? await (await import(pathToFileURL(fast).href)).main() : undefined;
    if (code === undefined) code = await (await import(pathToFileURL(join(cli, 'dist', 'main.js')).href)).run(args);
    // Exit 2 would make Claude Code treat stderr as a refusal: `ratchet hook` never returns it, and a
    // version without `hook` (a usage error) must not block every tool call.
    process.exitCode = code === 2 ? 1 : code;
  } catch (err) {
    note(`${cli} failed (${err instanceof Error ? err.message : String(err)}); ${event} not checked`);
    process.exitCode = 0;
  }
}
