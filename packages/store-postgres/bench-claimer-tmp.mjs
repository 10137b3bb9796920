import { createPostgresBackend } from '@ratchet/store-postgres';
const [url, project, owner, finish] = process.argv.slice(2);
const b = createPostgresBackend({ url, project, pool: { max: 1 } });
await b.queues.items('none'); // connect + migrate before the clock starts
process.stdout.write('ready\n');
await new Promise((r) => process.stdin.once('data', r));
let n = 0; const lat = [];
for (;;) {
  const t = performance.now();
  const c = await b.queues.claim('q', owner, 600_000);
  lat.push(performance.now() - t);
  if (!c) break;
  n++;
  if (finish === '1') await b.queues.finish('q', c.id, owner, 'done');
}
process.stdout.write(JSON.stringify({ n, lat }) + '\n');
await b.close();
