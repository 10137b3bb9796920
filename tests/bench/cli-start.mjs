// CLI start-up, measured side by side with `node -e 0` in one run: the commands are interleaved
// round by round so machine noise hits them alike, and we compare medians as ratios.
// `planLintNoCache` is plan lint with the code cache off (RATCHET_COMPILE_CACHE=off): a first call.
// RATCHET_BENCH_BASELINE=<another checkout>/apps/cli/bin/ratchet.js adds that build's plan lint and
// run next to the same rounds (`baseline.*`, and `vsBaseline`: this build's time over that one's).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleavedMedians } from './lib/interleave.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'apps/cli/bin/ratchet.js');
const fdc = join(root, 'protocols/fdc.fsm.json');
const runs = Number(process.env.RATCHET_BENCH_RUNS ?? 40);

// A small project for `plan lint`: Ratchet's protocol files and a 20-line plan.
const project = mkdtempSync(join(tmpdir(), 'ratchet-bench-'));
spawnSync(process.execPath, [bin, 'init', '--quiet', '--cwd', project]);
const plan = ['# bench plan', 'set_plan bench', 'read_file protocols/fdc.fsm.json', 'plan_step_complete'];
for (let i = 0; i < 7; i++) plan.push(`create_file_with_block src/f${i}.js`, `read_file src/f${i}.js`);
plan.push('run_in_bash_session npm test', 'run_in_bash_session close');
writeFileSync(join(project, 'plan.txt'), `${plan.join('\n')}\n`);
// A task executing that plan, for `run next` (read-only: every sample sees the same session).
for (const args of [['task', 'start', '--task-id', 'bench', '--no-network'], ['run', 'plan', 'plan.txt']]) {
  const r = spawnSync(process.execPath, [bin, ...args, '--quiet', '--cwd', project], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
}

const commands = {
  node: [process.execPath, ['-e', '0']],
  version: [process.execPath, [bin, '--version']],
  accept: [process.execPath, [bin, 'fsm', 'accept', fdc, 'plan_op', 'step_op', 'read_op', 'write_op', 'tool_exec', 'close_op']],
  planLint: [process.execPath, [bin, 'plan', 'lint', 'plan.txt', '--cwd', project]],
  runNext: [process.execPath, [bin, 'run', 'next', '--cwd', project]],
  planLintNoCache: [process.execPath, [bin, 'plan', 'lint', 'plan.txt', '--cwd', project], { RATCHET_COMPILE_CACHE: 'off' }],
};
const baseline = process.env.RATCHET_BENCH_BASELINE;
if (baseline !== undefined && baseline !== '') {
  commands['baseline.planLint'] = [process.execPath, [baseline, 'plan', 'lint', 'plan.txt', '--cwd', project]];
  commands['baseline.runNext'] = [process.execPath, [baseline, 'run', 'next', '--cwd', project]];
}

const time = ([cmd, args, env]) => {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
};
const med = interleavedMedians(Object.keys(commands), runs, (k) => time(commands[k]));
const result = {
  runs,
  medianMs: Object.fromEntries(Object.entries(med).map(([k, v]) => [k, Number(v.toFixed(1))])),
  versionRatio: Number((med.version / med.node).toFixed(3)),
  acceptRatio: Number((med.accept / med.node).toFixed(3)),
  planLintRatio: Number((med.planLint / med.node).toFixed(3)),
  runNextRatio: Number((med.runNext / med.node).toFixed(3)),
  planLintNoCacheRatio: Number((med.planLintNoCache / med.node).toFixed(3)),
  ...(med['baseline.planLint'] === undefined
    ? {}
    : { vsBaseline: { planLint: Number((med.planLint / med['baseline.planLint']).toFixed(3)), runNext: Number((med.runNext / med['baseline.runNext']).toFixed(3)) } }),
  limits: { versionRatio: 1.3, acceptRatio: 1.6, planLintRatio: 1.6, runNextRatio: 1.6 },
};
result.pass = Object.entries(result.limits).every(([k, limit]) => result[k] <= limit);
console.log(JSON.stringify(result));
process.exitCode = result.pass ? 0 : 1;
