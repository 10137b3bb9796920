// The agent CLIs Ratchet's end-to-end tests run for real (tests/harnesses/): pinned versions,
// installed once into a cache directory outside the repository and reused from there. They are
// 100-650 MB each, so they are not devDependencies: a `pnpm install` would fetch them for every
// contributor, and a version bump of one must not touch the workspace's lockfile.
//
//   node scripts/harnesses.mjs install [name...]   install what is missing (all by default)
//   node scripts/harnesses.mjs status [--json]     what is installed where
//
// The cache is $RATCHET_HARNESS_CACHE, else $XDG_CACHE_HOME/ratchet-harnesses, else
// ~/.cache/ratchet-harnesses; each harness lives in <cache>/<name>@<version>/ with a stamp file
// written last, so an install that was interrupted is redone, never half-used. Installs run with
// --ignore-scripts: every harness was tried here without its install scripts (npm 11's default
// policy skips them anyway), so a machine with another npm gets the same tree.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The pins. `bin` is the executable inside node_modules/.bin; `extra` are more packages installed
 * into a directory of their own (OpenCode's plugin runtime, which OpenCode would otherwise npm-install
 * into every config folder at start-up, from the network).
 */
export const HARNESS_PINS = {
  codex: { package: '@openai/codex', version: '0.171.0', bin: 'codex' },
  gemini: { package: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  copilot: { package: '@github/copilot', version: '1.0.102', bin: 'copilot' },
  // opencode-ai's bin is a placeholder its postinstall replaces with the platform package's binary
  // (copied from node_modules; it downloads only when none there runs): that one script is run.
  opencode: {
    package: 'opencode-ai',
    version: '1.18.33',
    bin: 'opencode',
    postinstall: 'node_modules/opencode-ai/postinstall.mjs',
    extra: { 'opencode-plugin': { package: '@opencode-ai/plugin', version: '1.18.33' } },
  },
};

const STAMP = '.ratchet-harness.json';
/** The XDG cache directory inside each install (see npmInstall). */
export const RUNTIME_CACHE = 'xdg-cache';

export function harnessCache(env = process.env) {
  if (env.RATCHET_HARNESS_CACHE) return env.RATCHET_HARNESS_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'ratchet-harnesses');
}

/** Every directory one harness needs: its own and its extras', each `<cache>/<name>@<version>`. */
export function harnessDirs(name, env = process.env) {
  const pin = HARNESS_PINS[name];
  if (pin === undefined) throw new Error(`unknown harness "${name}" (known: ${Object.keys(HARNESS_PINS).join(', ')})`);
  const cache = harnessCache(env);
  const dirs = [{ key: name, package: pin.package, version: pin.version, dir: join(cache, `${name}@${pin.version}`) }];
  for (const [key, extra] of Object.entries(pin.extra ?? {})) dirs.push({ key, package: extra.package, version: extra.version, dir: join(cache, `${key}@${extra.version}`) });
  return dirs;
}

const installed = (dir) => existsSync(join(dir, STAMP));

/**
 * Where an installed harness is: its executable and its extras' directories; undefined when any
 * part is missing.
 */
export function locateHarness(name, env = process.env) {
  const dirs = harnessDirs(name, env);
  if (!dirs.every((d) => installed(d.dir))) return undefined;
  const [own, ...extras] = dirs;
  return {
    name,
    version: own.version,
    dir: own.dir,
    bin: join(own.dir, 'node_modules', '.bin', HARNESS_PINS[name].bin),
    xdgCache: join(own.dir, RUNTIME_CACHE),
    extras: Object.fromEntries(extras.map((d) => [d.key, d.dir])),
  };
}

function npmInstall(target, spec, pin) {
  const tmp = `${target}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(tmp, 'package.json'), `${JSON.stringify({ name: 'ratchet-harness', private: true }, null, 2)}\n`);
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--save-exact', '--loglevel=error', spec], { cwd: tmp, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`npm install ${spec} failed (exit ${r.status}):\n${r.stderr}`);
  }
  const check = (args, what) => {
    // XDG_CACHE_HOME inside the install: what a CLI unpacks on first start (Copilot CLI: 235 MB of
    // runtime) is unpacked once, here, and reused by every run that points there (RUNTIME_CACHE).
    // A throwaway HOME: nothing lands in the user's ~/.codex, ~/.gemini or ~/.cache.
    const home = join(tmp, 'check-home');
    mkdirSync(home, { recursive: true });
    const env = { ...process.env, HOME: home, XDG_CACHE_HOME: join(tmp, RUNTIME_CACHE), XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share') };
    const c = spawnSync(args[0], args.slice(1), { cwd: tmp, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    rmSync(home, { recursive: true, force: true });
    if (c.status !== 0) {
      rmSync(tmp, { recursive: true, force: true });
      throw new Error(`${spec}: ${what} failed (exit ${c.status}):\n${c.stderr}${c.stdout}`);
    }
  };
  if (pin?.postinstall !== undefined) check([process.execPath, pin.postinstall], pin.postinstall);
  // Stamped only once the executable answers: a broken install is never reused.
  if (pin?.bin !== undefined) check([join(tmp, 'node_modules', '.bin', pin.bin), '--version'], `${pin.bin} --version`);
  writeFileSync(join(tmp, STAMP), `${JSON.stringify({ spec, installedAt: new Date().toISOString() })}\n`);
  // Another process may have finished the same install meanwhile: theirs stays, ours goes.
  try {
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    if (!installed(target)) throw err;
  }
}

/** Install what is missing of `names`; returns one line per directory with what was done and how long it took. */
export function installHarnesses(names = Object.keys(HARNESS_PINS), env = process.env, log = () => {}) {
  const report = [];
  for (const name of names) {
    for (const d of harnessDirs(name, env)) {
      if (installed(d.dir)) {
        report.push({ key: d.key, dir: d.dir, action: 'cached', seconds: 0 });
        continue;
      }
      // A directory without a stamp is an interrupted install: start over.
      rmSync(d.dir, { recursive: true, force: true });
      mkdirSync(join(d.dir, '..'), { recursive: true });
      log(`installing ${d.package}@${d.version} into ${d.dir}`);
      const start = process.hrtime.bigint();
      npmInstall(d.dir, `${d.package}@${d.version}`, d.key === name ? HARNESS_PINS[name] : undefined);
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      report.push({ key: d.key, dir: d.dir, action: 'installed', seconds: Number(seconds.toFixed(1)) });
      log(`installed ${d.package}@${d.version} in ${seconds.toFixed(1)} s`);
    }
  }
  return report;
}

function main(argv) {
  const [command = 'status', ...rest] = argv;
  const json = rest.includes('--json');
  const names = rest.filter((a) => !a.startsWith('--'));
  for (const n of names) harnessDirs(n);
  if (command === 'install') {
    const start = process.hrtime.bigint();
    const report = installHarnesses(names.length > 0 ? names : undefined, process.env, (line) => console.error(`harnesses: ${line}`));
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (json) console.log(JSON.stringify({ cache: harnessCache(), seconds, report }));
    else console.error(`harnesses: ${report.filter((r) => r.action === 'installed').length} installed, ${report.filter((r) => r.action === 'cached').length} cached, in ${seconds.toFixed(1)} s (${harnessCache()})`);
    return 0;
  }
  if (command === 'status') {
    const rows = Object.keys(HARNESS_PINS).map((n) => ({ name: n, pin: `${HARNESS_PINS[n].package}@${HARNESS_PINS[n].version}`, location: locateHarness(n) ?? null }));
    if (json) console.log(JSON.stringify({ cache: harnessCache(), harnesses: rows }));
    else for (const r of rows) console.log(`${r.name.padEnd(9)} ${r.pin.padEnd(28)} ${r.location ? r.location.bin : 'not installed'}`);
    return rows.every((r) => r.location !== null) ? 0 : 1;
  }
  console.error('usage: node scripts/harnesses.mjs install [codex|gemini|copilot|opencode ...] [--json]\n       node scripts/harnesses.mjs status [--json]');
  return 2;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (err) {
    console.error(`harnesses: ${err.message}`);
    process.exitCode = 1;
  }
}

