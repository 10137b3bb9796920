import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet, tempDir } from '../helpers.js';

const entry = (i: number, match: string): Record<string, unknown> => ({
  name: `slow-${i}`,
  trigger: `slow regex number ${i}`,
  fix: 'rewrite the pattern',
  match,
  cost: 500,
  source: [],
  access_count: 0,
  last_accessed: null,
  related: [],
  related_typed: {},
  times_helped: 0,
  times_failed: 0,
  created_at: '2026-01-01T00:00:00.000Z',
});

describe('ratchet memory query against a hostile memory.json (the built binary, real processes)', () => {
  test('catastrophic patterns are never run; hundreds of slow-but-accepted ones are cut off by the time budget', () => {
    const dir = tempDir('ratchet-memory-e2e-');
    mkdirSync(join(dir, '.ratchet'));
    // Each of these is accepted by the guard but takes a few hundred ms on 256 "a"s: 300 of them
    // would keep a query busy for minutes without the per-query budget. The first two would hang it forever.
    const failures = [entry(0, '[^](a+)+]'), entry(1, '(\\u{1,})*$'), ...Array.from({ length: 300 }, (_, i) => entry(i + 2, `a*(?:a|a){8}x${i}`))];
    const file = join(dir, '.ratchet', 'memory.json');
    const text = `${JSON.stringify({ schemaVersion: 1, failures, patterns: [] })}\n`;
    writeFileSync(file, text);
    const r = ratchet(['--json', 'memory', 'query', 'a'.repeat(300), '--cwd', dir], { timeout: 60_000, killSignal: 'SIGKILL' });
    expect({ status: r.status, stderr: r.stderr.slice(0, 200) }).toMatchObject({ status: 0 });
    const out = JSON.parse(r.stdout) as { skipped: { name: string; reason: string }[]; scanned: number };
    expect(out.scanned).toBe(302);
    expect(out.skipped.slice(0, 2).map((s) => s.name)).toEqual(['slow-0', 'slow-1']);
    expect(out.skipped[0]!.reason).toContain('backtrack catastrophically');
    expect(out.skipped.filter((s) => s.reason.includes('time budget')).length).toBeGreaterThan(200);
    // stderr stays readable: a few entries, then a count.
    expect(r.stderr.split('\n').filter((l) => l !== '').length).toBeLessThanOrEqual(6);
    // A query never writes.
    expect(readFileSync(file, 'utf8')).toBe(text);
  }, 90_000);
});
