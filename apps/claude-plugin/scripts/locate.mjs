// Where the plugin finds Ratchet on this machine: the @ratchet/cli package (for the hooks) and
// @ratchet/mcp-server (for the MCP tools). The plugin ships no copy of either: it runs the one the
// project or the user installed, so the hooks and the tools always match the project's Ratchet.
//
// The CLI, first match wins:
//   1. RATCHET_CLI: the path of its bin (bin/ratchet.js), of its package directory, or of a script
//      that runs it;
//   2. the project's own install: <project>/node_modules/@ratchet/cli;
//   3. `ratchet` on PATH: a symlink (npm -g) followed to its package, or a script that runs it (a
//      pnpm or npm shim, or your own wrapper around a clone's apps/cli/bin/ratchet.js).
// The MCP server: RATCHET_MCP (same forms), the project's node_modules/@ratchet/mcp-server, the
// package beside the CLI that was found (node_modules/@ratchet/ or a clone's apps/), `ratchet-mcp`
// on PATH.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';

/** The directory at or above `start` whose package.json is named `name`, or undefined. */
function packageAbove(start, name) {
  let dir = start;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if (JSON.parse(readFileSync(manifest, 'utf8')).name === name) return dir;
      } catch {
        // Not JSON: keep climbing.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function fromPath(path, name) {
  if (!path || !existsSync(path)) return undefined;
  let real;
  try {
    real = realpathSync(path);
  } catch {
    return undefined;
  }
  return packageAbove(statSync(real).isDirectory() ? real : dirname(real), name);
}

/**
 * A script that runs the package's bin (a pnpm or npm shim, or a hand-written wrapper): every path
 * in it that ends in the bin's file name, absolute, relative to the script, or under `$basedir`
 * (shims set it to the script's directory).
 */
function fromScript(file, name, binFile) {
  let text;
  try {
    if (statSync(file).size > 64 * 1024) return undefined;
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  if (text.includes('\0')) return undefined; // a binary, not a script
  const escaped = binFile.replace(/[.]/g, '\\.');
  const pattern = new RegExp(`(?:"?\\$\\{?basedir\\}?"?/|"?\\$\\(dirname\\s+"?\\$0"?\\)"?/)?[^\\s"'\`;|&<>]*${escaped}`, 'g');
  for (const m of text.matchAll(pattern)) {
    let candidate = m[0].replace(/^"?\$\{?basedir\}?"?\//, './').replace(/^"?\$\(dirname\s+"?\$0"?\)"?\//, './').replace(/"/g, '');
    candidate = isAbsolute(candidate) ? candidate : resolve(dirname(file), candidate);
    const found = fromPath(candidate, name);
    if (found) return found;
  }
  return undefined;
}

function fromAny(path, name, binFile) {
  return fromPath(path, name) ?? (existsSync(path) && statSync(path).isFile() ? fromScript(path, name, binFile) : undefined);
}

function onPath(env, command, name, binFile) {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, command);
    if (!existsSync(file)) continue;
    const found = fromAny(file, name, binFile);
    if (found) return found;
  }
  return undefined;
}

export const CLI = { name: '@ratchet/cli', bin: 'ratchet.js', command: 'ratchet', variable: 'RATCHET_CLI' };
export const MCP = { name: '@ratchet/mcp-server', bin: 'ratchet-mcp.js', command: 'ratchet-mcp', variable: 'RATCHET_MCP' };

/** The package directory of `pkg` (CLI or MCP), or undefined; `notes` collects why a setting was passed over. */
export function locate(pkg, env, projectDir, notes = [], near = undefined) {
  const explicit = env[pkg.variable];
  if (explicit) {
    const found = fromAny(resolve(explicit), pkg.name, pkg.bin);
    if (found) return found;
    notes.push(`${pkg.variable}=${explicit} is not ${pkg.name} (or its bin, or a script that runs it); looking elsewhere`);
  }
  const local = fromPath(join(projectDir, 'node_modules', pkg.name), pkg.name);
  if (local) return local;
  if (near) {
    // Beside the CLI that was found: node_modules/@ratchet/<x>, or a clone's apps/<x>.
    for (const sibling of [join(near, '..', pkg.name.split('/')[1]), join(near, '..', 'mcp-server')]) {
      const found = fromPath(sibling, pkg.name);
      if (found) return found;
    }
  }
  return onPath(env, pkg.command, pkg.name, pkg.bin);
}

/** The Ratchet project at or above `start` (a `.ratchet/` directory or a ratchet.config.json), or undefined. */
export function ratchetProject(start) {
  let dir = resolve(start);
  for (let i = 0; i < 64; i++) {
    try {
      if (statSync(join(dir, '.ratchet')).isDirectory()) return dir;
    } catch {
      // Not here.
    }
    if (existsSync(join(dir, 'ratchet.config.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

/** `hooks.cliMissing` of the project's ratchet.config.json: "refuse" (default) or "allow". */
export function cliMissingPolicy(project) {
  try {
    const value = JSON.parse(readFileSync(join(project, 'ratchet.config.json'), 'utf8'));
    return value?.hooks?.cliMissing === 'allow' ? 'allow' : 'refuse';
  } catch {
    return 'refuse';
  }
}
