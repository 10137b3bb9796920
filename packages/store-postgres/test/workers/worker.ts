/**
 * A separate process opening the backend, for the migration test: `worker.ts <url> <project> open`
 * runs the first operation (which applies the schema migrations) and prints "ok".
 * (The conformance kit's own children use conformance-worker.ts.)
 */
import { createPostgresBackend } from '../../src/index.js';

const [url = '', project = '', command] = process.argv.slice(2);
if (command !== 'open') throw new Error(`unknown worker command ${command}`);
const backend = createPostgresBackend({ url, project, pool: { max: 2 } });
await backend.documents.list();
process.stdout.write(`${JSON.stringify('ok')}\n`);
await backend.close();
