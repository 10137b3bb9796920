import { spawn } from 'node:child_process';
import { createPostgresBackend } from '@ratchet/store-postgres';
import { startTestCluster } from '@ratchet/store-postgres/testing';
const cluster = await startTestCluster();
const N = 10_000, P = Number(process.argv[2] ?? 8);
for (const finish of ['0', '1']) {
  const project = `bench-${finish}`;
  const b = createPostgresBackend({ url: cluster.url, project });
  await b.queues.offer('q', Array.from({ length: N }, (_, i) => ({ id: `t${i}` })));
  const kids = Array.from({ length: P }, (_, i) => spawn(process.execPath, ['bench-claimer-tmp.mjs', cluster.url, project, `w${i}`, finish], { stdio: ['pipe', 'pipe', 'inherit'], cwd: process.cwd() }));
  const outs = kids.map((k) => new Promise((res) => { let s = ''; k.stdout.on('data', (d) => { s += d; if (s.startsWith('ready\n') && !k.started) { k.started = true; res.ready?.(); } }); k.on('close', () => res(s)); }));
  await Promise.all(kids.map((k) => new Promise((res) => { const on = (d) => { if (String(d).includes('ready')) { k.stdout.off('data', on); res(); } }; k.stdout.on('data', on); })));
  const t0 = performance.now();
  for (const k of kids) k.stdin.write('go\n');
  const results = (await Promise.all(outs)).map((s) => JSON.parse(s.split('\n')[1]));
  const secs = (performance.now() - t0) / 1000;
  const total = results.reduce((a, r) => a + r.n, 0);
  const lat = results.flatMap((r) => r.lat).sort((a, b) => a - b);
  const items = await b.queues.items('q');
  console.log(`${P} claimers, ${finish === '1' ? 'claim+finish' : 'claim only'}: ${total} claims in ${secs.toFixed(2)} s = ${(total / secs).toFixed(0)} claims/s, p50 ${lat[Math.floor(lat.length * 0.5)].toFixed(2)} ms, p99 ${lat[Math.floor(lat.length * 0.99)].toFixed(2)} ms, distinct claimed ${new Set(items.filter((i) => i.state !== 'ready').map((i) => i.id)).size}, max attempts ${Math.max(...items.map((i) => i.attempts))}`);
  await b.close();
}
await cluster.stop();
