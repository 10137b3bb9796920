/**
 * `@ratchet/store/conformance`: the storage port's semantics as one vitest suite, parameterised by
 * backend. Every backend (the file backend, `@ratchet/store-postgres`, a third-party adapter) runs
 * it from its own tests:
 *
 * ```ts
 * import { describeStorageConformance } from '@ratchet/store/conformance';
 * describeStorageConformance({
 *   name: 'my backend',
 *   create: () => createMyBackend(config),          // a backend for one test
 *   workerModule: '/abs/path/worker.js',             // exports createBackend(), for child processes
 *   reset: () => dropEverything(config),             // clear state between tests
 * });
 * ```
 *
 * Child processes inherit the environment (plus `RATCHET_CONFORMANCE_LOCATION`, the location of the
 * backend `create()` returned), so pass the adapter's configuration through environment variables.
 * Not loaded by `@ratchet/store`'s main entry: vitest is an optional peer dependency.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JsonObject, StorageBackend } from '../port/storage-port.js';
import { runTogether, startChild } from './child.js';

export interface ConformanceOptions {
  /** Shown in the suite's name. */
  name: string;
  /** A backend for one test (closed after it). Called after `reset`. */
  create: () => StorageBackend | Promise<StorageBackend>;
  /** Absolute path of an ES module exporting `createBackend(): Promise<StorageBackend>` for child processes. */
  workerModule: string;
  /** Clears all state before each test (backends whose `create()` does not start empty). */
  reset?: () => void | Promise<void>;
  /**
   * Backend-specific checks (schema migrations applied once, a newer schema refused, ...), registered
   * inside the suite: call vitest's `it` here. `backend()` is the backend of the running test.
   */
  capabilities?: (context: { backend: () => StorageBackend }) => void;
  /** How many processes the concurrency checks start (default 4) and operations each does (default 25). */
  processes?: number;
  operations?: number;
  /** Per-test timeout for the multi-process checks, in ms (default 180 000: a busy machine must not fail them). */
  processTimeoutMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `fn` and returns what it threw (fails the test if it did not throw). */
async function thrown(fn: () => Promise<unknown>): Promise<{ code?: string; message: string } & Record<string, unknown>> {
  try {
    await fn();
  } catch (err) {
    return err as { code?: string; message: string } & Record<string, unknown>;
  }
  throw new Error('expected the operation to be refused, but it succeeded');
}

export function describeStorageConformance(options: ConformanceOptions): void {
  const N = options.processes ?? 4;
  const M = options.operations ?? 25;
  const slow = options.processTimeoutMs ?? 180_000;
  let current: StorageBackend | undefined;
  const backend = (): StorageBackend => {
    if (current === undefined) throw new Error('no backend: create() has not run for this test');
    return current;
  };
  const childEnv = (): Record<string, string> => ({ RATCHET_CONFORMANCE_LOCATION: backend().location });

  describe(`storage port conformance: ${options.name}`, () => {
    beforeEach(async () => {
      await options.reset?.();
      current = await options.create();
    });
    afterEach(async () => {
      await current?.close();
      current = undefined;
    });

    describe('documents', () => {
      it('get of a missing document is undefined; each write adds one revision; values round-trip exactly', async () => {
        const docs = backend().documents;
        expect(await docs.get('conf/a.json')).toBeUndefined();
        const value = { zeta: 1, alpha: [1, 2.5, { y: null, b: 'ü ✓ "quoted"\n' }], nested: { deep: { deeper: [true, false] } }, big: 1e21, neg: -3 };
        const first = await docs.update('conf/a.json', () => value);
        expect(first).toEqual({ key: 'conf/a.json', value, revision: 1 });
        const got = await docs.get('conf/a.json');
        expect(got?.revision).toBe(1);
        // Exactly: same keys in the same order (no jsonb-style reordering).
        expect(JSON.stringify(got?.value)).toBe(JSON.stringify(value));
        const second = await docs.update('conf/a.json', (cur) => ({ ...cur?.value, zeta: 2 }));
        expect(second?.revision).toBe(2);
        expect((await docs.get('conf/a.json'))?.value.zeta).toBe(2);
      });

      it('the updater sees the current document; returning undefined writes nothing', async () => {
        const docs = backend().documents;
        expect(await docs.update('conf/none.json', () => undefined)).toBeUndefined();
        expect(await docs.get('conf/none.json')).toBeUndefined();
        expect(await docs.list('conf/')).not.toContain('conf/none.json');
        await docs.update('conf/b.json', () => ({ n: 1 }));
        let seen: unknown;
        const same = await docs.update('conf/b.json', (cur) => {
          seen = cur;
          return undefined;
        });
        expect(seen).toEqual({ key: 'conf/b.json', value: { n: 1 }, revision: 1 });
        expect(same).toEqual({ key: 'conf/b.json', value: { n: 1 }, revision: 1 });
        expect((await docs.get('conf/b.json'))?.revision).toBe(1);
      });

      it('an updater that throws (even after mutating what it was given) writes nothing', async () => {
        const docs = backend().documents;
        await docs.update('conf/c.json', () => ({ n: 1, list: [1] }));
        await expect(
          docs.update('conf/c.json', (cur) => {
            (cur?.value.list as number[]).push(2);
            throw new Error('abort');
          }),
        ).rejects.toThrow('abort');
        expect(await docs.get('conf/c.json')).toEqual({ key: 'conf/c.json', value: { n: 1, list: [1] }, revision: 1 });
      });

      it('delete removes a document (false when absent); a re-created one starts at revision 1', async () => {
        const docs = backend().documents;
        await docs.update('conf/d.json', () => ({ n: 1 }));
        await docs.update('conf/d.json', () => ({ n: 2 }));
        expect(await docs.delete('conf/d.json')).toBe(true);
        expect(await docs.delete('conf/d.json')).toBe(false);
        expect(await docs.get('conf/d.json')).toBeUndefined();
        const again = await docs.update('conf/d.json', () => ({ n: 3 }), { expectedRevision: 0 });
        expect(again?.revision).toBe(1);
      });

      it('list returns existing keys with the prefix, sorted', async () => {
        const docs = backend().documents;
        for (const key of ['list/b.json', 'list/a.json', 'list/sub/c.json', 'other/x.json']) await docs.update(key, () => ({ key }));
        expect(await docs.list('list/')).toEqual(['list/a.json', 'list/b.json', 'list/sub/c.json']);
        expect(await docs.list('list/sub/')).toEqual(['list/sub/c.json']);
        const all = await docs.list();
        expect(all).toEqual(expect.arrayContaining(['list/a.json', 'other/x.json']));
        expect([...all].sort()).toEqual(all);
      });

      it('expectedRevision: the stored revision must match (0 = must not exist), else revision-conflict and nothing written', async () => {
        const docs = backend().documents;
        await docs.update('conf/e.json', () => ({ v: 'one' }), { expectedRevision: 0 });
        const conflict = await thrown(() => docs.update('conf/e.json', () => ({ v: 'two' }), { expectedRevision: 0 }));
        expect(conflict).toMatchObject({ code: 'revision-conflict', expected: 0, actual: 1 });
        await docs.update('conf/e.json', () => ({ v: 'two' }), { expectedRevision: 1 });
        const stale = await thrown(() => docs.update('conf/e.json', () => ({ v: 'three' }), { expectedRevision: 1 }));
        expect(stale).toMatchObject({ code: 'revision-conflict', expected: 1, actual: 2 });
        expect(await docs.get('conf/e.json')).toMatchObject({ value: { v: 'two' }, revision: 2 });
        const absent = await thrown(() => docs.update('conf/absent.json', () => ({ v: 1 }), { expectedRevision: 3 }));
        expect(absent).toMatchObject({ code: 'revision-conflict', expected: 3, actual: 0 });
        expect(await docs.get('conf/absent.json')).toBeUndefined();
      });

      it('a document over limits.maxDocumentBytes is refused before anything is written', async (context) => {
        const max = backend().limits.maxDocumentBytes;
        if (max > 64 * 1024 * 1024) {
          context.skip();
          return;
        }
        const docs = backend().documents;
        await docs.update('conf/big.json', () => ({ small: true }));
        const err = await thrown(() => docs.update('conf/big.json', () => ({ blob: 'x'.repeat(max + 1) })));
        expect(err.code).toBe('document-too-large');
        expect(await docs.get('conf/big.json')).toMatchObject({ value: { small: true }, revision: 1 });
        const fresh = await thrown(() => docs.update('conf/big-new.json', () => ({ blob: 'x'.repeat(max + 1) })));
        expect(fresh.code).toBe('document-too-large');
        expect(await docs.get('conf/big-new.json')).toBeUndefined();
      });

      it('in-process concurrent updates lose nothing', async () => {
        const docs = backend().documents;
        await Promise.all(Array.from({ length: 20 }, () => docs.update('conf/counter.json', (cur) => ({ count: ((cur?.value.count as number | undefined) ?? 0) + 1 }))));
        expect(await docs.get('conf/counter.json')).toMatchObject({ value: { count: 20 }, revision: 20 });
      });
    });

    describe('logs', () => {
      it('appends return the first seq; seqs are 1-based and gap-free; read honours after and limit', async () => {
        const logs = backend().logs;
        expect(await logs.read('conf/log.jsonl')).toEqual([]);
        expect(await logs.append('conf/log.jsonl', [{ a: 1 }, 'two', 3, null, [4]])).toBe(1);
        expect(await logs.append('conf/log.jsonl', [{ b: true }])).toBe(6);
        const all = await logs.read('conf/log.jsonl');
        expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
        expect(all.map((e) => e.record)).toEqual([{ a: 1 }, 'two', 3, null, [4], { b: true }]);
        expect((await logs.read('conf/log.jsonl', { after: 2, limit: 2 })).map((e) => e.seq)).toEqual([3, 4]);
        expect(await logs.read('conf/log.jsonl', { after: 6 })).toEqual([]);
      });

      it('an append is all or none: one bad record and nothing is appended', async () => {
        const logs = backend().logs;
        await logs.append('conf/atomic.jsonl', [{ ok: 1 }]);
        const err = await thrown(() => logs.append('conf/atomic.jsonl', [{ ok: 2 }, { bad: Number.NaN }]));
        expect(err.code).toBe('validation-error');
        expect((await logs.read('conf/atomic.jsonl')).map((e) => e.record)).toEqual([{ ok: 1 }]);
        expect(await logs.append('conf/atomic.jsonl', [{ ok: 3 }])).toBe(2);
      });

      it('list returns non-empty logs with the prefix, sorted', async () => {
        const logs = backend().logs;
        await logs.append('conf/logs/b.jsonl', [1]);
        await logs.append('conf/logs/a.jsonl', [1]);
        await logs.append('conf/elsewhere.jsonl', [1]);
        expect(await logs.list('conf/logs/')).toEqual(['conf/logs/a.jsonl', 'conf/logs/b.jsonl']);
      });

      it('a log key must end in .jsonl: others are refused with invalid-key and nothing is appended', async () => {
        const logs = backend().logs;
        expect((await thrown(() => logs.append('conf/log.json', [1]))).code).toBe('invalid-key');
        expect((await thrown(() => logs.read('conf/log.json'))).code).toBe('invalid-key');
        expect(await logs.list('conf/')).toEqual([]);
      });
    });

    describe('queues', () => {
      it('offer adds new items only (idempotent) and claims go by priority, then offer order', async () => {
        const queues = backend().queues;
        expect(await queues.offer('conf/q', [{ id: 'late', priority: 5 }, { id: 'a' }, { id: 'b' }, { id: 'urgent', priority: -1 }])).toBe(4);
        expect(await queues.offer('conf/q', [{ id: 'a' }, { id: 'c' }])).toBe(1);
        const order: string[] = [];
        for (;;) {
          const claim = await queues.claim('conf/q', 'w1', 60_000);
          if (claim === undefined) break;
          expect(claim).toMatchObject({ owner: 'w1', attempt: 1 });
          expect(Date.parse(claim.leaseUntil)).toBeGreaterThan(Date.now() + 30_000);
          order.push(claim.id);
        }
        expect(order).toEqual(['urgent', 'a', 'b', 'c', 'late']);
        // Offering a claimed item again leaves it claimed.
        expect(await queues.offer('conf/q', [{ id: 'a' }])).toBe(0);
        expect((await queues.items('conf/q')).find((i) => i.id === 'a')).toMatchObject({ state: 'claimed', owner: 'w1', attempts: 1 });
        expect(await queues.list('conf/')).toEqual(['conf/q']);
      });

      it('concurrent claimers in one process never get the same item', async () => {
        const queues = backend().queues;
        await queues.offer('conf/race', Array.from({ length: 6 }, (_, i) => ({ id: `t${i}` })));
        const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => queues.claim('conf/race', `w${i}`, 60_000)));
        const ids = claims.filter((c) => c !== undefined).map((c) => c.id);
        expect(ids).toHaveLength(6);
        expect(new Set(ids).size).toBe(6);
      });

      it('finish done ends an item, finish ready gives it back; a wrong owner is refused with lease-lost', async () => {
        const queues = backend().queues;
        await queues.offer('conf/fin', [{ id: 'x' }, { id: 'y' }]);
        const x = await queues.claim('conf/fin', 'w1', 60_000);
        expect(x?.id).toBe('x');
        expect((await thrown(() => queues.finish('conf/fin', 'x', 'intruder', 'done'))).code).toBe('lease-lost');
        expect((await thrown(() => queues.heartbeat('conf/fin', 'x', 'intruder', 60_000))).code).toBe('lease-lost');
        expect((await thrown(() => queues.finish('conf/fin', 'nope', 'w1', 'done'))).code).toBe('lease-lost');
        await queues.finish('conf/fin', 'x', 'w1', 'ready');
        const again = await queues.claim('conf/fin', 'w2', 60_000);
        expect(again).toMatchObject({ id: 'x', owner: 'w2', attempt: 2 });
        await queues.finish('conf/fin', 'x', 'w2', 'done');
        expect((await thrown(() => queues.finish('conf/fin', 'x', 'w2', 'done'))).code).toBe('lease-lost');
        expect((await queues.claim('conf/fin', 'w3', 60_000))?.id).toBe('y');
        expect(await queues.claim('conf/fin', 'w3', 60_000)).toBeUndefined();
        const items = await queues.items('conf/fin');
        expect(items.map((i) => [i.id, i.state])).toEqual([
          ['x', 'done'],
          ['y', 'claimed'],
        ]);
        expect(await queues.lostAttempts('conf/fin')).toEqual([]);
      });

      it('an expired lease makes the item claimable again and records the lost attempt; the old owner is refused', async () => {
        const queues = backend().queues;
        await queues.offer('conf/lease', [{ id: 'job' }]);
        const first = await queues.claim('conf/lease', 'crashed', 300);
        expect(first?.attempt).toBe(1);
        expect(await queues.claim('conf/lease', 'other', 60_000)).toBeUndefined();
        await sleep(700);
        expect((await queues.items('conf/lease'))[0]).toMatchObject({ state: 'claimed', owner: 'crashed', expired: true });
        const second = await queues.claim('conf/lease', 'rescuer', 60_000);
        expect(second).toMatchObject({ id: 'job', owner: 'rescuer', attempt: 2, recovered: { id: 'job', owner: 'crashed', attempt: 1, leaseUntil: first?.leaseUntil } });
        expect(Date.parse(second?.recovered?.recoveredAt ?? '')).toBeGreaterThanOrEqual(Date.parse(first?.leaseUntil ?? ''));
        expect(await queues.lostAttempts('conf/lease')).toEqual([second?.recovered]);
        expect((await thrown(() => queues.heartbeat('conf/lease', 'job', 'crashed', 60_000))).code).toBe('lease-lost');
        expect((await thrown(() => queues.finish('conf/lease', 'job', 'crashed', 'done'))).code).toBe('lease-lost');
        await queues.finish('conf/lease', 'job', 'rescuer', 'done');
      }, 30_000);

      it('a heartbeat extends a live lease; once lost, it is refused', async () => {
        const queues = backend().queues;
        await queues.offer('conf/hb', [{ id: 'job' }]);
        const claim = await queues.claim('conf/hb', 'w1', 400);
        await sleep(150);
        const renewed = await queues.heartbeat('conf/hb', 'job', 'w1', 5_000);
        expect(Date.parse(renewed.leaseUntil)).toBeGreaterThan(Date.parse(claim?.leaseUntil ?? ''));
        await sleep(500); // past the first lease
        expect(await queues.claim('conf/hb', 'w2', 60_000)).toBeUndefined();
        await queues.heartbeat('conf/hb', 'job', 'w1', 200);
        await sleep(500);
        expect((await thrown(() => queues.heartbeat('conf/hb', 'job', 'w1', 60_000))).code).toBe('lease-lost');
      }, 30_000);
    });

    describe('locks', () => {
      it('are exclusive; release frees them; a second release is false', async () => {
        const locks = backend().locks;
        const lease = await locks.tryAcquire('conf/lock', 'a', 60_000);
        expect(lease).toMatchObject({ name: 'conf/lock', owner: 'a' });
        expect(await locks.tryAcquire('conf/lock', 'b', 60_000)).toBeUndefined();
        expect(await locks.holder('conf/lock')).toMatchObject({ owner: 'a', token: lease?.token });
        expect(await locks.release(lease as NonNullable<typeof lease>)).toBe(true);
        expect(await locks.release(lease as NonNullable<typeof lease>)).toBe(false);
        expect(await locks.holder('conf/lock')).toBeUndefined();
        const b = await locks.tryAcquire('conf/lock', 'b', 60_000);
        expect(b?.token).not.toBe(lease?.token);
      });

      it('renew extends a held lease; an expired lease is recovered by another owner and the stale token is refused', async () => {
        const locks = backend().locks;
        const lease = await locks.tryAcquire('conf/expiring', 'a', 300);
        if (lease === undefined) throw new Error('tryAcquire returned undefined for a free lock');
        const renewed = await locks.renew(lease, 400);
        expect(Date.parse(renewed.leaseUntil)).toBeGreaterThanOrEqual(Date.parse(lease.leaseUntil));
        expect(renewed.token).toBe(lease.token);
        await sleep(800);
        expect(await locks.holder('conf/expiring')).toBeUndefined();
        const taken = await locks.tryAcquire('conf/expiring', 'b', 60_000);
        expect(taken?.owner).toBe('b');
        expect((await thrown(() => locks.renew(lease, 60_000))).code).toBe('lease-lost');
        expect(await locks.release(lease)).toBe(false);
        expect(await locks.holder('conf/expiring')).toMatchObject({ owner: 'b' });
      }, 30_000);
    });

    describe('bad data is refused and nothing is written', () => {
      const refusedValues: [string, () => unknown][] = [
        ['an array', () => [1, 2]],
        ['a string', () => 'text'],
        ['null', () => null],
        ['a number', () => 42],
        ['NaN inside', () => ({ n: Number.NaN })],
        ['Infinity inside', () => ({ n: Number.POSITIVE_INFINITY })],
        ['undefined inside', () => ({ n: undefined })],
        ['a Date inside', () => ({ when: new Date(0) })],
        ['a __proto__ key', () => JSON.parse('{"ok":1,"__proto__":{"polluted":true}}') as unknown],
        ['a constructor key', () => ({ nested: { constructor: { prototype: 1 } } })],
        ['nesting 10 000 deep', () => {
          let deep: JsonObject = { leaf: true };
          for (let i = 0; i < 10_000; i++) deep = { d: deep };
          return deep;
        }],
      ];
      it.each(refusedValues)('document value: %s', async (_what, make) => {
        const docs = backend().documents;
        await docs.update('bad/doc.json', () => ({ good: true }));
        const err = await thrown(() => docs.update('bad/doc.json', () => make() as JsonObject));
        expect(typeof err.code).toBe('string');
        expect(await docs.get('bad/doc.json')).toEqual({ key: 'bad/doc.json', value: { good: true }, revision: 1 });
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      });

      const hostileKeys = ['../escape.json', '/etc/passwd', 'a\\b.json', 'nul\0.json', '', 'a//b.json', 'a/./b.json', 'trailing/'];
      it.each(hostileKeys.map((k) => [JSON.stringify(k), k]))('hostile key %s on every store', async (_shown, key) => {
        const b = backend();
        const before = await b.documents.list();
        expect((await thrown(() => b.documents.update(key, () => ({ x: 1 })))).code).toBe('invalid-key');
        expect((await thrown(() => b.documents.get(key))).code).toBe('invalid-key');
        expect((await thrown(() => b.logs.append(key, [1]))).code).toBe('invalid-key');
        expect((await thrown(() => b.queues.offer(key, [{ id: 'x' }]))).code).toBe('invalid-key');
        expect((await thrown(() => b.locks.tryAcquire(key, 'o', 1_000))).code).toBe('invalid-key');
        expect(await b.documents.list()).toEqual(before);
      });

      it('a log record that is not JSON is refused', async () => {
        const logs = backend().logs;
        for (const bad of [Number.NaN, undefined, { f: () => 1 }, JSON.parse('{"__proto__":1}') as unknown]) {
          await expect(logs.append('bad/log.jsonl', [bad as null])).rejects.toMatchObject({ code: expect.any(String) as unknown });
        }
        expect(await logs.read('bad/log.jsonl')).toEqual([]);
      });
    });

    describe('real processes', () => {
      it(`${N} processes x ${M} increments of one counter lose nothing`, async () => {
        await runTogether(options.workerModule, Array.from({ length: N }, () => ({ op: 'increment' as const, key: 'proc/counter.json', times: M })), childEnv(), slow);
        expect(await backend().documents.get('proc/counter.json')).toMatchObject({ value: { count: N * M }, revision: N * M });
      }, slow);

      it(`${N} processes claiming from one queue: every item claimed exactly once`, async () => {
        const ids = Array.from({ length: N * M }, (_, i) => `task-${i}`);
        await backend().queues.offer('proc/queue', ids.map((id) => ({ id })));
        const reports = await runTogether(options.workerModule, Array.from({ length: N }, (_, w) => ({ op: 'claim-all' as const, queue: 'proc/queue', owner: `w${w}`, leaseMs: 600_000 })), childEnv(), slow);
        const claimed = reports.flatMap((r) => r.claimed ?? []);
        expect(claimed).toHaveLength(ids.length);
        expect(new Set(claimed)).toEqual(new Set(ids));
        expect((await backend().queues.items('proc/queue')).every((i) => i.state === 'done' && i.attempts === 1)).toBe(true);
      }, slow);

      it(`${N + 2} writers with one expected revision: exactly one succeeds, the others conflict`, async () => {
        await backend().documents.update('proc/contested.json', () => ({ winner: null }));
        const writers = N + 2;
        const reports = await runTogether(options.workerModule, Array.from({ length: writers }, (_, w) => ({ op: 'write-expecting' as const, key: 'proc/contested.json', expectedRevision: 1, owner: `w${w}` })), childEnv(), slow);
        const winners = reports.map((r, w) => (r.won === true ? `w${w}` : undefined)).filter((w) => w !== undefined);
        expect(winners).toHaveLength(1);
        expect(await backend().documents.get('proc/contested.json')).toMatchObject({ value: { winner: winners[0] }, revision: 2 });
      }, slow);

      it(`${N} processes x ${M} log appends: ${N * M} records, gap-free, each writer's in its order`, async () => {
        const reports = await runTogether(options.workerModule, Array.from({ length: N }, (_, w) => ({ op: 'append' as const, key: 'proc/log.jsonl', writer: `w${w}`, times: M })), childEnv(), slow);
        const entries = await backend().logs.read('proc/log.jsonl');
        expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: N * M }, (_, i) => i + 1));
        expect(new Set(reports.flatMap((r) => r.seqs ?? []))).toEqual(new Set(entries.map((e) => e.seq)));
        for (let w = 0; w < N; w++) {
          expect(entries.filter((e) => (e.record as { writer: string }).writer === `w${w}`).map((e) => (e.record as { i: number }).i)).toEqual(Array.from({ length: M }, (_, i) => i));
        }
      }, slow);

      it('a client killed with kill -9 inside an update leaves the old revision and value; the next update succeeds', async () => {
        const docs = backend().documents;
        await docs.update('proc/crash.json', () => ({ state: 'before' }));
        const child = startChild(options.workerModule, { op: 'hang-in-update', key: 'proc/crash.json' }, childEnv());
        try {
          await child.waitFor((l) => l.ready === true, slow);
          child.go();
          await child.waitFor((l) => l.inside === true, slow);
        } finally {
          await child.kill();
        }
        expect(await docs.get('proc/crash.json')).toEqual({ key: 'proc/crash.json', value: { state: 'before' }, revision: 1 });
        const after = await docs.update('proc/crash.json', (cur) => ({ ...cur?.value, state: 'after' }));
        expect(after).toMatchObject({ value: { state: 'after' }, revision: 2 });
      }, slow);
    });

    if (options.capabilities !== undefined) {
      describe('backend-specific capabilities', () => {
        options.capabilities?.({ backend });
      });
    }
  });
}
