// Copy the repository's protocols/ (FSMs, dialects, protocol sources and schema, built-in flows,
// the action-type registry, the JIXO system prompt) and examples/ into assets/, so the published
// CLI carries them (`ratchet init`, `ratchet quickstart`, built-in defaults). The repository's
// directories stay the one source.
import { cp, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cliRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(cliRoot, '..', '..');
const assets = join(cliRoot, 'assets');

await rm(assets, { recursive: true, force: true });
await mkdir(assets, { recursive: true });
await cp(join(repoRoot, 'protocols'), join(assets, 'protocols'), { recursive: true });
await cp(join(repoRoot, 'examples'), join(assets, 'examples'), { recursive: true });
