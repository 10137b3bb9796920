#!/usr/bin/env node
// Benchmark for @ratchet/goals (run after `pnpm --filter @ratchet/goals... build`): `assess` at
// turn start over 50,000 pending actions (plus 5,000 finished ones and 200 goals), in process,
// median of 7 after a warm-up. As a baseline measured in the same run: a full sort of the same
// actions with the same comparator (what a naive implementation would do); and assess with a query
// against assess without one. Prints one JSON line; exits 1 when assess uses more than 50 ms of CPU
// per call, or 150 ms with a query (wall times are reported beside them).
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { assess, defaultRegistry, emptyState } from '../../packages/goals/dist/index.js';

const registry = defaultRegistry();
const T0 = Date.parse('2030-01-01T00:00:00Z');
const iso = (ms) => new Date(ms).toISOString();

// Deterministic pseudo-random data (mulberry32), so every run measures the same state.
let seed = 42;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const state = emptyState();
for (let g = 0; g < 200; g++) {
  state.goals.push({ id: `g${g}`, title: `goal ${g}`, priority: Math.floor(rand() * 10), status: g % 10 === 0 ? 'paused' : 'active', progress: 0, metrics: {}, constraints: [], lineage_ids: [], evidence_refs: [], created_at: iso(T0), updated_at: iso(T0), version: 1 });
}
const types = ['agent_task', 'user_task', 'reminder', 'research', 'follow_up', 'blocker'];
const initial = { agent_task: 'open', user_task: 'open', reminder: 'scheduled', research: 'open', follow_up: 'waiting', blocker: 'open' };
const finished = { agent_task: 'done', user_task: 'done', reminder: 'done', research: 'done', follow_up: 'done', blocker: 'resolved' };
const owners = { agent_task: 'agent', user_task: 'user', reminder: 'agent', research: 'agent', follow_up: 'user', blocker: 'user' };
for (let i = 0; i < 55_000; i++) {
  const type = types[i % types.length];
  const a = {
    id: `a${i}`,
    type,
    owner: owners[type],
    title: `action ${i}`,
    priority: Math.floor(rand() * 10),
    status: i < 50_000 ? initial[type] : finished[type],
    created_by: 'agent',
    evidence_refs: [],
    metadata: {},
    created_at: iso(T0 - Math.floor(rand() * 1e9)),
    updated_at: iso(T0),
    version: 1,
  };
  if (rand() < 0.7) a.effort = 1 + Math.floor(rand() * 5);
  if (rand() < 0.5) a.due_at = iso(T0 + Math.floor((rand() - 0.3) * 1e9));
  if (rand() < 0.2) a.blocking = true;
  if (rand() < 0.6) a.goal_id = `g${Math.floor(rand() * 200)}`;
  state.actions.push(a);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 100) / 100;

function timeAssess(query) {
  const t0 = performance.now();
  const r = assess(state, registry, { now: T0, actions: 10, goals: 10, questions: 5, query });
  const ms = performance.now() - t0;
  if (r.counts.pending !== 50_000) throw new Error(`expected 50,000 pending actions, got ${r.counts.pending}`);
  return { ms, ids: r.actions.map((a) => a.action.id) };
}

// Baseline: keys computed the same way, then a full sort (O(n log n)) instead of bounded heaps.
function timeFullSort() {
  const t0 = performance.now();
  const goalPriority = new Map(state.goals.filter((g) => g.status === 'active').map((g) => [g.id, g.priority]));
  const keyed = [];
  for (const a of state.actions) {
    if (registry.types.get(a.type)?.terminal.has(a.status)) continue;
    keyed.push({ a, density: a.priority / (a.effort ?? 1), due: a.due_at ? Date.parse(a.due_at) : Infinity, blocking: a.blocking ? 1 : 0, goal: a.goal_id === undefined ? -1 : (goalPriority.get(a.goal_id) ?? -1), created: Date.parse(a.created_at), id: a.id });
  }
  keyed.sort((x, y) => y.density - x.density || (x.due === y.due ? 0 : x.due < y.due ? -1 : 1) || y.blocking - x.blocking || y.goal - x.goal || x.created - y.created || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const ms = performance.now() - t0;
  return { ms, ids: keyed.slice(0, 10).map((k) => k.a.id) };
}

timeAssess();
timeFullSort();
const runs = Array.from({ length: 7 }, timeAssess);
const sorts = Array.from({ length: 5 }, timeFullSort);
if (JSON.stringify(runs[0].ids) !== JSON.stringify(sorts[0].ids)) throw new Error(`assess and the full sort disagree: ${runs[0].ids} vs ${sorts[0].ids}`);
// CPU time per call over 20 calls: on a shared machine (load average above the core count) wall
// time mostly measures waiting for a core, so the limit applies to the CPU the call itself uses.
const cpu0 = process.cpuUsage();
for (let i = 0; i < 20; i++) timeAssess();
const cpu = process.cpuUsage(cpu0);
const assessCpuMs = (cpu.user + cpu.system) / 1000 / 20;
// With a query every pending action's title and description (and its goal's title) are tokenised to
// rank the relevant ones first: the same 20 calls, CPU per call, against the plain assess above.
const cpuQ0 = process.cpuUsage();
for (let i = 0; i < 20; i++) timeAssess('why is goal 17 action 4242 late?');
const cpuQ = process.cpuUsage(cpuQ0);
const assessQueryCpuMs = (cpuQ.user + cpuQ.system) / 1000 / 20;
const assess50kMs = median(runs.map((r) => r.ms));
const fullSort50kMs = median(sorts.map((r) => r.ms));
const pass = assessCpuMs <= 50 && assessQueryCpuMs <= 150;
console.log(
  JSON.stringify({
    assess50kMs: round(assess50kMs),
    assess50kMinMs: round(Math.min(...runs.map((r) => r.ms))),
    assessCpuMs: round(assessCpuMs),
    assessQueryCpuMs: round(assessQueryCpuMs),
    queryRatio: round(assessQueryCpuMs / assessCpuMs),
    fullSort50kMs: round(fullSort50kMs),
    ratioVsFullSort: round(assess50kMs / fullSort50kMs),
    loadAverage: round(loadavg()[0]),
    limitMs: 50,
    queryLimitMs: 150,
    pass,
  }),
);
process.exitCode = pass ? 0 : 1;
