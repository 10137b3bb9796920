// Every published package must be publishable alone: publint on what `pnpm pack` would ship, plus
// the house rules publint does not know (ESM only, typed exports, sideEffects, files, caret ranges
// for runtime dependencies, a README example in the form check-installed.mjs runs).
import { access, readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { readmeExample } from './readme-examples.mjs';
import { publishablePackages } from './workspace.mjs';

const problems = [];
const report = (rel, message) => problems.push(`${rel}: ${message}`);
const ts = createRequire(import.meta.url)('typescript');
// esbuild bundles everything the CLI imports (apps/cli/scripts/bundle.mjs): it has no runtime
// dependencies, and its imports are dev dependencies on purpose.
const BUNDLED = new Set(['@ratchet/cli']);

/** Every .ts file under `dir` but tests. */
async function sources(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')).map((e) => join(e.parentPath, e.name));
}
const packageName = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/**
 * Runtime dependencies: caret ranges (users dedupe them with their own copies; dev tools stay
 * pinned), each one imported by src/ (not by tests or scripts only), and every value import of
 * src/ declared (a type-only import may name a dev dependency: the consumer type-check in
 * check-installed.mjs catches one that leaks into the published declarations).
 */
async function checkDependencies(dir, rel, manifest) {
  const dependencies = manifest.dependencies ?? {};
  for (const [name, range] of Object.entries(dependencies)) {
    if (!/^(\^\d|workspace:\^$)/u.test(range)) report(rel, `dependency ${name}: "${range}" must be a caret range ("^x.y.z" or "workspace:^")`);
  }
  for (const [name, range] of Object.entries(manifest.devDependencies ?? {})) {
    if (!/^(\d|workspace:)/u.test(range)) report(rel, `dev dependency ${name}: "${range}" must be an exact version`);
  }
  const imported = new Set();
  const valueImported = new Set();
  for (const file of await sources(join(dir, 'src'))) {
    const text = await readFile(file, 'utf8');
    const all = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    const typeOnly = [...text.matchAll(/^\s*(?:import|export)\s+type\s[^;]*?\bfrom\s*['"]([^'"]+)['"]/gmu)].map((m) => m[1]);
    for (const specifier of all) {
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      imported.add(packageName(specifier));
      if (all.filter((s) => s === specifier).length > typeOnly.filter((s) => s === specifier).length) valueImported.add(packageName(specifier));
    }
  }
  for (const name of Object.keys(dependencies)) {
    if (!imported.has(name)) report(rel, `dependency ${name} is not imported by src/: drop it, or make it a dev dependency if scripts or tests need it`);
  }
  if (BUNDLED.has(manifest.name)) return;
  for (const name of valueImported) {
    if (!(name in dependencies) && !(name in (manifest.peerDependencies ?? {}))) report(rel, `src/ imports ${name}, which is not a dependency`);
  }
}

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
  else {
    // The block check-installed.mjs runs, verbatim, against the packed package: that it runs is
    // checked there (it needs the tarballs installed), that it is there is checked here.
    const example = readmeExample(readme);
    if (example.error) report(rel, `README.md: ${example.error} (CONTRIBUTING.md, "README examples")`);
    // The README is read on npm, where nothing outside the package exists: link out absolutely.
    for (const m of readme.matchAll(/\]\((\.\.\/[^)\s]*)\)/g)) report(rel, `README.md links to ${m[1]}, outside the package: on npm that link is dead (use the repository URL)`);
  }

  await checkDependencies(dir, rel, manifest);

  const { messages, pkg } = await publint({ pkgDir: dir, level: 'warning', strict: true, pack: 'pnpm' });
  for (const m of messages) report(rel, `publint ${m.type}: ${formatMessage(m, pkg, { color: false }) ?? m.code}`);
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} package problem(s).`);
  process.exit(1);
}
console.log('packages: publint and house rules pass');
