// One claimer process of bench/fleet-claims.mjs: runs LOOPS claim loops, each with its own backend
// (its own database connection, as separate agents would have), waits for the common start time,
// then claims and finishes items until the queue is empty. Prints one JSON line: the ids it got and
// the latency of each claim + finish (ms).
import { performance } from 'node:perf_hooks';
import { createFileBackend } from '@ratchet/store';

const [store, project, queue, owner, startAtText, loopsText = '1'] = process.argv.slice(2);
const open = async () => (store.startsWith('postgres') ? (await import('@ratchet/store-postgres')).createPostgresBackend({ url: store, project }) : createFileBackend(store));
const backends = await Promise.all(Array.from({ length: Number(loopsText) }, open));
// Warm the connections before the clock starts: connecting is not claiming.
await Promise.all(backends.map((b) => b.queues.items(`${queue}-warmup`)));
const wait = Number(startAtText) - Date.now();
if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
const ids = [];
const latencies = [];
await Promise.all(
  backends.map(async (backend, i) => {
    const me = backends.length === 1 ? owner : `${owner}.${i}`;
    for (;;) {
      const t0 = performance.now();
      const claim = await backend.queues.claim(queue, me, 60_000);
      if (claim === undefined) break;
      await backend.queues.finish(queue, claim.id, me, 'done');
      latencies.push(performance.now() - t0);
      ids.push(claim.id);
    }
  }),
);
const endedAt = Date.now();
await Promise.all(backends.map((b) => b.close()));
process.stdout.write(`${JSON.stringify({ owner, ids, latencies, endedAt })}\n`);
