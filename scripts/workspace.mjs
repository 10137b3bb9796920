// The publishable packages of the workspace (packages/* and apps/*, not private), for the repo scripts.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const repoRoot = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

export async function publishablePackages(root = repoRoot) {
  const out = [];
  for (const group of ['packages', 'apps']) {
    let names = [];
    try {
      names = await readdir(join(root, group));
    } catch {
      continue;
    }
    for (const name of names.sort()) {
      const dir = join(root, group, name);
      let manifest;
      try {
        manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      if (manifest.private !== true) out.push({ dir, rel: `${group}/${name}`, manifest });
    }
  }
  return out;
}
