import { BackendUnavailableError } from '@ratchet/store';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createPostgresBackend } from '../src/index.js';
import { describePg, pgUrl } from './support/postgres.js';

/** The first operation's error, after which the backend is closed. */
async function firstUse(url: string): Promise<Error> {
  const backend = createPostgresBackend({ url, project: 'p' });
  try {
    await backend.documents.get('x.json');
  } catch (err) {
    return err as Error;
  } finally {
    await backend.close();
  }
  throw new Error('expected the first operation to fail');
}

const socketDir = (): string => new URL(pgUrl).searchParams.get('host') ?? '';

describePg('connection errors name the URL without its password', () => {
  it('no server on the socket', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'ratchet-no-pg-'));
    try {
      const err = await firstUse(`postgres://ratchet:hunter2@localhost/postgres?host=${encodeURIComponent(empty)}`);
      expect(err).toBeInstanceOf(BackendUnavailableError);
      expect(err.message).toMatch(/no server socket|refused/u);
      expect(err.message).toContain('ratchet:***@');
      expect(err.message).not.toContain('hunter2');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('an unreachable TCP host', async () => {
    // Port 1 on localhost: nothing listens there.
    const err = await firstUse('postgresql://ratchet:hunter2@127.0.0.1:1/postgres');
    expect(err).toBeInstanceOf(BackendUnavailableError);
    expect(err.message).toContain('postgresql://ratchet:***@127.0.0.1:1/postgres');
    expect(err.message).not.toContain('hunter2');
  });

  it('wrong credentials', async () => {
    const err = await firstUse(`postgres://no_such_role:hunter2@localhost/postgres?host=${encodeURIComponent(socketDir())}`);
    expect(err).toBeInstanceOf(BackendUnavailableError);
    expect(err.message).toMatch(/authentication/u);
    expect(err.message).not.toContain('hunter2');
  });

  it('a database that does not exist', async () => {
    const url = new URL(pgUrl);
    url.pathname = '/no_such_database';
    url.password = 'hunter2';
    const err = await firstUse(url.toString());
    expect(err).toBeInstanceOf(BackendUnavailableError);
    expect(err.message).toMatch(/database does not exist/u);
    expect(err.message).toContain('no_such_database');
    expect(err.message).not.toContain('hunter2');
  });

  it('refuses a URL that is not PostgreSQL, and a missing project, without connecting', () => {
    expect(() => createPostgresBackend({ url: 'mysql://u:hunter2@h/db', project: 'p' })).toThrow(/not a PostgreSQL URL/u);
    expect(() => createPostgresBackend({ url: 'mysql://u:hunter2@h/db', project: 'p' })).not.toThrow(/hunter2/u);
    expect(() => createPostgresBackend({ url: pgUrl, project: '' })).toThrow(TypeError);
    expect(() => createPostgresBackend({ url: pgUrl, project: 'p', maxDocumentBytes: 0 })).toThrow(RangeError);
  });
});
