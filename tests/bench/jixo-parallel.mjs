#!/usr/bin/env node
// Benchmark for the `ratchet jixo run` pool (run after `pnpm --filter @ratchet/cli build`): 8 runner
// slots on a planned job of 40 tasks; the agent (lib/jixo-sleep-agent.mjs) sleeps a random 50-200 ms
// and commits through `ratchet jixo task complete`, each command a real process.
// Work is what the pool schedules: each agent's lifetime (node start-up, the sleep, its ratchet
// command), measured inside the agent, so CPU contention on a busy machine inflates the work and the
// wall time alike. Ideal = total work / 8. The pool's wall time is from the first agent's start to the
// last one's end (`poolWallMs`); the end-to-end time of the `ratchet jixo run` process (start-up,
// assignment, the final exit) is reported beside it. Asserts (exit 1 otherwise): poolWall <= 1.3 x
// ideal, and every task completed exactly once (40 Completed, one Work Log entry and one agent each).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const TASKS = 40;
const RUNNERS = 8;
const bin = fileURLToPath(new URL('../../apps/cli/bin/ratchet.js', import.meta.url));
const agent = fileURLToPath(new URL('./lib/jixo-sleep-agent.mjs', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'jixo-parallel-'));
const tasks = Array.from({ length: TASKS }, (_, i) => `- [ ] ${i + 1}. Task ${i + 1}\n  - status: Pending`).join('\n');
writeFileSync(join(dir, 'bench.job.md'), '---\nname: bench\n---\n\nDo the 40 tasks.\n');
writeFileSync(join(dir, 'bench.log.md'), `---\ntitle: "Parallel bench"\nprogress: "0%"\n---\n\n## Roadmap\n\n${tasks}\n\n## Work Log\n`);
const recordFile = join(dir, 'agents.jsonl');
writeFileSync(recordFile, '');

const t0 = performance.now();
const r = spawnSync(process.execPath, [bin, '--json', 'jixo', 'run', 'bench.job.md', '--agent', `"${process.execPath}" "${agent}"`, '--runners', String(RUNNERS), '--agent-timeout', '60s'], {
  cwd: dir,
  encoding: 'utf8',
  env: { ...process.env, BENCH_RECORD: recordFile, NO_COLOR: '1' },
});
const endToEndMs = performance.now() - t0;
if (r.status !== 0) {
  console.error(r.stderr.slice(-3000), r.stdout);
  throw new Error(`ratchet jixo run exited ${r.status}`);
}
const result = JSON.parse(r.stdout);
const agents = readFileSync(recordFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const working = agents.filter((a) => a.task !== '');
const workMs = agents.reduce((s, a) => s + (a.end - a.start), 0);
const poolWallMs = Math.max(...agents.map((a) => a.end)) - Math.min(...agents.map((a) => a.start));
const idealMs = workMs / RUNNERS;
const sleptMs = working.reduce((s, a) => s + a.sleptMs, 0);

// Every task completed exactly once: by one agent, with one Work Log entry, Completed in the roadmap.
const log = readFileSync(join(dir, 'bench.log.md'), 'utf8');
const problems = [];
const byTask = new Map();
for (const a of working) byTask.set(a.task, (byTask.get(a.task) ?? 0) + 1);
for (let i = 1; i <= TASKS; i++) {
  if (byTask.get(String(i)) !== 1) problems.push(`task ${i} done by ${byTask.get(String(i)) ?? 0} agents`);
  const entries = log.match(new RegExp(`- \\*\\*Objective\\*\\*: Task ${i}\\. Task ${i}\\n`, 'g')) ?? [];
  if (entries.length !== 1) problems.push(`task ${i} has ${entries.length} Work Log entries`);
}
if ((log.match(/status: Completed/g) ?? []).length !== TASKS) problems.push('not every task is Completed');
if (result.status !== 'completed' || result.exit?.code !== 0) problems.push(`run status ${result.status}`);

const ratio = poolWallMs / idealMs;
const pass = problems.length === 0 && ratio <= 1.3;
const round = (x) => Math.round(x);
console.log(
  JSON.stringify({
    bench: 'jixo-parallel',
    runners: RUNNERS,
    tasks: TASKS,
    agentRuns: agents.length,
    workMs: round(workMs),
    sleptMs,
    idealMs: round(idealMs),
    poolWallMs: round(poolWallMs),
    ratioToIdeal: Math.round(ratio * 100) / 100,
    endToEndMs: round(endToEndMs),
    endToEndRatioToIdeal: Math.round((endToEndMs / idealMs) * 100) / 100,
    problems,
    pass,
  }),
);
process.exit(pass ? 0 : 1);
