// What a user installs is what CI tests. Unit tests and publint see the workspace, where every
// package resolves through the @ratchet/source condition and dev dependencies are on hand; a user
// gets tarballs in an empty project. So: pack every publishable package as `pnpm publish` would
// (workspace: ranges rewritten), `npm install` the tarballs into a fresh project outside the
// repository, and there
//   1. run every README's example verbatim (scripts/readme-examples.mjs says which block) and, where
//      the README documents its output, compare it;
//   2. type-check a consumer of every typed entry point under moduleResolution NodeNext and
//      Bundler with skipLibCheck off (a .d.ts that imports an undeclared dependency fails here);
//   3. run `ratchet quickstart` from the installed bin, and check that every "$schema" it wrote or
//      we shipped resolves outside the repository;
//   4. run `ratchet serve` from the installed bin on a small campaign and fetch its page, every
//      asset and the snapshot (the page ships in the tarball and is served from there).
// Run `pnpm build` first (`npm test` does). RATCHET_KEEP_INSTALLED=1 keeps the project for a look.
/* global fetch -- Node 20's */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packPackages } from './pack.mjs';
import { readmeExample } from './readme-examples.mjs';
import { publishablePackages, repoRoot } from './workspace.mjs';

const started = Date.now();
const require = createRequire(import.meta.url);
const rootManifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8'));
const packages = await publishablePackages();
const work = await mkdtemp(join(tmpdir(), 'ratchet-installed-'));
const project = join(work, 'project');
const tarballs = join(work, 'tarballs');
const problems = [];
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

/** Run a command to completion, never throwing: { code, stdout, stderr }. */
function exec(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (err) => resolve({ code: -1, stdout, stderr: `${stderr}${err.message}` }));
    child.on('close', (code, signal) => resolve({ code: code ?? `killed by ${signal}`, stdout, stderr }));
  });
}
const tail = (text, n = 40) => text.trimEnd().split('\n').slice(-n).join('\n');
function firstDifference(actual, expected) {
  const a = actual.split('\n');
  const e = expected.split('\n');
  const i = a.findIndex((line, k) => line !== e[k]);
  const at = i < 0 ? a.length : i;
  return `  line ${at + 1} printed:  ${JSON.stringify(a[at] ?? '(end of output)')}\n  the README says: ${JSON.stringify(e[at] ?? '(end of output)')}`;
}

/** Each JSON file under `root` whose top-level "$schema" does not resolve (see check 3). */
async function danglingSchemas(root) {
  const out = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const file = join(entry.parentPath, entry.name);
    if (!entry.isFile() || !entry.name.endsWith('.json') || relative(root, file).split(sep).includes('node_modules')) continue;
    let ref;
    try {
      ref = JSON.parse(await readFile(file, 'utf8')).$schema;
    } catch {
      continue;
    }
    if (typeof ref !== 'string') continue;
    const ours = /^https:\/\/unpkg\.com\/(@ratchet\/[^/@]+)\/(.+)$/u.exec(ref);
    const target = ours ? join(project, 'node_modules', ours[1], ours[2]) : /^[a-z][a-z0-9+.-]*:/iu.test(ref) ? undefined : resolve(dirname(file), ref);
    if (target && !existsSync(target)) out.push(`  ${relative(work, file)}: "$schema": "${ref}"`);
  }
  return out;
}

// Pack.
await mkdir(tarballs, { recursive: true });
const packed = packPackages(packages.map((p) => p.manifest), tarballs);
console.log(`packed ${packed.length} packages (${elapsed()})`);

// Install into an empty project, as a user would (third-party dependencies from the registry;
// --prefer-offline takes them from the npm cache without asking the registry again). @types/node
// because a consumer type-checking Node code has it, and our declarations use Node's types.
await mkdir(project);
await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'ratchet-installed-check', private: true, type: 'module' }, null, 2)}\n`);
const typesNode = `@types/node@${rootManifest.devDependencies['@types/node']}`;
const install = await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...packed, typesNode], {
  cwd: project,
});
if (install.code !== 0) {
  console.error(`npm install of the tarballs failed (exit ${install.code}):\n${tail(install.stderr)}`);
  process.exit(1);
}
// A @ratchet/* dependency must resolve to the tarball just packed, never to a registry copy.
const lock = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8'));
for (const [path, entry] of Object.entries(lock.packages)) {
  if (/(^|\/)node_modules\/@ratchet\//u.test(path) && !entry.resolved?.startsWith('file:')) {
    problems.push(`${path} was installed from ${entry.resolved ?? 'nowhere'}, not from the packed tarball`);
  }
}
console.log(`installed ${packed.length} tarballs (${elapsed()})`);

// The checks are independent jobs, run side by side (longest first: the type checks, then the tour):
// tsc is single-threaded and the examples mostly wait on child processes and the file system.
const jobs = [];
const job = (label, cmd, args, options, verdict) => jobs.push({ label, run: () => exec(cmd, args, options), verdict });
const failed = (r) => r.code !== 0 && `exited ${r.code}:\n${tail(`${r.stdout}${r.stderr}`)}`;

// Check 1: README examples, each in a fresh directory of the project (bare imports resolve from the
// project's node_modules; `ratchet` is on PATH from node_modules/.bin, as after `npm install`).
const env = { ...process.env, PATH: `${join(project, 'node_modules', '.bin')}${delimiter}${process.env.PATH}`, NO_COLOR: '1' };
delete env.npm_execpath;
delete env.FORCE_COLOR;
const tsx = pathToFileURL(require.resolve('tsx')).href;
const tsExamples = [];
const exampleJobs = [];
for (const { dir, rel, manifest } of packages) {
  const example = readmeExample(await readFile(join(dir, 'README.md'), 'utf8').catch(() => ''));
  if (example.error) {
    problems.push(`${rel}/README.md: ${example.error}`);
    continue;
  }
  const cwd = join(project, 'examples', manifest.name.replace('/', '__'));
  await mkdir(cwd, { recursive: true });
  const file = join(cwd, { js: 'example.mjs', ts: 'example.ts', sh: 'example.sh' }[example.lang]);
  await writeFile(file, example.code);
  // A TypeScript example is also type-checked, with the consumer below.
  if (example.lang === 'ts') tsExamples.push(file);
  const [cmd, args] = {
    js: [process.execPath, [file]],
    ts: [process.execPath, ['--import', tsx, file]],
    sh: ['bash', ['-e', '-o', 'pipefail', file]],
  }[example.lang];
  exampleJobs.push([`${rel}/README.md:${example.line} (${example.lang} example)`, cmd, args, { cwd, env }, (r) => {
    if (r.code !== 0) return failed(r);
    if (example.expected !== undefined && r.stdout !== example.expected) return `does not print what the README says:\n${firstDifference(r.stdout, example.expected)}`;
    return false;
  }]);
}

// Check 2: a consumer of every typed export, type-checked as users configure TypeScript.
const imports = [];
for (const { manifest } of packages) {
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (typeof target !== 'object' || !target.types) continue;
    const specifier = subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`;
    imports.push(`export * as m${imports.length} from '${specifier}';`);
  }
}
await writeFile(join(project, 'consumer.ts'), `${imports.join('\n')}\n`);
const tsc = require.resolve('typescript/bin/tsc');
for (const [name, options] of [
  ['NodeNext', { module: 'NodeNext', moduleResolution: 'NodeNext' }],
  ['Bundler', { module: 'ESNext', moduleResolution: 'Bundler' }],
]) {
  const config = join(project, `tsconfig.${name}.json`);
  // lib DOM: the MCP SDK's declarations name HeadersInit, which @types/node 20 does not declare.
  // Our own declarations cannot lean on it: the workspace compiles them with lib ES2023 alone.
  const compilerOptions = { ...options, target: 'ES2022', lib: ['ES2023', 'DOM'], types: ['node'], strict: true, skipLibCheck: false, noEmit: true };
  await writeFile(config, JSON.stringify({ compilerOptions, files: ['consumer.ts', ...tsExamples] }));
  job(`the consumer of ${imports.length} entry points under moduleResolution ${name} (tsc)`, process.execPath, [tsc, '-p', config], { cwd: project }, failed);
}

// Check 3: the tour from the installed bin: every command it runs, against the shipped assets.
// Then every "$schema" in what the tour wrote (the files `ratchet init` scaffolds, the examples it
// copies) and in the installed packages must resolve there: a relative path to a file beside it, an
// unpkg URL of ours to a file in the installed package (what unpkg will serve once published).
const tour = join(work, 'quickstart');
job('ratchet quickstart (installed bin)', join(project, 'node_modules', '.bin', 'ratchet'), ['quickstart', '--dir', tour], { cwd: project, env }, async (r) => {
  if (r.code !== 0) return failed(r);
  const dangling = [...(await danglingSchemas(tour)), ...(await danglingSchemas(join(project, 'node_modules', '@ratchet')))];
  return dangling.length > 0 && `wrote or installed "$schema" references that do not resolve outside the repository:\n${dangling.join('\n')}`;
});
for (const args of exampleJobs) job(...args);

// Check 4: the dashboard from the installed bin, its page and assets served from the tarball's files.
const served = join(work, 'serve');
jobs.push({
  label: 'ratchet serve (installed bin): the page, its assets and a snapshot',
  run: () => serveCheck(join(project, 'node_modules', '.bin', 'ratchet'), served, env),
  verdict: (problem) => problem,
});

await Promise.all(
  Array.from({ length: Math.max(2, availableParallelism()) }, async () => {
    for (let next = jobs.shift(); next; next = jobs.shift()) {
      const verdict = await next.verdict(await next.run());
      if (verdict) problems.push(`${next.label} ${verdict}`);
      else console.log(`ok ${next.label} (${elapsed()})`);
    }
  }),
);

/** Starts the installed `ratchet serve` on a campaign, fetches what the page needs; the problem, or false. */
async function serveCheck(bin, dir, env) {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'plan.json'), JSON.stringify({ tasks: [{ seq: 1, slug: 'one', delta: ['a'], verify: 'true', depends: 'none' }, { seq: 2, slug: 'two', delta: ['b'], verify: 'true', depends: [1] }] }));
  for (const args of [['campaign', 'create', 'Installed dashboard'], ['campaign', 'add-tasks', 'plan.json']]) {
    const r = await exec(bin, args, { cwd: dir, env });
    if (r.code !== 0) return `ratchet ${args.join(' ')} ${failed(r)}`;
  }
  const child = spawn(bin, ['serve', '--port', '0', '--json'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const exited = new Promise((done) => child.on('close', (code) => done(code)));
  try {
    const deadline = Date.now() + 30_000;
    while (!stdout.includes('\n')) {
      if (Date.now() > deadline || child.exitCode !== null) return `printed no URL: ${tail(`${stdout}${stderr}`)}`;
      await new Promise((r) => setTimeout(r, 50));
    }
    const { url } = JSON.parse(stdout.slice(0, stdout.indexOf('\n')));
    for (const path of ['', 'app.js', 'layout-worker.js', 'app.css', 'favicon.svg', 'THIRD_PARTY_NOTICES.txt']) {
      const res = await fetch(`${url}${path}`);
      if (res.status !== 200 || (await res.arrayBuffer()).byteLength === 0) return `GET /${path} answered ${res.status}`;
    }
    const snapshot = await (await fetch(`${url}api/snapshot`)).json();
    if (snapshot.campaign?.objective !== 'Installed dashboard' || snapshot.campaign.tasks.length !== 2) return `the snapshot does not show the campaign: ${JSON.stringify(snapshot).slice(0, 500)}`;
  } finally {
    child.kill('SIGTERM');
  }
  const code = await exited;
  return code === 0 ? false : `exited ${code} on SIGTERM: ${tail(stderr)}`;
}

if (problems.length > 0) {
  console.error(`\n${problems.join('\n\n')}\n\n${problems.length} problem(s) with the installed packages; the project is in ${project}`);
  process.exit(1);
}
if (process.env.RATCHET_KEEP_INSTALLED) console.log(`the project is in ${project}`);
else await rm(work, { recursive: true, force: true });
console.log(`installed packages: the tarballs install, ${exampleJobs.length} README examples run, types resolve, quickstart passes, the dashboard serves (${elapsed()})`);
