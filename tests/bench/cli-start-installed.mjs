// CLI start-up as users get it: the CLI packed with pnpm and npm-installed into an empty project,
// timed side by side with the repository's copy and `node -e 0`, all interleaved in one run, in a
// project made by the installed `ratchet quickstart`. Users run the bin npm links into
// node_modules/.bin (a symlink with a `#!/usr/bin/env node` line), so that is what is timed for the
// installed copy; `installedNode` (node <installed bin.js>) separates the cost of that launch from
// the cost of where the files are. Limits: the start-up table's budgets (cli-start.mjs) minus 0.1,
// the margin the installed CLI must keep. Run `pnpm build` first (`pnpm bench` does).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packPackages } from '../../scripts/pack.mjs';
import { interleavedMedians } from './lib/interleave.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const repoBin = join(root, 'apps/cli/bin/ratchet.js');
const runs = Number(process.env.RATCHET_BENCH_RUNS ?? 40);

// Pack and install. The CLI is bundled: no dependencies to fetch, so this works offline.
const work = mkdtempSync(join(tmpdir(), 'ratchet-bench-installed-'));
const consumer = join(work, 'consumer');
mkdirSync(consumer);
writeFileSync(join(consumer, 'package.json'), '{ "name": "bench-consumer", "private": true }\n');
const [tarball] = packPackages([JSON.parse(readFileSync(join(root, 'apps/cli/package.json'), 'utf8'))], work);
execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball], { cwd: consumer, stdio: ['ignore', 'ignore', 'inherit'] });
const linkedBin = join(consumer, 'node_modules/.bin/ratchet');
const installedBin = join(consumer, 'node_modules/@ratchet/cli/bin/ratchet.js');

// The project: what `ratchet quickstart` leaves (its tour's files and state), plus the 20-line
// plan of cli-start.mjs and a task executing it. The tour's own task waits in POST_MORTEM, so the
// bench task has its own session file.
const project = join(work, 'project');
const setup = (args) => {
  const r = spawnSync(linkedBin, args, { cwd: project, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ratchet ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
};
mkdirSync(project);
setup(['quickstart', '--dir', project, '--quiet']);
const plan = ['# bench plan', 'set_plan bench', 'read_file protocols/fdc.fsm.json', 'plan_step_complete'];
for (let i = 0; i < 7; i++) plan.push(`create_file_with_block src/f${i}.js`, `read_file src/f${i}.js`);
plan.push('run_in_bash_session npm test', 'run_in_bash_session close');
writeFileSync(join(project, 'plan.txt'), `${plan.join('\n')}\n`);
const session = ['--session', '.ratchet/bench-session.json'];
setup(['task', 'start', '--task-id', 'bench', '--no-network', '--quiet', ...session]);
setup(['run', 'plan', 'plan.txt', '--quiet', ...session]);

const ARGS = {
  version: ['--version'],
  accept: ['fsm', 'accept', 'protocols/fdc.fsm.json', 'plan_op', 'step_op', 'read_op', 'write_op', 'tool_exec', 'close_op'],
  planLint: ['plan', 'lint', 'plan.txt'],
  runNext: ['run', 'next', ...session],
};
const commands = { node: [process.execPath, ['-e', '0']] };
for (const [name, args] of Object.entries(ARGS)) {
  commands[`repo.${name}`] = [process.execPath, [repoBin, ...args]];
  commands[`installed.${name}`] = [linkedBin, args];
}
commands['installedNode.planLint'] = [process.execPath, [installedBin, ...ARGS.planLint]];

const time = ([cmd, args]) => {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd: project, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
};
const med = interleavedMedians(Object.keys(commands), runs, (k) => time(commands[k]));
const ratio = (k) => Number((med[k] / med.node).toFixed(3));
const BUDGET = { version: 1.3, accept: 1.6, planLint: 1.6, runNext: 1.6 };
const result = {
  runs,
  medianMs: Object.fromEntries(Object.entries(med).map(([k, v]) => [k, Number(v.toFixed(1))])),
  ratios: Object.fromEntries(Object.keys(commands).filter((k) => k !== 'node').map((k) => [k, ratio(k)])),
  limits: Object.fromEntries(Object.entries(BUDGET).map(([k, budget]) => [`installed.${k}`, Number((budget - 0.1).toFixed(2))])),
};
result.pass = Object.entries(result.limits).every(([k, limit]) => result.ratios[k] <= limit);
// The consumer holds a copy of the CLI (about 3 MB): do not leave one per run in the temp directory.
rmSync(work, { recursive: true, force: true });
console.log(JSON.stringify(result));
process.exitCode = result.pass ? 0 : 1;
