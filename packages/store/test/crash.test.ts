/**
 * kill -9 as a normal operating condition: writers are SIGKILLed at random moments (waiting for the
 * lock, writing the temp file, fsyncing, renaming, releasing) and the file must always parse,
 * validate and hold a value that only moves forward; the next writer must recover the dead holder's
 * lock at once; and what killed writers leave behind must not pile up.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDocument, openDocument, openJsonl } from '../src/index.js';
import { killChild, startWorker, tempDir, type Child } from './support/children.js';

const LANES = 4; // in parallel: 2 document lanes, 2 JSONL lanes
const ROUNDS_PER_LANE = 8; // each round kills 2 writers, one at a time: 4 x 8 x 2 = 64 trials
const TRIALS_PER_LANE = ROUNDS_PER_LANE * 2;
// Short: a dead holder must be taken over at once; waiting this long would fail the trial.
const LOCK_TIMEOUT_MS = 5_000;

const counter = defineDocument({ schema: z.strictObject({ count: z.number().int().nonnegative() }), version: 1, initial: { count: 0 } });
const Record = z.strictObject({ w: z.string(), i: z.number().int().nonnegative() });

const acknowledged = (c: Child): string[] => c.lines.filter((l) => l.startsWith('committed '));

/**
 * One round: two writers loop on the same file; once both have committed, SIGKILL the first at a
 * random moment and check the file while the second is still writing (readers take no lock, so they
 * must never see a partial file), then SIGKILL the second at a random moment and check again.
 */
async function round(children: [Child, Child], check: (phase: 'one-killed' | 'both-killed') => Promise<void>): Promise<void> {
  await Promise.all(children.map((c) => c.waitFor((l) => l.startsWith('committed '), 30_000)));
  for (const [i, c] of children.entries()) {
    await sleep(Math.random() * 25);
    await killChild(c);
    expect(c.lines.filter((l) => l.startsWith('error ')), c.stderr()).toEqual([]);
    await check(i === 0 ? 'one-killed' : 'both-killed');
  }
}

/** Everything in the directory except the data file (and its digest record and kept version): locks, temp files and guards left by the killed. */
function leftovers(dir: string, name: string): string[] {
  return readdirSync(dir).filter((n) => n !== name && n !== `${name}.digest` && n !== `${name}.prev`);
}

async function documentLane(): Promise<number> {
  const dir = tempDir('ratchet-crash-doc-');
  const path = join(dir, 'counter.json');
  const doc = openDocument(path, counter);
  let previous = 0;
  let maxLeftovers = 0;
  for (let r = 0; r < ROUNDS_PER_LANE; r++) {
    const start = () => startWorker({ mode: 'count', file: path, increments: null, timeoutMs: LOCK_TIMEOUT_MS, waitForGo: false });
    const [a, b] = [start(), start()];
    const mine = (c: Child): number => Math.max(0, ...acknowledged(c).map((l) => Number(l.split(' ')[1])));
    let seen = previous;
    await round([a, b], async (phase) => {
      const ackedBefore = mine(a) + mine(b);
      // Parses, validates and matches its digest record (read() refuses anything else: a kill -9
      // between the record's rename and the data's never reads as a hand edit) and never goes back...
      const { count } = await doc.read();
      expect(count, `round ${r} ${phase}: ${readFileSync(path, 'utf8')}`).toBeGreaterThanOrEqual(Math.max(seen, previous + ackedBefore));
      seen = count;
      if (phase === 'both-killed') {
        // ...and in the end counts every acknowledged increment plus at most one in flight per writer.
        expect(count).toBeLessThanOrEqual(previous + mine(a) + mine(b) + 2);
        previous = count;
      }
      maxLeftovers = Math.max(maxLeftovers, leftovers(dir, 'counter.json').length);
    });
  }
  // Each round's writers clean up what the previous round's left, so nothing accumulates...
  // (up to two killed writers: data, digest-record and `.prev` temp files, lock temp files, the lock, a guard)
  expect(maxLeftovers).toBeLessThanOrEqual(8);
  // ...and one more update leaves the directory spotless.
  await doc.update((d) => {
    d.count++;
  });
  expect(readdirSync(dir).sort()).toEqual(['counter.json', 'counter.json.digest', 'counter.json.prev']);
  return TRIALS_PER_LANE;
}

async function jsonlLane(lane: number): Promise<number> {
  const dir = tempDir('ratchet-crash-jsonl-');
  const path = join(dir, 'log.jsonl');
  const log = openJsonl(path, { schema: Record });
  let previous: z.infer<typeof Record>[] = [];
  let maxLeftovers = 0;
  for (let r = 0; r < ROUNDS_PER_LANE; r++) {
    const ids = [`l${lane}r${r}a`, `l${lane}r${r}b`] as const;
    const children = ids.map((id) => startWorker({ mode: 'append', file: path, id, count: null, timeoutMs: LOCK_TIMEOUT_MS, waitForGo: false })) as [Child, Child];
    let seen = previous;
    await round(children, async (phase) => {
      const acked = children.map((c) => acknowledged(c).length);
      // Every line parses and validates (no torn last line), records already seen are untouched,
      // and each writer's records are exactly 0..k-1: none lost, none doubled.
      const records = await log.read();
      expect(records.slice(0, seen.length)).toEqual(seen);
      for (const [j, id] of ids.entries()) {
        const mine = records.filter((x) => x.w === id).map((x) => x.i);
        expect(mine).toEqual(mine.map((_, i) => i));
        expect(mine.length).toBeGreaterThanOrEqual(acked[j] ?? 0);
        // A killed writer has at most one record in flight.
        if (phase === 'both-killed' || j === 0) expect(mine.length).toBeLessThanOrEqual((acked[j] ?? 0) + 1);
      }
      seen = records;
      maxLeftovers = Math.max(maxLeftovers, leftovers(dir, 'log.jsonl').length);
    });
    previous = seen;
  }
  expect(maxLeftovers).toBeLessThanOrEqual(6);
  await log.append([{ w: 'final', i: 0 }]);
  expect(readdirSync(dir)).toEqual(['log.jsonl']);
  return TRIALS_PER_LANE;
}

describe('kill -9 during write loops', () => {
  it(`${LANES * TRIALS_PER_LANE} SIGKILL trials always leave a valid file holding the old or the new value`, async () => {
    const trials = await Promise.all(Array.from({ length: LANES }, (_, lane) => (lane % 2 === 0 ? documentLane() : jsonlLane(lane))));
    expect(trials.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(50);
  }, 110_000);
});
