/**
 * A child process for the real-process retry test: creates the workspace of task `seq` in `root` and
 * prints "created <file>" or "refused <code>".
 */
import { basename } from 'node:path';
import { CampaignError, createWorkspace } from '../../src/index.js';

const [root, seq] = process.argv.slice(2) as [string, string];
try {
  const { path } = await createWorkspace(root, Number(seq), { store: { lock: { timeoutMs: 60_000 } } });
  process.stdout.write(`created ${basename(path)}\n`);
} catch (err) {
  if (!(err instanceof CampaignError)) throw err;
  process.stdout.write(`refused ${err.code}\n`);
}
