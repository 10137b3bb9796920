// Copy the repository's protocol FSMs and examples into assets/, so the published CLI carries
// them (`ratchet init`, `ratchet quickstart`). protocols/ and examples/ stay the one source.
import { cp, mkdir, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cliRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(cliRoot, '..', '..');
const assets = join(cliRoot, 'assets');

await rm(assets, { recursive: true, force: true });
await mkdir(join(assets, 'protocols'), { recursive: true });
for (const name of await readdir(join(repoRoot, 'protocols'))) {
  if (name.endsWith('.fsm.json') || name.endsWith('.dialect.json')) await cp(join(repoRoot, 'protocols', name), join(assets, 'protocols', name));
}
await cp(join(repoRoot, 'examples'), join(assets, 'examples'), { recursive: true });
