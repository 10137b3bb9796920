/**
 * Memory (`openMemory(path, { backend, key })`) and the activity log (`openActivityLogStore(path,
 * { backend, key })`) on a shared PostgreSQL backend: one document and one log for every machine,
 * bad values refused before anything is written, `appendOnce` exactly once among concurrent callers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addFailure, openMemory } from '@ratchet/memory';
import { openActivityLogStore, type ActivityEntry } from '@ratchet/orchestrator';
import { createPostgresBackend } from '@ratchet/store-postgres';
import { INSTALL_HINT, startTestCluster, testClusterAvailability, type TestCluster } from '@ratchet/store-postgres/testing';

const availability = testClusterAvailability();
if (!availability.available) console.warn(`\n*** SKIPPED: memory and the activity log on PostgreSQL need PostgreSQL: ${INSTALL_HINT}\n`);

const NOW = Date.parse('2030-01-01T00:00:00Z');
const entry = (type: string, logId = type): ActivityEntry => ({
  log_id: logId,
  session_id: 'S-1',
  timestamp: new Date(NOW).toISOString(),
  phase: 'EXECUTING',
  task: { id: 'T-1', plan_step: null },
  action: { type, details: {} },
  outcome: { status: 'INFO', message: type },
});

describe.skipIf(!availability.available)('memory and the activity log on PostgreSQL', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  test('memory: two machines, one document; an invalid update writes nothing', async () => {
    const m1 = createPostgresBackend({ url: cluster.url, project: 'mem' });
    const m2 = createPostgresBackend({ url: cluster.url, project: 'mem' });
    try {
      const one = openMemory('/machine-1/.ratchet/memory.json', { backend: m1, key: '.ratchet/memory.json' });
      const two = openMemory('/machine-2/.ratchet/memory.json', { backend: m2, key: '.ratchet/memory.json' });
      expect(await two.read()).toEqual({ failures: [], patterns: [] });
      await one.update((d) => void addFailure(d, { trigger: 'vite HMR breaks on symlinked packages', fix: 'set resolve.preserveSymlinks', cost: 2000 }, { now: NOW }));
      expect((await two.read()).failures.map((f) => f.name)).toEqual(['vite-hmr-breaks-on-symlinked-packages']);
      const before = await m1.documents.get('.ratchet/memory.json');
      await expect(two.update((d) => void (d.failures[0]!.cost = -5))).rejects.toMatchObject({ code: 'validation-error' });
      expect(await m1.documents.get('.ratchet/memory.json')).toEqual(before);
      // Concurrent updates from both machines lose nothing.
      const triggers = ['pytest cannot import requests', 'docker build runs out of disk', 'eslint crashes on a bom', 'tsc emits into src by mistake', 'the migration locks the users table', 'npm ci fails behind the proxy'];
      const fixes = ['install requests in the virtualenv first', 'prune the builder cache before building', 'strip the byte order mark in the loader', 'set outDir to dist in tsconfig', 'add the index concurrently instead', 'configure the registry proxy in npmrc'];
      const added = await Promise.all(triggers.map(async (trigger, i) => {
        let status = '';
        await (i % 2 === 0 ? one : two).update((d) => void (status = addFailure(d, { trigger, fix: fixes[i]!, cost: 1000 + i }, { now: NOW }).status));
        return status;
      }));
      expect(added).toEqual(triggers.map(() => 'added'));
      expect((await one.read()).failures).toHaveLength(7);
    } finally {
      await m1.close();
      await m2.close();
    }
  }, 120_000);

  test('the activity log: appends from two machines in one log, read back in order and validated', async () => {
    const m1 = createPostgresBackend({ url: cluster.url, project: 'log' });
    const m2 = createPostgresBackend({ url: cluster.url, project: 'log' });
    try {
      const one = openActivityLogStore('/machine-1/logs/activity.log.jsonl', { backend: m1, key: 'logs/activity.log.jsonl' });
      const two = openActivityLogStore('/machine-2/logs/activity.log.jsonl', { backend: m2, key: 'logs/activity.log.jsonl' });
      expect(one.path).toMatch(/#logs\/activity\.log\.jsonl$/);
      await one.append([entry('A')]);
      await two.append([entry('B'), entry('C')]);
      expect((await one.read()).map((e) => e.action.type)).toEqual(['A', 'B', 'C']);
      // A bad entry in a batch: nothing of the batch is appended.
      const bad = { ...entry('D'), outcome: { status: 'MAYBE', message: '' } } as unknown as ActivityEntry;
      await expect(two.append([entry('E'), bad])).rejects.toMatchObject({ code: 'validation-error' });
      expect(await one.read()).toHaveLength(3);
      // A record another writer put there that is not an entry: reading names the log and record.
      await m1.logs.append('logs/activity.log.jsonl', [{ not: 'an entry' }]);
      await expect(two.read()).rejects.toThrow(/#logs\/activity\.log\.jsonl.*record 4/);
    } finally {
      await m1.close();
      await m2.close();
    }
  }, 120_000);

  test('appendOnce: concurrent callers on two machines append exactly once; reads page through long logs', async () => {
    const m1 = createPostgresBackend({ url: cluster.url, project: 'once' });
    const m2 = createPostgresBackend({ url: cluster.url, project: 'once' });
    try {
      const logs = [m1, m2].map((backend) => openActivityLogStore('/x/logs/activity.log.jsonl', { backend, key: 'logs/activity.log.jsonl' }));
      // More than one read page (1,000 records) before the check.
      await logs[0]!.append(Array.from({ length: 1_500 }, (_, i) => entry('TOOL_CALL', `t${i}`)));
      const seen = (entries: readonly ActivityEntry[]): boolean => entries.some((e) => e.action.type === 'TASK_END');
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => logs[i % 2]!.appendOnce(entry('TASK_END', `end-${i}`), seen)));
      expect(results.filter(Boolean)).toHaveLength(1);
      const all = await logs[1]!.read();
      expect(all).toHaveLength(1_501);
      expect(all.filter((e) => e.action.type === 'TASK_END')).toHaveLength(1);
      // The lock is released: another appendOnce runs its check at once.
      expect(await logs[0]!.appendOnce(entry('TASK_END', 'late'), seen)).toBe(false);
    } finally {
      await m1.close();
      await m2.close();
    }
  }, 120_000);
});
