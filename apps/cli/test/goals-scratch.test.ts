import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet } from './fuzz-inputs.js';

const AT = (iso: string): string[] => ['--now', iso];

describe('ratchet scratch', { timeout: 60_000 }, () => {
  test('add, list (expiry on read), review, promote to an action that links back, expire', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-scratch-'));
    const add = await ratchet(dir, ['scratch', 'add', 'signup p95 doubled since Monday', '--source', 'tool:grafana', '--tag', 'perf', '--confidence', '0.8', ...AT('2030-01-01T00:00:00Z')]);
    expect(add.code, add.err).toBe(0);
    expect(add.out).toContain('added o1  observation  [active]  agent  c0.8  signup p95 doubled since Monday  (from tool:grafana; expires 2030-01-08T00:00:00.000Z; perf)');
    expect((await ratchet(dir, ['scratch', 'add', 'disk 90% full', '--source', 'daemon:gut', '--type', 'alert', '--ttl', 'P1D', ...AT('2030-01-01T00:00:00Z')])).code).toBe(0);
    const later = await ratchet(dir, ['--json', 'scratch', 'list', ...AT('2030-01-03T00:00:00Z')]);
    expect(JSON.parse(later.out)).toMatchObject({ active: [{ id: 'o1' }], expired: [{ id: 'o2' }] });
    expect((await ratchet(dir, ['scratch', 'review', 'o1', 'pending_review', '--note', 'real?', ...AT('2030-01-02T00:00:00Z')])).code).toBe(0);
    const promote = await ratchet(dir, ['--json', 'scratch', 'promote', 'o1', 'action', '--action-type', 'research', '--title', 'Find why signup got slow', ...AT('2030-01-02T00:00:00Z')]);
    expect(promote.code, promote.err).toBe(0);
    expect(JSON.parse(promote.out)).toMatchObject({ observation: { status: 'resolved', promoted_to: { kind: 'action', id: 'a1' } }, action: { action: { type: 'research', metadata: { observation_id: 'o1' }, evidence_refs: ['scratch:o1'] } } });
    // Promoting an expired item is refused (exit 1), and so is promoting twice.
    const expired = await ratchet(dir, ['scratch', 'promote', 'o2', 'goal', ...AT('2030-01-03T00:00:00Z')]);
    expect(expired.code).toBe(1);
    expect(expired.err).toContain('expired at 2030-01-02T00:00:00.000Z');
    expect((await ratchet(dir, ['scratch', 'promote', 'o1', 'goal', ...AT('2030-01-02T00:00:00Z')])).code).toBe(1);
    const expire = await ratchet(dir, ['scratch', 'expire', ...AT('2030-01-03T00:00:00Z')]);
    expect(expire.out).toContain('archived 1 expired: o2');
  });

  test('bad input: no source, a bad ttl, confidence out of range, an unknown id: exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-scratch-'));
    expect((await ratchet(dir, ['scratch', 'add', 'x'])).code).toBe(2);
    expect((await ratchet(dir, ['scratch', 'add', 'x', '--source', 's', '--ttl', 'a week'])).code).toBe(2);
    expect((await ratchet(dir, ['scratch', 'add', 'x', '--source', 's', '--confidence', '3'])).code).toBe(2);
    expect((await ratchet(dir, ['scratch', 'review', 'o9', 'resolved'])).code).toBe(2);
  });
});
