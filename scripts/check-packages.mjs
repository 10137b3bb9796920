// Every published package must be publishable alone: publint on what `pnpm pack` would ship, plus
// the house rules publint does not know (ESM only, typed exports, sideEffects, files, README example).
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { publishablePackages } from './workspace.mjs';

const problems = [];
const report = (rel, message) => problems.push(`${rel}: ${message}`);

for (const { dir, rel, manifest } of await publishablePackages()) {
  if (manifest.type !== 'module') report(rel, '"type" must be "module" (ESM only)');
  if (manifest.sideEffects !== false) report(rel, '"sideEffects" must be false');
  if (!Array.isArray(manifest.files) || manifest.files.length === 0) report(rel, '"files" must list what is published');
  if (!manifest.engines?.node) report(rel, '"engines.node" is missing');
  if (!manifest.license) report(rel, '"license" is missing');
  const root = manifest.exports?.['.'];
  if (!root || typeof root !== 'object') report(rel, '"exports" must have a "." entry with conditions');
  else {
    for (const condition of ['types', 'default']) {
      if (typeof root[condition] !== 'string') report(rel, `exports["."] needs a "${condition}" condition`);
      else await access(join(dir, root[condition])).catch(() => report(rel, `exports["."].${condition} -> ${root[condition]} does not exist (built?)`));
    }
  }
  const readme = await readFile(join(dir, 'README.md'), 'utf8').catch(() => '');
  if (!readme) report(rel, 'README.md is missing');
  else if (!/```(ts|typescript|js|javascript|sh|bash)\n/u.test(readme)) report(rel, 'README.md has no runnable example (a fenced ts/js/sh block)');

  const { messages, pkg } = await publint({ pkgDir: dir, level: 'warning', strict: true, pack: 'pnpm' });
  for (const m of messages) report(rel, `publint ${m.type}: ${formatMessage(m, pkg, { color: false }) ?? m.code}`);
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} package problem(s).`);
  process.exit(1);
}
console.log('packages: publint and house rules pass');
