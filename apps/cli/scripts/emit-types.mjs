// The CLI's published types: the declarations of src/index.ts and what they import, nothing else.
// The CLI is bundled, so commander and the @ratchet/* packages are dev dependencies; a shipped
// .d.ts naming one fails for users with TS2307 (it did: dist/program.d.ts imported commander).
// tsc emits every module's declarations into a scratch directory; this copies index.d.ts's closure
// into dist/ and fails when that closure imports anything but a relative path or a node: builtin.
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const cliRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const scratch = await mkdtemp(join(tmpdir(), 'ratchet-cli-types-'));
try {
  // No declaration maps: they would point users at src/, and the published types are few and plain.
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--emitDeclarationOnly', '--declarationMap', 'false', '--outDir', scratch], {
    cwd: cliRoot,
    stdio: 'inherit',
  });
  const problems = [];
  const seen = new Set();
  const queue = ['index.d.ts'];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await readFile(join(scratch, file), 'utf8');
    // import/export ... from '...', import('...') and import '...' in a declaration file.
    for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gmu)) {
      if (specifier.startsWith('node:')) continue;
      if (!specifier.startsWith('.')) {
        problems.push(`dist/${file} imports '${specifier}', which users do not get (the CLI bundles it): keep it out of the types of src/index.ts`);
        continue;
      }
      queue.push(relative(scratch, join(scratch, dirname(file), specifier.replace(/\.js$/u, '.d.ts'))));
    }
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
  for (const file of seen) {
    await mkdir(dirname(join(cliRoot, 'dist', file)), { recursive: true });
    await copyFile(join(scratch, file), join(cliRoot, 'dist', file));
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
