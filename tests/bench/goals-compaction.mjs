#!/usr/bin/env node
// Benchmark for @ratchet/goals audit compaction (run after `pnpm --filter @ratchet/goals... build`):
// 100,000 mutations (2,000 actions created, then priority changes, completions with evidence and goal
// progress), written as one goals state file; then the file size and the time of what `ratchet turn
// assess` does (read the state through @ratchet/store, validated, then `assess`; median of 5) before
// and after `compact` (keep 1,000 entries, 5 revert points). Prints one JSON line with the ratios;
// exits 1 when compaction does not shrink the file at least 10x or a revert to the summary's revert
// point does not give back the state as it was.
// `node tests/bench/goals-compaction.mjs [mutations]` (default 100000).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Tx, assess, completeAction, createAction, defaultRegistry, emptyState, goalsDocument, openGoals, updateAction, updateProgress, upsertGoal } from '../../packages/goals/dist/index.js';
import { openDocument } from '../../packages/store/dist/index.js';

const MUTATIONS = Number(process.argv[2] ?? 100_000);
const ACTIONS = 2000;
const GOALS = 100;
const registry = defaultRegistry();
const T0 = Date.parse('2030-01-01T00:00:00Z');
const agent = { role: 'agent' };
const user = { role: 'user', name: 'bench' };
const round = (x) => Math.round(x * 100) / 100;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The history, built in memory through the same transactions the store runs (one Tx per mutation,
// each with its audit entry): writing 100,000 versions one file write at a time would measure the disk.
const state = emptyState();
let version = 0;
function mutate(op, at, fn) {
  const tx = new Tx(state, new Date(at).toISOString(), agent);
  fn(tx);
  // A mutation that changed nothing makes no version (as in the store): only versions count.
  if (tx.finish({ op }) !== undefined) version++;
}
const t0 = performance.now();
mutate('plan', T0, (tx) => {
  for (let g = 0; g < GOALS; g++) upsertGoal(tx, { id: `g${g}`, title: `goal ${g}`, priority: g % 7 });
});
const open = [];
for (let i = 1; version < MUTATIONS; i++) {
  const at = T0 + i * 1000;
  if (i <= ACTIONS) {
    mutate('action.create', at, (tx) => createAction(tx, registry, { id: `a${i}`, type: 'agent_task', title: `action ${i}`, priority: i % 10, goal_id: `g${i % GOALS}`, ...(i % 3 === 0 ? { due_at: new Date(T0 + i * 60_000).toISOString() } : {}) }));
    open.push(`a${i}`);
    continue;
  }
  const r = i % 10;
  if (r === 9 && open.length > 500) {
    const id = open.splice(i % open.length, 1)[0];
    mutate('action.complete', at, (tx) => completeAction(tx, registry, id, { evidence_refs: [`ci/run/${i}`] }));
  } else if (r >= 6) {
    mutate('goal.progress', at, (tx) => updateProgress(tx, { goal_id: `g${i % GOALS}`, progress: (i % 101) / 100 }));
  } else {
    const id = open[i % open.length];
    mutate('action.update', at, (tx) => updateAction(tx, id, { priority: (i * 7) % 13 }));
  }
}
const buildMs = performance.now() - t0;

const dir = mkdtempSync(join(tmpdir(), 'bench-goals-compaction-'));
const path = join(dir, 'goals.json');
// The uncompacted file is over @ratchet/store's default 16 MiB limit: the CLI refuses to read it
// (file-too-large), which is the other reason to compact. The benchmark raises the limit to measure it.
const store = openGoals(path, { clock: () => T0 + MUTATIONS * 1000, maxBytes: 2 ** 30 });
// The built history, written through the store (locked, validated, atomic).
await openDocument(path, goalsDocument, { maxBytes: 2 ** 30 }).update((draft) => {
  for (const key of Object.keys(draft)) delete draft[key];
  Object.assign(draft, state);
});

function timeAssess() {
  return async () => {
    const t = performance.now();
    const read = await store.read();
    const r = assess(read, registry, { now: T0 + MUTATIONS * 1000, actions: 10, goals: 10, questions: 5 });
    if (r.actions.length === 0) throw new Error('assess found no actions');
    return performance.now() - t;
  };
}
async function measure() {
  const run = timeAssess();
  await run();
  const times = [];
  for (let i = 0; i < 5; i++) times.push(await run());
  return { bytes: statSync(path).size, assessMs: median(times) };
}

const before = await measure();
const beforeState = await store.read();
const tc = performance.now();
const result = await store.compact(registry, { keep: 1000, revertPoints: 5 }, { actor: user });
const compactMs = performance.now() - tc;
const after = await measure();

// The summary's revert point (v0) still works: everything the history created is gone again.
const point = result.revert_points[0];
const reverted = await store.revert(point, { actor: user });
const back = await store.read();
const ok = point === 0 && back.goals.length === 0 && back.actions.length === 0 && reverted.version === beforeState.version + 1;
rmSync(dir, { recursive: true, force: true });

const sizeRatio = before.bytes / after.bytes;
const assessRatio = before.assessMs / after.assessMs;
const pass = sizeRatio >= 10 && ok;
console.log(
  JSON.stringify({
    mutations: MUTATIONS,
    buildMs: round(buildMs),
    bytesBefore: before.bytes,
    bytesAfter: after.bytes,
    sizeRatio: round(sizeRatio),
    assessMsBefore: round(before.assessMs),
    assessMsAfter: round(after.assessMs),
    assessRatio: round(assessRatio),
    compactMs: round(compactMs),
    compacted: result.compacted,
    revertToPoint: ok,
    loadAverage: round(loadavg()[0]),
    pass,
  }),
);
process.exitCode = pass ? 0 : 1;
