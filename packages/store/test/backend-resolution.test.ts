/** Keys, URL redaction and backend resolution: the shared decisions every backend relies on. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BackendUnavailableError, InvalidKeyError, StoreError, assertKey, keyProblem, redactUrl, resolveStorageBackend, storageKind, storeSettings } from '../src/index.js';

const project = (config?: string): string => {
  const dir = mkdtempSync(join(tmpdir(), 'store-resolve-'));
  if (config !== undefined) writeFileSync(join(dir, 'ratchet.config.json'), config);
  return dir;
};

describe('storage keys', () => {
  it.each([
    ['.ratchet/campaign.json'],
    ['a'],
    ['logs/2026/activity.jsonl'],
    ['with space/ünïcode.json'],
  ])('accepts %j', (key) => {
    expect(keyProblem(key)).toBeUndefined();
  });

  it.each([
    ['', 'empty'],
    ['../escape.json', '".."'],
    ['a/../../b', '".."'],
    ['/etc/passwd', 'starts with "/"'],
    ['a\\b', 'backslash'],
    ['a\0b', 'NUL'],
    ['a//b', 'empty segment'],
    ['a/', 'empty segment'],
    ['./a', '"."'],
    ['C:/x', 'drive letter'],
    ['a\nb', 'control character'],
    ['x'.repeat(1025), 'longer than 1024'],
  ])('refuses %j (%s) with an InvalidKeyError naming the key', (key, why) => {
    let caught: unknown;
    try {
      assertKey('/proj', key);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InvalidKeyError);
    expect(caught).toBeInstanceOf(StoreError);
    expect((caught as InvalidKeyError).code).toBe('invalid-key');
    expect((caught as InvalidKeyError).key).toBe(key);
    expect((caught as Error).message).toContain(why);
    expect((caught as Error).message).toContain(`/proj#`);
  });
});

describe('redactUrl', () => {
  it('hides the password and keeps the rest', () => {
    expect(redactUrl('postgres://ratchet:s3cret@db.example:5432/state?sslmode=require')).toBe('postgres://ratchet:***@db.example:5432/state?sslmode=require');
    expect(redactUrl('postgresql://u:p%40ss@host/db')).not.toContain('p%40ss');
    expect(redactUrl('postgres://host/db?user=u&password=hunter2')).toBe('postgres://host/db?user=u&password=***');
    expect(redactUrl('postgres://nobody@host/db')).toBe('postgres://nobody@host/db');
  });

  it('hides a password even in a string URL cannot parse', () => {
    const out = redactUrl('postgres://u:hunter2@[bad/db');
    expect(out).not.toContain('hunter2');
    expect(out).toContain('u:***@');
  });
});

describe('backend resolution', () => {
  it('defaults to the file backend at the root, project id = the directory name', async () => {
    const root = project();
    expect(storageKind(root, {})).toBe('file');
    expect(storeSettings(root, { env: {} }).project).toBe(basename(root));
    const backend = await resolveStorageBackend(root, { env: {} });
    expect(backend.kind).toBe('file');
    expect(backend.location).toBe(root);
  });

  it('RATCHET_STORE overrides the config file, and RATCHET_STORE_PROJECT the config project', () => {
    const root = project('{ "store": { "url": "postgres://a:pw@h/db", "project": "from-config" } }');
    expect(storageKind(root, {})).toBe('postgres');
    expect(storeSettings(root, { env: {} })).toMatchObject({ kind: 'postgres', url: 'postgres://a:pw@h/db', project: 'from-config' });
    expect(storageKind(root, { RATCHET_STORE: 'file' })).toBe('file');
    expect(storeSettings(root, { env: { RATCHET_STORE_PROJECT: 'env-project' } }).project).toBe('env-project');
    expect(storeSettings(root, { env: {}, config: {} }).kind).toBe('file');
  });

  it('an unknown store value is refused, without printing a password', () => {
    const err = (() => {
      try {
        storageKind(project(), { RATCHET_STORE: 'mysql://u:topsecret@h/db' });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(BackendUnavailableError);
    expect((err as Error).message).toContain('RATCHET_STORE');
    expect((err as Error).message).not.toContain('topsecret');
  });

  it('a config whose store section is malformed names the file and the pointer', () => {
    const root = project('{ "store": { "url": 5 } }');
    expect(() => storageKind(root, {})).toThrow(/ratchet\.config\.json: "store\.url" must be a string.*at \/store\/url/u);
    const broken = project('{ "store": ');
    expect(() => storageKind(broken, {})).toThrow(/ratchet\.config\.json/u);
  });

  it('a postgres URL without @ratchet/store-postgres installed says how to install it, password redacted', async () => {
    const err = await resolveStorageBackend(project(), { env: { RATCHET_STORE: 'postgres://u:topsecret@127.0.0.1:1/db' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendUnavailableError);
    expect((err as Error).message).toContain('npm install @ratchet/store-postgres');
    expect((err as Error).message).toContain('postgres://u:***@127.0.0.1:1/db');
    expect((err as Error).message).not.toContain('topsecret');
  });
});
