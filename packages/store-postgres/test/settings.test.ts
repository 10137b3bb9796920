/** The store URL's settings and the failures pg reports, mapped without a server. */
import { BackendUnavailableError, StoreError } from '@ratchet/store';
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../src/connection.js';
import { DEFAULT_LOCK_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS, connectionSettings, formatWait } from '../src/settings.js';

const loc = 'postgres://u:***@h/db';

describe('connectionSettings', () => {
  it('defaults: 10 s for a lock, 60 s for a statement; the URL untouched', () => {
    expect(connectionSettings('postgres://u:p@h/db', loc)).toEqual({ connectionString: 'postgres://u:p@h/db', lockTimeoutMs: DEFAULT_LOCK_TIMEOUT_MS, statementTimeoutMs: DEFAULT_STATEMENT_TIMEOUT_MS });
    expect(DEFAULT_LOCK_TIMEOUT_MS).toBe(10_000);
  });

  it('reads lock_timeout and statement_timeout from the URL (durations, ms, 0 for none) and takes them out of it', () => {
    const s = connectionSettings('postgres://u:p@h/db?host=/tmp/s&lock_timeout=1.5s&statement_timeout=0', loc);
    expect(s).toEqual({ connectionString: 'postgres://u:p@h/db?host=%2Ftmp%2Fs', lockTimeoutMs: 1500, statementTimeoutMs: 0 });
    expect(connectionSettings('postgres://h/db?lock_timeout=250', loc).lockTimeoutMs).toBe(250);
    expect(connectionSettings('postgres://h/db?statement_timeout=2m', loc).statementTimeoutMs).toBe(120_000);
  });

  it('options win over the URL', () => {
    expect(connectionSettings('postgres://h/db?lock_timeout=1s', loc, { lockTimeoutMs: 0 }).lockTimeoutMs).toBe(0);
    expect(() => connectionSettings('postgres://h/db', loc, { statementTimeoutMs: -1 })).toThrow(RangeError);
  });

  it('a malformed URL or timeout is a BackendUnavailableError naming the redacted location, never the password', () => {
    for (const url of ['postgres://u:hunter2@h:99999/db', 'postgres://u:hunter2@[::1/db', 'postgres://h/db?lock_timeout=soon', 'postgres://h/db?statement_timeout=-1s', 'postgres://h/db?lock_timeout=']) {
      let err: unknown;
      try {
        connectionSettings(url, loc);
      } catch (e) {
        err = e;
      }
      expect(err, url).toBeInstanceOf(BackendUnavailableError);
      expect((err as Error).message).toContain(loc);
      expect((err as Error).message).not.toContain('hunter2');
    }
  });

  it('formatWait', () => {
    expect([500, 1000, 1500, 10_000, 60_000, 90_000, 120_000].map(formatWait)).toEqual(['500 ms', '1 s', '1.5 s', '10 s', '1 min', '90 s', '2 min']);
  });
});

describe('describeFailure', () => {
  const timeouts = { lockTimeoutMs: 1000, statementTimeoutMs: 1500 };
  const site = { location: loc, timeouts, subject: { path: `${loc}#.ratchet/campaign.json`, what: 'the document .ratchet/campaign.json' } };
  const pgError = (code: string | undefined, message: string): Error => Object.assign(new Error(message), code === undefined ? {} : { code });

  it('a lock timeout: a refusal naming what it waited for and how long', () => {
    const err = describeFailure(site, pgError('55P03', 'canceling statement due to lock timeout')) as StoreError;
    expect(err).toBeInstanceOf(StoreError);
    expect(err.code).toBe('lock-timeout');
    expect(err.path).toBe(`${loc}#.ratchet/campaign.json`);
    expect(err.reason).toContain('waiting 1 s for the document .ratchet/campaign.json');
    expect(err.reason).toContain('lock_timeout');
  });

  it('a statement timeout: the limit named; another cancel stays what it is', () => {
    const err = describeFailure(site, pgError('57014', 'canceling statement due to statement timeout')) as StoreError;
    expect(err).toBeInstanceOf(BackendUnavailableError);
    expect(err.reason).toContain('after 1.5 s on the document .ratchet/campaign.json');
    expect(err.reason).toContain('statement_timeout');
    const cancel = pgError('57014', 'canceling statement due to user request');
    expect(describeFailure(site, cancel)).toBe(cancel);
  });

  it('a connection that broke, whatever pg calls it, is BackendUnavailableError at the URL', () => {
    for (const [code, message] of [
      ['EPIPE', 'write EPIPE'],
      ['ECONNRESET', 'read ECONNRESET'],
      ['08006', 'connection failure'],
      ['08P01', 'protocol violation'],
      ['57P01', 'terminating connection due to administrator command'],
      [undefined, 'Connection terminated unexpectedly'],
      [undefined, 'Client has encountered a connection error and is not queryable'],
      [undefined, 'timeout exceeded when trying to connect'],
    ] as const) {
      const err = describeFailure(site, pgError(code, message));
      expect(err, message).toBeInstanceOf(BackendUnavailableError);
      expect((err as StoreError).path).toBe(loc);
    }
  });

  it('our own mistakes stay what they are', () => {
    const unique = pgError('23505', 'duplicate key value violates unique constraint');
    expect(describeFailure(site, unique)).toBe(unique);
    const bug = new TypeError('x is not a function');
    expect(describeFailure(loc, bug)).toBe(bug);
  });
});
