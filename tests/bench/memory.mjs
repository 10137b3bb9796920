#!/usr/bin/env node
// Benchmark for @ratchet/memory (run after `pnpm --filter @ratchet/memory build`):
// 1. in process: 10,000 entries (7,000 failures, 3,000 patterns) of generated text; one MemoryIndex,
//    then 40 different topics (after a warm-up). Limit: median query <= 20 ms. Also reported: p95,
//    the index build (tokenising every entry once) and a cold one-shot queryMemory (build + query).
// 2. end to end: `node apps/cli/bin/ratchet.js memory query ...` on a full memory file (500 failures,
//    200 patterns: the caps) against `node -e 0`, interleaved round by round in this run.
//    Limit: ratio of medians <= 2.5. Skipped, with a note, when the built CLI has no memory command.
// Prints one JSON line; exits 1 when a limit is exceeded.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { MemoryIndex, queryMemory } from '../../packages/memory/dist/index.js';
import { VOCAB, seededWords } from './lib/seeded-words.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const NOW = Date.parse('2026-06-01T00:00:00Z');
const DAY = 86_400_000;

// Seeded generator: the same memory every run.
const { rnd, words } = seededWords(20260601);
const entry = (i) => ({
  name: `entry-${i}`,
  trigger: `${words(9)} ${['TypeError', 'ECONNREFUSED', 'ModuleNotFoundError', 'EACCES', 'SIGKILL'][i % 5]}`,
  source: [`campaign-${i % 40}`],
  access_count: i % 7,
  last_accessed: null,
  related: [],
  related_typed: {},
  times_helped: i % 4,
  times_failed: i % 3,
  created_at: new Date(NOW - Math.floor(rnd() * 120) * DAY).toISOString(),
});
const failure = (i) => ({ ...entry(i), fix: words(14), match: i % 20 === 0 ? `${VOCAB[i % VOCAB.length]}.*${VOCAB[(i + 3) % VOCAB.length]}` : null, cost: 100 + Math.floor(rnd() * 7000) });
const pattern = (i) => ({ ...entry(i), insight: words(14), saved: 100 + Math.floor(rnd() * 3500) });
const memory = (failures, patterns) => ({ failures: Array.from({ length: failures }, (_, i) => failure(i)), patterns: Array.from({ length: patterns }, (_, i) => pattern(failures + i)) });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const round = (x) => Math.round(x * 100) / 100;

// 1. In process.
const big = memory(7_000, 3_000);
const topics = Array.from({ length: 40 }, () => words(6));
let t0 = performance.now();
new MemoryIndex(big); // the first build also warms up the tokeniser
const buildMs = performance.now() - t0;
const index = new MemoryIndex(big);
for (const topic of topics.slice(0, 10)) index.query(topic, { now: NOW }); // warm-up
const queryMs = [];
let hits = 0;
for (const topic of topics) {
  t0 = performance.now();
  const r = index.query(topic, { now: NOW });
  queryMs.push(performance.now() - t0);
  hits += r.failures.length + r.patterns.length;
}
if (hits === 0) throw new Error('the generated queries found nothing: the benchmark is not exercising ranking');
const coldMs = [];
for (const topic of topics.slice(0, 5)) {
  t0 = performance.now();
  queryMemory(big, topic, { now: NOW });
  coldMs.push(performance.now() - t0);
}

const result = {
  entries: 10_000,
  queryMedianMs: round(median(queryMs)),
  queryP95Ms: round(p95(queryMs)),
  indexBuildMs: round(buildMs),
  coldQueryMedianMs: round(median(coldMs)),
  limits: { queryMedianMs: 20, endToEndRatio: 2.5 },
};

// 2. End to end through the built CLI.
// RATCHET_BENCH_CLI: another built bin/ratchet.js (its dist/ beside it), e.g. a scratch build.
const bin = process.env.RATCHET_BENCH_CLI ?? join(root, 'apps/cli/bin/ratchet.js');
const dist = join(bin, '../../dist');
let hasMemory;
try {
  hasMemory = readdirSync(dist).some((f) => f.endsWith('.js') && readFileSync(join(dist, f), 'utf8').includes('add-failure'));
} catch {
  hasMemory = false;
}
if (!hasMemory) {
  result.endToEnd = 'skipped: apps/cli/dist has no `memory` command (build the CLI: pnpm --filter @ratchet/cli build)';
} else {
  const project = mkdtempSync(join(tmpdir(), 'ratchet-bench-memory-'));
  mkdirSync(join(project, '.ratchet'));
  writeFileSync(join(project, '.ratchet/memory.json'), `${JSON.stringify({ schemaVersion: 1, ...memory(500, 200) }, null, 2)}\n`);
  const runs = Number(process.env.RATCHET_BENCH_RUNS ?? 30);
  const commands = {
    node: [process.execPath, ['-e', '0']],
    query: [process.execPath, [bin, 'memory', 'query', 'pytest fixture timeout on redis queue worker', '--cwd', project]],
  };
  const time = ([cmd, args]) => {
    const start = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return ms;
  };
  const samples = { node: [], query: [] };
  for (const k of Object.keys(commands)) time(commands[k]); // warm the file cache
  for (let i = 0; i < runs; i++) {
    const order = i % 2 ? ['query', 'node'] : ['node', 'query'];
    for (const k of order) samples[k].push(time(commands[k]));
  }
  const node = median(samples.node);
  const query = median(samples.query);
  result.endToEnd = { runs, entries: 700, nodeMedianMs: round(node), queryMedianMs: round(query), ratio: Math.round((query / node) * 1000) / 1000 };
}

result.pass = result.queryMedianMs <= 20 && (typeof result.endToEnd === 'string' || result.endToEnd.ratio <= 2.5);
console.log(JSON.stringify(result));
process.exitCode = result.pass ? 0 : 1;
