// Pack workspace packages as `pnpm publish` would (workspace: ranges rewritten to the versions),
// for the checks and benchmarks that test what users install.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './workspace.mjs';

/** pnpm as argv: under `pnpm run`, npm_execpath is pnpm itself; otherwise the pinned one via npx. */
export function pnpmCommand() {
  if (process.env.npm_execpath?.includes('pnpm')) return [process.execPath, process.env.npm_execpath];
  return ['npx', '-y', JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).packageManager];
}

/** The tarball name pnpm gives a package: @ratchet/cli 0.1.0 -> ratchet-cli-0.1.0.tgz. */
export const tarballName = ({ name, version }) => `${name.replace(/^@/u, '').replace('/', '-')}-${version}.tgz`;

/**
 * Pack `manifests` (package.json contents of workspace packages; build them first) into `dest` in
 * one pnpm run; returns the tarball paths in the same order, throwing if one is missing.
 */
export function packPackages(manifests, dest) {
  const pnpm = pnpmCommand();
  execFileSync(pnpm[0], [...pnpm.slice(1), '-r', ...manifests.flatMap((m) => ['--filter', m.name]), 'pack', '--pack-destination', dest], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const packed = new Set(readdirSync(dest));
  return manifests.map((m) => {
    if (!packed.has(tarballName(m))) throw new Error(`${m.name}: pnpm pack made no ${tarballName(m)} in ${dest}`);
    return join(dest, tarballName(m));
  });
}
