/**
 * A child process for the real-process claim test: claims ready tasks of the campaign in `root` as
 * `runner` until none is left, completing each one it gets, and prints "claimed <seq>" per claim.
 * Runs the package source through tsx (`node --import tsx --conditions=@ratchet/source`).
 */
import { claimTask, updateTask } from '../../src/index.js';

const [root, runner, complete] = process.argv.slice(2) as [string, string, string | undefined];
const store = { lock: { timeoutMs: 60_000 } };
for (;;) {
  const task = await claimTask(root, runner, { store });
  if (task === undefined) break;
  process.stdout.write(`claimed ${task.seq}\n`);
  if (complete === 'complete') await updateTask(root, task.seq, 'complete', { store, runner });
}
process.stdout.write('done\n');
