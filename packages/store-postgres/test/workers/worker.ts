/**
 * A separate process using the backend, for the multi-process tests:
 *   worker.ts <url> <project> claim <queue> <owner>        claims until empty, prints the ids
 *   worker.ts <url> <project> append <log> <n> <tag>       appends n records one by one, prints seqs
 *   worker.ts <url> <project> increment <key> <n>          n locked increments of value.n
 *   worker.ts <url> <project> hang <key>                   updates key, prints "inside", never returns
 *   worker.ts <url> <project> open                         first use (migrations), prints "ok"
 */
import { createPostgresBackend } from '../../src/index.js';

const [url = '', project = '', command, ...args] = process.argv.slice(2);
const backend = createPostgresBackend({ url, project, pool: { max: 2 } });
const print = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);

switch (command) {
  case 'claim': {
    const [queue = '', owner = ''] = args;
    const ids: string[] = [];
    for (let claim = await backend.queues.claim(queue, owner, 60_000); claim; claim = await backend.queues.claim(queue, owner, 60_000)) {
      ids.push(claim.id);
      await backend.queues.finish(queue, claim.id, owner, 'done');
    }
    print(ids);
    break;
  }
  case 'append': {
    const [log = '', n = '0', tag = ''] = args;
    const seqs: number[] = [];
    for (let i = 0; i < Number(n); i++) seqs.push(await backend.logs.append(log, [{ tag, i }]));
    print(seqs);
    break;
  }
  case 'increment': {
    const [key = '', n = '0'] = args;
    for (let i = 0; i < Number(n); i++) await backend.documents.update(key, (doc) => ({ n: ((doc?.value.n as number | undefined) ?? 0) + 1 }));
    print('ok');
    break;
  }
  case 'hang': {
    const [key = ''] = args;
    await backend.documents.update(key, async () => {
      print('inside');
      await new Promise(() => undefined);
      return { never: true };
    });
    break;
  }
  case 'open':
    await backend.documents.list();
    print('ok');
    break;
  default:
    throw new Error(`unknown worker command ${command}`);
}
await backend.close();
