/**
 * Goals on a shared PostgreSQL backend (`openGoals(path, { backend, key })`): the state document
 * lives in the database, and optimistic locking holds across processes' worth of concurrent writers:
 * among writers that all expect the same version, exactly one wins and the rest get ConflictError.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConflictError, openGoals, upsertGoal, type Actor } from '@ratchet/goals';
import { createPostgresBackend } from '@ratchet/store-postgres';
import { INSTALL_HINT, startTestCluster, testClusterAvailability, type TestCluster } from '@ratchet/store-postgres/testing';

const availability = testClusterAvailability();
if (!availability.available) console.warn(`\n*** SKIPPED: goals on PostgreSQL need PostgreSQL: ${INSTALL_HINT}\n`);
const AGENT: Actor = { role: 'agent' };

describe.skipIf(!availability.available)('goals on PostgreSQL', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  test('two machines share one goals document; concurrent writers with one expected version: exactly one wins', async () => {
    const m1 = createPostgresBackend({ url: cluster.url, project: 'goals-test' });
    const m2 = createPostgresBackend({ url: cluster.url, project: 'goals-test' });
    try {
      const one = openGoals('/machine-1/.ratchet/goals.json', { backend: m1, key: '.ratchet/goals.json' });
      const two = openGoals('/machine-2/.ratchet/goals.json', { backend: m2, key: '.ratchet/goals.json' });
      await one.mutate({ actor: AGENT, op: 'setup' }, (tx) => upsertGoal(tx, { title: 'shared' }));
      expect((await two.read()).goals.map((g) => g.title)).toEqual(['shared']);
      const version = (await two.read()).version;
      const writers = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? one : two).mutate({ actor: AGENT, op: 'race', expected_version: version }, (tx) => upsertGoal(tx, { title: `w${i}` })).then(() => 'won', (err: unknown) => (err instanceof ConflictError ? 'conflict' : String(err))));
      const outcomes = await Promise.all(writers);
      expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'conflict')).toHaveLength(7);
      const final = await one.read();
      expect(final.version).toBe(version + 1);
      expect(final.goals).toHaveLength(2);
    } finally {
      await m1.close();
      await m2.close();
    }
  }, 120_000);

  test('a shared backend without the document key is refused', async () => {
    const backend = createPostgresBackend({ url: cluster.url, project: 'goals-test-2' });
    try {
      expect(() => openGoals('/x/.ratchet/goals.json', { backend })).toThrow(/needs the key/);
    } finally {
      await backend.close();
    }
  }, 60_000);
});
