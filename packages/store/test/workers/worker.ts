/**
 * A child process for the multi-process tests. It imports the package source (transpiled by
 * test/support/compile.ts) and does one job named by its JSON argument, reporting progress on stdout
 * one line at a time ("ready", "committed …", "locked …", "done …"). It exits when its stdin closes,
 * so a crashed test run leaves no process behind.
 */
import { link, unlink, writeFile, appendFile } from 'node:fs/promises';
import type * as NodeFs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { acquireLock, defineDocument, openDocument, openJsonl, withLock, type Schema } from '../../src/index.js';

export type WorkerJob =
  | { mode: 'count'; file: string; increments: number | null; timeoutMs: number; waitForGo: boolean }
  | { mode: 'append'; file: string; id: string; count: number | null; timeoutMs: number; waitForGo: boolean }
  | { mode: 'hold'; file: string; extra: Record<string, unknown>; leaseMs?: number; exitAfterLocking: boolean }
  | { mode: 'mutex'; file: string; log: string; id: string; iterations: number; deadPid: number; plantChance: number }
  | { mode: 'crash-before-rename'; file: string };

// Hand-written schemas: the same structural contract as zod (safeParse), without zod's start-up cost
// in every child process. The parent checks files with real zod schemas.
const counterSchema: Schema<{ count: number }> = {
  safeParse(input) {
    const count = (input as { count?: unknown } | null)?.count;
    if (typeof input === 'object' && input !== null && typeof count === 'number' && Number.isSafeInteger(count) && count >= 0) return { success: true, data: { count } };
    return { success: false, error: { issues: [{ path: ['count'], message: 'expected a non-negative integer' }] } };
  },
};

const recordSchema: Schema<{ w: string; i: number }> = {
  safeParse(input) {
    const r = input as { w?: unknown; i?: unknown } | null;
    if (typeof r === 'object' && r !== null && typeof r.w === 'string' && typeof r.i === 'number') return { success: true, data: { w: r.w, i: r.i } };
    return { success: false, error: { issues: [{ path: [], message: 'expected {w, i}' }] } };
  },
};

let stdinClosed = false;
process.stdin.on('end', () => {
  stdinClosed = true;
  process.exit(0);
});
process.stdin.resume();

const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

function waitForGo(): Promise<void> {
  return new Promise((resolve) => process.stdin.once('data', () => resolve()));
}

async function main(job: WorkerJob): Promise<void> {
  switch (job.mode) {
    case 'count': {
      const doc = openDocument(job.file, defineDocument({ schema: counterSchema, version: 1, initial: { count: 0 } }), { lock: { timeoutMs: job.timeoutMs } });
      say('ready');
      if (job.waitForGo) await waitForGo();
      for (let mine = 1; job.increments === null || mine <= job.increments; mine++) {
        if (stdinClosed) return;
        const next = await doc.update((draft) => {
          draft.count += 1;
        });
        say(`committed ${mine} ${next.count}`);
      }
      say('done');
      return;
    }
    case 'append': {
      const log = openJsonl(job.file, { schema: recordSchema, lock: { timeoutMs: job.timeoutMs } });
      say('ready');
      if (job.waitForGo) await waitForGo();
      for (let i = 0; job.count === null || i < job.count; i++) {
        if (stdinClosed) return;
        await log.append([{ w: job.id, i }]);
        say(`committed ${i}`);
      }
      say('done');
      return;
    }
    case 'hold': {
      const lock = await acquireLock(job.file, { extra: job.extra, ...(job.leaseMs === undefined ? {} : { leaseMs: job.leaseMs }) });
      say(`locked ${lock.token}`);
      if (job.exitAfterLocking) process.exit(0);
      await new Promise(() => undefined);
      return;
    }
    case 'mutex': {
      let planted = 0;
      const host = hostname();
      for (let n = 0; n < job.iterations; n++) {
        await withLock(
          job.file,
          async () => {
            await appendFile(job.log, `enter ${job.id}\n`);
            await sleep(1);
            await appendFile(job.log, `exit ${job.id}\n`);
          },
          { timeoutMs: 30_000 },
        );
        if (Math.random() < job.plantChance) {
          // Simulate a holder that took the lock and died: a lock file naming a dead pid on this host.
          const temp = `${job.file}.plant.${process.pid}.${randomBytes(4).toString('hex')}`;
          const holder = { pid: job.deadPid, host, time: new Date().toISOString(), token: randomBytes(16).toString('hex') };
          await writeFile(temp, JSON.stringify(holder));
          try {
            await link(temp, `${job.file}.lock`);
            planted++;
          } catch {
            // Someone holds the lock right now; plant next time.
          } finally {
            await unlink(temp);
          }
        }
      }
      say(`done ${planted}`);
      return;
    }
    case 'crash-before-rename': {
      // A real kill -9 at the one moment that matters to the digest record: the record and the kept
      // copy are renamed into place, the new data is in its temp file, and the data's rename is next.
      // node:fs's renameSync is replaced (syncBuiltinESMExports carries the change into the store's
      // ESM imports) by one that kills this process when its target is the data file.
      const fs = createRequire(import.meta.url)('node:fs') as typeof NodeFs;
      const rename = fs.renameSync;
      fs.renameSync = (from, to) => {
        if (String(to) === job.file) {
          say('crashing');
          process.kill(process.pid, 'SIGKILL');
        }
        rename(from, to);
      };
      syncBuiltinESMExports();
      const doc = openDocument(job.file, defineDocument({ schema: counterSchema, version: 1, initial: { count: 0 } }));
      await doc.update((draft) => {
        draft.count += 1;
      });
      say('survived');
      return;
    }
  }
}

main(JSON.parse(process.argv[2] ?? '{}') as WorkerJob).then(
  () => process.exit(0),
  (err: unknown) => {
    say(`error ${JSON.stringify(err instanceof Error ? { name: err.name, message: err.message } : String(err))}`);
    process.exit(1);
  },
);
