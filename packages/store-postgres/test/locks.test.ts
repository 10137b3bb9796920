// What the conformance kit does not cover for locks on PostgreSQL: concurrent takers on separate connections.
import { afterAll, expect, it } from 'vitest';
import { closeBackends, describePg, openBackend } from './support/postgres.js';

afterAll(closeBackends);

describePg('locks on PostgreSQL', () => {
  it('concurrent takers on separate connections: exactly one wins', async () => {
    const backend = openBackend({ pool: { max: 8 } });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => backend.locks.tryAcquire('race', `o${i}`, 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
