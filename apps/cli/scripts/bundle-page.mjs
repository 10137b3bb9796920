// The dashboard page of `ratchet serve` (web/): its TypeScript bundled with esbuild into
// assets/serve/ with its static files, so the published package serves it with nothing fetched at
// run time. Runs after copy-assets.mjs (which starts assets/ afresh). The graph layout library
// (d3-dag, bundled into the layout worker) carries its licence and those of the code it embeds in
// THIRD_PARTY_NOTICES.txt beside the page.
import { build } from 'esbuild';
import { copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cliRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(cliRoot, 'assets', 'serve');
await mkdir(out, { recursive: true });

await build({
  absWorkingDir: cliRoot,
  entryPoints: { app: 'web/src/app.ts', 'layout-worker': 'web/src/layout-worker.ts' },
  outdir: out,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox115', 'safari16'],
  minify: true,
  // Licence comments go to THIRD_PARTY_NOTICES.txt (below), not into every response.
  legalComments: 'none',
  sourcemap: false,
  logLevel: 'warning',
});
for (const name of await readdir(join(cliRoot, 'web', 'static'))) await copyFile(join(cliRoot, 'web', 'static', name), join(out, name));

// d3-dag's published bundle inlines d3-array, quadprog and javascript-lp-solver.
// (Found from each package's entry: d3-dag's exports do not include its package.json.)
async function packageDir(from, name) {
  let dir = dirname(createRequire(from).resolve(name));
  for (;;) {
    try {
      if (JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')).name === name) return dir;
    } catch {
      // not a package root: keep going up
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the package directory of ${name}`);
    dir = up;
  }
}
const d3dag = await packageDir(join(cliRoot, 'package.json'), 'd3-dag');
const sections = [];
for (const [name, dir] of [
  ['d3-dag', d3dag],
  ...(await Promise.all(['d3-array', 'quadprog', 'javascript-lp-solver'].map(async (dep) => [dep, await packageDir(join(d3dag, 'package.json'), dep)]))),
]) {
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  const file = (await readdir(dir)).find((f) => /^(licen[cs]e|copying)/i.test(f));
  if (file === undefined) throw new Error(`${name}: no licence file in ${dir}`);
  sections.push(`${name} ${manifest.version} (${manifest.license})\n${'-'.repeat(60)}\n${(await readFile(join(dir, file), 'utf8')).trim()}\n`);
}
await writeFile(join(out, 'THIRD_PARTY_NOTICES.txt'), `The dashboard page of @ratchet/cli (\`ratchet serve\`) bundles the following.\n\n${sections.join('\n\n')}`);
