// One builder of bench/dashboard.mjs: once loaded it prints "ready" and waits for a line on stdin
// (so 50 processes' start-up is not part of the measurement); then for SECONDS it claims the next
// ready campaign task with a lease, works on it for about WORK ms, and completes it, as
// `ratchet campaign ready --claim R --lease` and `update-task <seq> complete --runner R` do (the
// same library calls, in one process per builder). Prints one JSON line: how many it claimed, and
// when each of its changes landed.
import { claimTaskLeased, updateTask } from '@ratchet/campaign-dag';
import { createFileBackend } from '@ratchet/store';

const [root, store, project, runner, secondsText, workText = '0'] = process.argv.slice(2);
const backend = store === 'file' ? createFileBackend(root) : (await import('@ratchet/store-postgres')).createPostgresBackend({ url: store, project });
const options = { backend };
// Connected before the start: connecting is not claiming.
await backend.queues.items('warm-up');
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const endText = String(Date.now() + Number(secondsText) * 1000);
let claimed = 0;
let errors = 0;
/** When each of its changes landed (ms since the epoch): a claim, then a completion. */
const changes = [];
while (Date.now() < Number(endText)) {
  try {
    const got = await claimTaskLeased(root, runner, 5 * 60_000, options);
    if (got === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    claimed++;
    changes.push(Date.now());
    await new Promise((resolve) => setTimeout(resolve, Number(workText) * (0.5 + Math.random())));
    await updateTask(root, got.task.seq, 'complete', { ...options, runner });
    changes.push(Date.now());
  } catch {
    // A lock timeout under contention: the builder tries again, as a real one would.
    errors++;
  }
}
await backend.close();
process.stdout.write(`${JSON.stringify({ runner, claimed, errors, changes })}\n`);
