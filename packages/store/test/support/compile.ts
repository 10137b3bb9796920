/**
 * Child processes in the tests run the package source, type-stripped once per source change into
 * node_modules/.cache (so `lowdb` resolves from the package). Each child then starts in ~80 ms as
 * plain `node`, instead of ~500 ms with a TypeScript loader: the crash test alone spawns over a
 * hundred processes on a 2-core machine.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageDir = fileURLToPath(new URL('../..', import.meta.url));

async function sources(): Promise<string[]> {
  // Recursive: the port, the file backend and the conformance kit live in subdirectories of src.
  const list = async (dir: string): Promise<string[]> =>
    (await readdir(join(packageDir, dir), { recursive: true }))
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .sort()
      .map((name) => join(packageDir, dir, name));
  return [...(await list('src')), ...(await list('test/workers'))];
}

/** Directory holding `src/*.js` and `test/workers/*.js`, transpiled from the current sources. */
export async function compileForChildProcesses(): Promise<string> {
  const files = await sources();
  const hash = createHash('sha256');
  for (const file of files) hash.update(relative(packageDir, file)).update('\0').update(await readFile(file)).update('\0');
  const root = join(packageDir, 'node_modules', '.cache', 'store-test-children');
  const out = join(root, hash.digest('hex').slice(0, 16));
  if (existsSync(join(out, 'package.json'))) return out;

  const ts = (await import('typescript')).default;
  const staging = `${out}.${process.pid}.tmp`;
  await rm(staging, { recursive: true, force: true });
  for (const file of files) {
    const { outputText } = ts.transpileModule(await readFile(file, 'utf8'), {
      fileName: file,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true, sourceMap: false },
    });
    const target = join(staging, relative(packageDir, file)).replace(/\.ts$/u, '.js');
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, outputText);
  }
  // node_modules/ ends a package scope, so say "ESM" again here.
  await writeFile(join(staging, 'package.json'), '{ "type": "module" }\n');
  // Old builds go; a concurrent run that got here first wins the rename.
  for (const name of existsSync(root) ? await readdir(root) : []) {
    if (join(root, name) !== staging) await rm(join(root, name), { recursive: true, force: true }).catch(() => undefined);
  }
  await rename(staging, out).catch(() => rm(staging, { recursive: true, force: true }));
  return out;
}
