// The whole test suite in one vitest run over every project (root vitest.config.ts), then one
// closing line "N passed, N failed" so a CI log says at a glance what ran.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './workspace.mjs';

const out = join(repoRoot, 'node_modules', '.cache', 'vitest-results.json');
rmSync(out, { force: true });
const vitest = join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
const r = spawnSync(process.execPath, [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)], {
  cwd: repoRoot,
  stdio: 'inherit',
});
let summary;
try {
  summary = JSON.parse(readFileSync(out, 'utf8'));
} catch {
  console.error(`vitest produced no results (exit ${r.status})`);
  process.exit(r.status || 1);
}
const skipped = summary.numPendingTests + summary.numTodoTests;
console.log(`\n${summary.numPassedTests} passed, ${summary.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (summary.numTotalTests === 0) {
  console.error('no tests ran');
  process.exit(1);
}
process.exit(r.status ?? 1);
