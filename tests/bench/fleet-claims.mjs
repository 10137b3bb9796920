#!/usr/bin/env node
// Fleet claims (issue 21): claimers in two process groups with separate working directories ("two
// machines") draining one queue of 10,000 tasks in one PostgreSQL database from startTestCluster().
// A claim here is the storage port's claim + finish (what `campaign ready --claim --lease` does in
// the queue, without the campaign.json write); every claimer has its own connection. Reports
// claims/s, p99 latency and double claims (must be 0) for 1, 2, 4, 8 and 16 claimers in two layouts:
// - per-machine: each machine is one process running its claimers' loops (a long-lived runner such
//   as `jixo run` or the MCP server, one connection per agent);
// - per-process: every claimer its own node process (16 node processes on 2 cores: this measures
//   the machine's CPU as much as the database);
// and the file backend (16 processes, one root, fewer tasks: each claim rewrites the queue
// document), all in the same run after an unreported warm-up round. Asserts: no double claim, every
// task claimed, and >= 2,000 claims/s with 16 claimers per-machine (FLEET_MIN_RATE overrides).
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFileBackend } from '@ratchet/store';
import { createPostgresBackend } from '@ratchet/store-postgres';
import { startTestCluster } from '@ratchet/store-postgres/testing';

const TASKS = Number(process.env.FLEET_TASKS ?? 10_000);
const FILE_TASKS = Number(process.env.FLEET_FILE_TASKS ?? 300);
const CURVE = [1, 2, 4, 8, 16];
const MIN_RATE = Number(process.env.FLEET_MIN_RATE ?? 2000);
const claimer = fileURLToPath(new URL('./lib/fleet-claimer.mjs', import.meta.url));
const benchDir = fileURLToPath(new URL('.', import.meta.url));

function runClaimer(cwd, store, project, queue, owner, startAt, loops = 1) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [claimer, store, project, queue, owner, String(startAt), String(loops)], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_PATH: join(benchDir, '..', 'node_modules') } });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop())) : reject(new Error(`claimer ${owner} exited ${code}: ${err.slice(-2000)}`))));
  });
}

async function round({ label, store, project, claimers, tasks, seed, perMachine = false }) {
  const queue = `bench/${label}`;
  await seed.queues.offer(queue, Array.from({ length: tasks }, (_, i) => ({ id: String(i + 1), priority: i })));
  // Two "machines": half the claimers run in one directory, half in another; nothing shared on disk
  // but the database (for the file backend, the root they are given).
  const machines = [mkdtempSync(join(tmpdir(), 'fleet-m1-')), mkdtempSync(join(tmpdir(), 'fleet-m2-'))];
  const startAt = Date.now() + 1500 + claimers * 150;
  const results = perMachine
    ? await Promise.all(machines.slice(0, Math.min(claimers, 2)).map((dir, m) => runClaimer(dir, store, project, queue, `${label}-m${m + 1}`, startAt, Math.ceil((claimers - m) / 2))))
    : await Promise.all(Array.from({ length: claimers }, (_, i) => runClaimer(machines[i % 2], store, project, queue, `${label}-m${(i % 2) + 1}-c${i}`, startAt)));
  const endedAt = Math.max(...results.map((r) => r.endedAt));
  const ids = results.flatMap((r) => r.ids);
  const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const double = ids.length - new Set(ids).size;
  const seconds = (endedAt - startAt) / 1000;
  return {
    label,
    claimers,
    tasks,
    claimed: new Set(ids).size,
    doubleClaims: double,
    claimsPerSecond: Math.round(ids.length / seconds),
    p50Ms: Number(latencies[Math.floor(latencies.length * 0.5)]?.toFixed(2)),
    p99Ms: Number(latencies[Math.floor(latencies.length * 0.99)]?.toFixed(2)),
  };
}

const cluster = await startTestCluster();
const out = { tasks: TASKS, fileTasks: FILE_TASKS, postgres: [], file: undefined };
try {
  const project = 'fleet-bench';
  const seed = await createPostgresBackend({ url: cluster.url, project });
  try {
    // Unreported warm-up: on a fresh database the first rounds run before autovacuum has analyzed
    // the queue table, and the claim plan without statistics scans it (5 ms a claim instead of 0.5).
    await round({ label: 'warmup', store: cluster.url, project, claimers: 2, tasks: 2000, seed });
    await seed.queues.items('bench/warmup');
    for (const perMachine of [true, false]) {
      for (const n of CURVE) {
        const layout = perMachine ? 'per-machine' : 'per-process';
        const r = { layout, ...(await round({ label: `pg-${layout}-${n}`, store: cluster.url, project, claimers: n, tasks: TASKS, seed, perMachine })) };
        out.postgres.push(r);
        process.stderr.write(`postgres ${n} claimer(s), ${layout}: ${JSON.stringify(r)}\n`);
      }
    }
  } finally {
    await seed.close();
  }
  const root = mkdtempSync(join(tmpdir(), 'fleet-file-'));
  mkdirSync(join(root, '.ratchet'));
  const fileSeed = createFileBackend(root);
  out.file = await round({ label: 'file-16', store: root, project, claimers: 16, tasks: FILE_TASKS, seed: fileSeed });
  process.stderr.write(`file 16 claimers: ${JSON.stringify(out.file)}\n`);
  await fileSeed.close();
} finally {
  await cluster.stop();
}

const sixteen = out.postgres.find((r) => r.claimers === 16 && r.layout === 'per-machine');
const sixteenProcesses = out.postgres.find((r) => r.claimers === 16 && r.layout === 'per-process');
const single = out.postgres.find((r) => r.claimers === 1 && r.layout === 'per-machine');
const problems = [];
for (const r of [...out.postgres, out.file]) {
  if (r.doubleClaims !== 0) problems.push(`${r.label}: ${r.doubleClaims} double claims`);
  if (r.claimed !== r.tasks) problems.push(`${r.label}: ${r.claimed} of ${r.tasks} claimed`);
}
if (sixteen.claimsPerSecond < MIN_RATE) problems.push(`postgres 16 claimers (per-machine): ${sixteen.claimsPerSecond} claims/s < ${MIN_RATE}`);
const summary = {
  ok: problems.length === 0,
  problems,
  postgres16PerSecond: sixteen.claimsPerSecond,
  postgres16P99Ms: sixteen.p99Ms,
  postgres16ProcessesPerSecond: sixteenProcesses.claimsPerSecond,
  postgres16ProcessesP99Ms: sixteenProcesses.p99Ms,
  postgres1PerSecond: single.claimsPerSecond,
  file16PerSecond: out.file.claimsPerSecond,
  speedupOverFile: Number((sixteen.claimsPerSecond / out.file.claimsPerSecond).toFixed(1)),
  curve: Object.fromEntries(['per-machine', 'per-process'].map((layout) => [layout, Object.fromEntries(out.postgres.filter((r) => r.layout === layout).map((r) => [r.claimers, r.claimsPerSecond]))])),
  rounds: [...out.postgres, out.file],
};
console.log(JSON.stringify(summary));
process.exitCode = problems.length === 0 ? 0 : 1;
