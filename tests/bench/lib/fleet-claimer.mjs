// One claimer process of bench/fleet-claims.mjs: opens its own backend (PostgreSQL URL or a file
// root), waits for the common start time, then claims and finishes items until the queue is empty.
// Prints one JSON line: the ids it got and the latency of each claim (ms).
import { performance } from 'node:perf_hooks';
import { createFileBackend } from '@ratchet/store';

const [store, project, queue, owner, startAtText] = process.argv.slice(2);
const backend = store.startsWith('postgres') ? await (await import('@ratchet/store-postgres')).createPostgresBackend({ url: store, project }) : createFileBackend(store);
// Warm the connection before the clock starts: connecting is not claiming.
await backend.queues.items(`${queue}-warmup`);
const wait = Number(startAtText) - Date.now();
if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
const ids = [];
const latencies = [];
for (;;) {
  const t0 = performance.now();
  const claim = await backend.queues.claim(queue, owner, 60_000);
  if (claim === undefined) break;
  await backend.queues.finish(queue, claim.id, owner, 'done');
  latencies.push(performance.now() - t0);
  ids.push(claim.id);
}
await backend.close();
process.stdout.write(`${JSON.stringify({ owner, ids, latencies, endedAt: Date.now() })}\n`);
