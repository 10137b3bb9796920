// Release rehearsal without touching the working tree: copy the repository, apply the pending
// changesets there (`changeset version`), pack every publishable package with pnpm (which rewrites
// workspace: ranges), and check each tarball: no workspace: ranges left, entry points present,
// publint clean. Tarballs land in .release-dry-run/ for inspection. Run `pnpm build` first
// (`pnpm release:dry-run` does).
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { publishablePackages, repoRoot } from './workspace.mjs';

const SKIP = new Set(['node_modules', '.git', '.turbo', '.release-dry-run', 'coverage']);
const pnpm = process.env.npm_execpath?.includes('pnpm') ? [process.execPath, process.env.npm_execpath] : ['pnpm'];
const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const before = new Map((await publishablePackages()).map((p) => [p.manifest.name, p.manifest.version]));
const work = await mkdtemp(join(tmpdir(), 'ratchet-release-'));
await cp(repoRoot, work, { recursive: true, filter: (src) => !src.split('/').some((part) => SKIP.has(part)) || src === repoRoot });
// pnpm pack resolves workspace: ranges through each package's node_modules, so the scratch copy
// gets its own install, offline from the pnpm store the real install filled.
sh(pnpm[0], [...pnpm.slice(1), 'install', '--offline', '--frozen-lockfile', '--ignore-scripts'], work);

const pending = (await readdir(join(work, '.changeset'))).filter((f) => f.endsWith('.md') && f !== 'README.md');
console.log(`changesets pending: ${pending.length}`);
sh(process.execPath, [join(work, 'node_modules', '@changesets', 'cli', 'bin.js'), 'version'], work);

const out = join(repoRoot, '.release-dry-run');
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });

const problems = [];
for (const pkg of await publishablePackages(work)) {
  const name = pkg.manifest.name;
  const packed = sh(pnpm[0], [...pnpm.slice(1), 'pack', '--pack-destination', out], pkg.dir).trim().split('\n').pop();
  const tarball = packed.startsWith('/') ? packed : join(out, packed.split('/').pop());
  const manifest = JSON.parse(sh('tar', ['-xzOf', tarball, 'package/package.json']));
  const files = sh('tar', ['-tzf', tarball]).trim().split('\n');
  const ranges = JSON.stringify({ ...manifest.dependencies, ...manifest.peerDependencies });
  if (ranges.includes('workspace:')) problems.push(`${name}: packed package.json still has a workspace: range`);
  for (const entry of [manifest.exports?.['.']?.default, manifest.exports?.['.']?.types]) {
    if (entry && !files.includes(join('package', entry))) problems.push(`${name}: ${entry} missing from the tarball`);
  }
  const { messages, pkg: pj } = await publint({ pack: { tarball: (await readFile(tarball)).buffer }, level: 'warning', strict: true });
  for (const m of messages) problems.push(`${name}: publint: ${formatMessage(m, pj, { color: false })}`);
  const size = (await stat(tarball)).size;
  console.log(`${name.padEnd(22)} ${before.get(name)} -> ${manifest.version.padEnd(8)} ${relative(repoRoot, tarball)} (${files.length} files, ${(size / 1024).toFixed(1)} KiB)`);
}
await rm(work, { recursive: true, force: true });

if (problems.length > 0) {
  console.error(`\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('\nrelease dry run: every package packs and passes publint; nothing was changed in the working tree.');
