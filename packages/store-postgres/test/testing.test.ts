import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { findPostgresBin, startTestCluster, testClusterAvailability } from '../src/testing.js';
import { describePg, withClient } from './support/postgres.js';

describePg('throwaway test clusters', () => {
  it.skipIf(Boolean(process.env.RATCHET_TEST_PG_URL))('a local cluster listens on its own unix socket only, and stop() removes it', async () => {
    expect(findPostgresBin()).toBeDefined();
    const cluster = await startTestCluster();
    const dir = new URL(cluster.url).searchParams.get('host') ?? '';
    expect(existsSync(dir)).toBe(true);
    const settings = await withClient(async (c) => {
      const listen = await c.query<{ listen_addresses: string }>('SHOW listen_addresses');
      const socket = await c.query<{ unix_socket_directories: string }>('SHOW unix_socket_directories');
      return { listen: listen.rows[0]?.listen_addresses, socket: socket.rows[0]?.unix_socket_directories };
    }, cluster.url);
    expect(settings).toEqual({ listen: '', socket: dir });
    await cluster.stop();
    expect(existsSync(dir)).toBe(false);
    await cluster.stop();
  });

  it('two clusters are independent', async () => {
    const [a, b] = await Promise.all([startTestCluster(), startTestCluster()]);
    try {
      expect(a.url).not.toBe(b.url);
      await withClient((c) => c.query('CREATE TABLE only_in_a (x int)'), a.url);
      const inB = await withClient((c) => c.query(`SELECT to_regclass('only_in_a') AS t`), b.url);
      expect(inB.rows).toEqual([{ t: null }]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('finds the binaries on PATH or under a versioned lib dir, and says how to install them when neither has them', () => {
    const empty = mkdtempSync(join(tmpdir(), 'ratchet-no-bin-'));
    try {
      const none = testClusterAvailability({ path: empty, libDir: join(empty, 'missing'), env: {} });
      expect(none).toMatchObject({ available: false, reason: expect.stringContaining('apt-get install postgresql') as unknown });
      expect(testClusterAvailability({ path: empty, libDir: empty, env: { RATCHET_TEST_PG_URL: 'postgres://u@h/db' } })).toMatchObject({ available: true, via: 'RATCHET_TEST_PG_URL' });
      // A Debian-like layout: <libDir>/<version>/bin with the three tools, the newest version wins.
      const real = findPostgresBin();
      for (const version of ['13', '15']) {
        mkdirSync(join(empty, 'lib', version), { recursive: true });
        symlinkSync(real!, join(empty, 'lib', version, 'bin'));
      }
      expect(findPostgresBin({ path: empty, libDir: join(empty, 'lib') })).toBe(join(empty, 'lib', '15', 'bin'));
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
