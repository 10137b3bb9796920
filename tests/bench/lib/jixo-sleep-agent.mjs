#!/usr/bin/env node
// The simulated agent of tests/bench/jixo-parallel.mjs: started by `ratchet jixo run`, it reads the
// system prompt, "works" on the task the outer loop assigned it (RATCHET_JIXO_TASK, already locked
// for it) by sleeping a random 50-200 ms, then commits through `ratchet jixo task complete`. It
// appends one JSON line to $BENCH_RECORD: its task and its whole lifetime (process start to exit),
// the work the pool has to schedule.
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const env = process.env;
const start = performance.timeOrigin;
for await (const chunk of process.stdin) void chunk;
const task = env.RATCHET_JIXO_TASK ?? '';
const record = (extra) => appendFileSync(env.BENCH_RECORD, `${JSON.stringify({ runner: env.RATCHET_JIXO_RUNNER, task, start, end: performance.timeOrigin + performance.now(), ...extra })}\n`);
if (task === '') {
  record({ sleptMs: 0 });
  process.exit(0);
}
const sleptMs = 50 + Math.floor(Math.random() * 151);
await new Promise((resolve) => setTimeout(resolve, sleptMs));
const [cmd, ...pre] = env.RATCHET_JIXO_CLI.split(' ');
execFileSync(cmd, [...pre, 'jixo', 'task', 'complete', env.RATCHET_JIXO_LOG_FILE, task, '--runner', env.RATCHET_JIXO_RUNNER, '--summary', `slept ${sleptMs} ms`], { stdio: ['ignore', 'ignore', 'inherit'] });
record({ sleptMs });
