// `pnpm bench`: every benchmark script, each a separate process, results as ratios against a peer
// measured in the same run. Writes tests/bench/results/latest.json and prints a summary table.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
// Every *.mjs here but this runner is a benchmark; the core ones first, the rest alphabetically.
const core = ['cli-start.mjs', 'cli-start-installed.mjs', 'fsm-throughput.mjs', 'plan-lint.mjs'];
const others = readdirSync(here).filter((f) => f.endsWith('.mjs') && f !== 'run.mjs' && !core.includes(f)).sort();
const only = process.argv.slice(2);
const benches = [...core, ...others]
  .map((script) => ({ name: script.replace(/\.mjs$/, ''), script }))
  .filter((b) => only.length === 0 || only.includes(b.name));

const results = { node: process.version, date: new Date().toISOString(), benches: {} };
let failed = false;
for (const bench of benches) {
  process.stderr.write(`bench ${bench.name} ...\n`);
  const r = spawnSync(process.execPath, [join(here, bench.script)], { cwd: here, encoding: 'utf8' });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  let parsed;
  try {
    parsed = JSON.parse(last);
  } catch {
    parsed = { error: `no JSON result (exit ${r.status}): ${r.stderr.slice(-2000)}` };
  }
  results.benches[bench.name] = { exitCode: r.status, ...parsed };
  if (r.status !== 0) failed = true;
  process.stderr.write(`  ${r.status === 0 ? 'pass' : 'FAIL'} ${JSON.stringify(parsed)}\n`);
}
await mkdir(join(here, 'results'), { recursive: true });
await writeFile(join(here, 'results', 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(JSON.stringify(results, null, 2));
process.exitCode = failed ? 1 : 0;
