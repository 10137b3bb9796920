// Copy the repository's protocols/ (FSMs, dialects, protocol sources and schema, built-in flows,
// the action-type registry, the JIXO system prompt) and examples/ into assets/, so the published
// CLI carries them (`ratchet init`, `ratchet quickstart`, built-in defaults). The repository's
// directories stay the one source.
//
// A "$schema" there may point into the repository (protocols/fdc.fsm.json names
// ../packages/fsm-core/schemas/..., so editors in this repository check against the working tree's
// schema). Nothing outside assets/ ships, so the copy points such a path at the published schema
// (https://unpkg.com/<package>/schemas/<file>, the URL the packages' schemas carry as $id); a
// relative path that resolves inside what is copied stays; anything else fails the build.
import { access, cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const cliRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(cliRoot, '..', '..');
const assets = join(cliRoot, 'assets');
const COPIED = ['protocols', 'examples'];

await rm(assets, { recursive: true, force: true });
await mkdir(assets, { recursive: true });
for (const dir of COPIED) await cp(join(repoRoot, dir), join(assets, dir), { recursive: true });

const SCHEMA = /("\$schema"\s*:\s*")([^"]+)(")/u;
const problems = [];
for (const entry of await readdir(assets, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
  const file = join(entry.parentPath, entry.name);
  const text = await readFile(file, 'utf8');
  const ref = SCHEMA.exec(text)?.[2];
  if (ref === undefined || /^[a-z][a-z0-9+.-]*:/iu.test(ref)) continue;
  // Where the path points from the file's place in the repository.
  const source = join(repoRoot, relative(assets, file));
  const target = resolve(dirname(source), ref);
  const inRepo = relative(repoRoot, target);
  if (COPIED.some((dir) => inRepo.startsWith(`${dir}${sep}`))) continue;
  const url = await publishedUrl(inRepo);
  if (url) await writeFile(file, text.replace(SCHEMA, `$1${url}$3`));
  else problems.push(`${relative(repoRoot, source)}: "$schema": "${ref}" points at ${inRepo}, which is neither copied nor a published package's schema`);
}
if (problems.length > 0) throw new Error(problems.join('\n'));

/** `packages/<dir>/schemas/<file>` or `apps/<dir>/schemas/<file>`, exported by that package: its unpkg URL. */
async function publishedUrl(inRepo) {
  const match = /^(packages|apps)[\\/]([^\\/]+)[\\/](schemas[\\/][^\\/]+\.json)$/u.exec(inRepo);
  if (!match) return undefined;
  const [, group, dir, path] = match;
  const manifest = JSON.parse(await readFile(join(repoRoot, group, dir, 'package.json'), 'utf8'));
  const subpath = `./${path.split(sep).join('/')}`;
  if (!manifest.exports?.[subpath]) return undefined;
  await access(join(repoRoot, group, dir, path));
  return `https://unpkg.com/${manifest.name}/${subpath.slice(2)}`;
}
