#!/usr/bin/env node
// Benchmark for @ratchet/store's digest check (run after `pnpm --filter @ratchet/store build`): what
// a read of a tracked state file pays to prove Ratchet wrote it. A 1 MB document written through
// `update` (so it has a `.digest` record), then, in process, median of 15 after a warm-up:
// the check alone (`checkDigest`: read the record, compare size, SHA-256 of the text), and a whole
// `readSync` against the same read without a record (guarded read + parse + validate) as the
// baseline in the same run. A 4 KB document (a task session's size) shows the quick-hash path.
// A fresh process reading the small tracked document reports whether node:crypto got loaded
// (read-only start-up must not load it). Prints one JSON line; exits 1 when the check costs more
// than 2 ms of CPU on the 1 MB file, or node:crypto loads on a small read.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { checkDigest, defineDocument, openDocument, readTextFileSync } from '../../packages/store/dist/index.js';

const storeDist = fileURLToPath(new URL('../../packages/store/dist/index.js', import.meta.url));
const schema = { safeParse: (v) => (typeof v === 'object' && v !== null && Array.isArray(v.items) ? { success: true, data: v } : { success: false, error: { issues: [{ path: [], message: 'bad' }] } }) };
const definition = defineDocument({ schema, version: 1, initial: { items: [] } });
const dir = mkdtempSync(join(tmpdir(), 'ratchet-bench-digest-'));

async function tracked(name, bytes) {
  const path = join(dir, name);
  const items = [];
  // Written pretty-printed (2 spaces), about 1.45x the compact size of these items.
  for (let i = 0; JSON.stringify(items).length < bytes / 1.45; i++) items.push({ id: `item-${i}`, state: i % 3 ? 'open' : 'done', note: `note ${i} lorem ipsum dolor sit amet` });
  await openDocument(path, definition).update((d) => void (d.items = items));
  return path;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 1000) / 1000;
const wall = (fn, n = 15) => {
  fn();
  return median(Array.from({ length: n }, () => {
    const t0 = performance.now();
    fn();
    return performance.now() - t0;
  }));
};
const cpuPerCall = (fn, n = 20) => {
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 / n;
};

const big = await tracked('big.json', 1024 * 1024);
const small = await tracked('small.json', 4 * 1024);
const bigText = readFileSync(big, 'utf8');
const smallText = readFileSync(small, 'utf8');
const reread = (path) => () => readTextFileSync(path).text;
// The same 1 MB content without a record: the read as it was before digests.
const untracked = join(dir, 'untracked.json');
copyFileSync(big, untracked);

const check1MbMs = wall(() => checkDigest(big, bigText, reread(big)));
const check1MbCpuMs = cpuPerCall(() => checkDigest(big, bigText, reread(big)));
const check4KbMs = wall(() => checkDigest(small, smallText, reread(small)), 101);
const readSync1MbMs = wall(() => openDocument(big, definition).readSync());
const readSyncUntracked1MbMs = wall(() => openDocument(untracked, definition).readSync());
// A small update (record, copy and data: three files, two fsyncs of content and one of the directory).
const counter = openDocument(join(dir, 'counter.json'), defineDocument({ schema: { safeParse: (v) => ({ success: true, data: v }) }, version: 1, initial: { n: 0 } }));
const updateTimes = [];
for (let i = 0; i < 11; i++) {
  const t0 = performance.now();
  await counter.update((d) => void d.n++);
  updateTimes.push(performance.now() - t0);
}

// A fresh process: a read-only command reading a small tracked document must not load node:crypto.
const probe = spawnSync(
  process.execPath,
  ['--input-type=module', '-e', `const s = await import(${JSON.stringify(storeDist)}); s.openDocument(${JSON.stringify(small)}, s.defineDocument({ schema: { safeParse: (v) => ({ success: true, data: v }) }, version: 1, initial: {} })).readSync(); console.log(process.moduleLoadList.some((m) => m === 'NativeModule crypto'))`],
  { encoding: 'utf8' },
);
if (probe.status !== 0) throw new Error(`probe failed: ${probe.stderr}`);
const cryptoLoadedOnSmallRead = probe.stdout.trim() === 'true';

const pass = check1MbCpuMs <= 2 && !cryptoLoadedOnSmallRead;
console.log(
  JSON.stringify({
    fileBytes: Buffer.byteLength(bigText),
    check1MbMs: round(check1MbMs),
    check1MbCpuMs: round(check1MbCpuMs),
    check4KbMs: round(check4KbMs),
    readSync1MbMs: round(readSync1MbMs),
    readSyncUntracked1MbMs: round(readSyncUntracked1MbMs),
    readOverheadRatio: round(readSync1MbMs / readSyncUntracked1MbMs),
    updateSmallMs: round(median(updateTimes)),
    cryptoLoadedOnSmallRead,
    limits: { check1MbCpuMs: 2, cryptoLoadedOnSmallRead: false },
    loadavg: round(loadavg()[0]),
    pass,
  }),
);
process.exitCode = pass ? 0 : 1;
