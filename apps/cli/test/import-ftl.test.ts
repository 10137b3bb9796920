/**
 * `ratchet import ftl --write` on a finished FTL campaign as FTL's `campaign.py complete` leaves it:
 * the campaign in `.ftl/campaign.json` (status complete) and the same bytes in
 * `.ftl/archive/<completed_at>.json` (fixture of our own in that shape). One campaign, converted
 * once, with its completion time, its prose summary and its tasks' update times.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/import/ftl-finished/', import.meta.url));

async function ratchet(cwd: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd, readStdin: () => Promise.resolve('') };
  return { code: await run(args, io), out, err };
}

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-import-ftl-'));
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

interface Archive {
  campaign: { id: string; status: string; tasks: { seq: number; updatedAt?: string }[] };
  summary: { completedAt: string; text?: string; total: number };
  ftl?: { summary?: unknown; fingerprint?: unknown };
}

test('the same finished campaign in campaign.json and archive/: converted once, exit 0, the other named as the same campaign', async () => {
  const dir = project();
  const planned = await ratchet(dir, ['--json', 'import', 'ftl']);
  const doc = JSON.parse(planned.out) as { systems: { convert: { from: string; status: string }[]; ignored: { path: string; why: string }[] }[] };
  expect(doc.systems[0]!.convert.map((c) => c.from)).toEqual(['.ftl/archive/2026-01-14T11-16-50-583221.json']);
  expect(doc.systems[0]!.ignored).toEqual([{ path: '.ftl/campaign.json', why: 'the same campaign as .ftl/archive/2026-01-14T11-16-50-583221.json (FTL keeps a finished campaign in both): converted once, from there' }]);
  const r = await ratchet(dir, ['import', 'ftl', '--write']);
  expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
  const entries = readdirSync(join(dir, '.ratchet/archive')).filter((n) => n.endsWith('.json'));
  expect(entries).toHaveLength(1);
});

test('the archive entry keeps FTL\'s completion time, its prose summary and each task\'s updated_at', async () => {
  const dir = project();
  expect((await ratchet(dir, ['import', 'ftl', '--write'])).code).toBe(0);
  const [name] = readdirSync(join(dir, '.ratchet/archive')).filter((n) => n.endsWith('.json'));
  const entry = JSON.parse(readFileSync(join(dir, '.ratchet/archive', name!), 'utf8')) as Archive;
  // Before: completedAt was created_at (11:12:45), the summary and updated_at were dropped.
  expect(entry.summary.completedAt).toBe('2026-01-14T11:16:50.583221');
  expect(entry.summary.text).toMatch(/^CSV export shipped: spec, implementation/);
  expect(entry.summary.total).toBe(3);
  expect(entry.campaign.tasks.map((t) => t.updatedAt)).toEqual(['2026-01-14T11:13:58.402117', '2026-01-14T11:16:02.771930', '2026-01-14T11:16:41.090312']);
  expect(entry.ftl).toMatchObject({ fingerprint: { objective_hash: '5d1c0e9a' } });
  const similar = await ratchet(dir, ['--json', 'campaign', 'find-similar', '--objective', 'Add CSV export to the reports page']);
  expect(JSON.parse(similar.out)).toMatchObject({ similar: [{ id: entry.campaign.id }] });
});

test('no completed_at at all: the last task update stands in, and the report says so', async () => {
  const dir = project();
  for (const rel of ['.ftl/campaign.json', '.ftl/archive/2026-01-14T11-16-50-583221.json']) {
    const value = JSON.parse(readFileSync(join(dir, rel), 'utf8')) as Record<string, unknown>;
    delete value.completed_at;
    writeFileSync(join(dir, rel), JSON.stringify(value, null, 2));
  }
  const r = await ratchet(dir, ['import', 'ftl', '--write']);
  expect(r.code).toBe(0);
  expect(r.out).toContain('has no completed_at: its last task update (2026-01-14T11:16:41.090312) is taken as the completion time');
  const [name] = readdirSync(join(dir, '.ratchet/archive')).filter((n) => n.endsWith('.json'));
  expect((JSON.parse(readFileSync(join(dir, '.ratchet/archive', name!), 'utf8')) as Archive).summary.completedAt).toBe('2026-01-14T11:16:41.090312');
});

test('a broken completed_at or updated_at is refused with its place, nothing written', async () => {
  const dir = project();
  const text = readFileSync(join(dir, '.ftl/campaign.json'), 'utf8').replace('"updated_at": "2026-01-14T11:16:02.771930"', '"updated_at": 17');
  writeFileSync(join(dir, '.ftl/campaign.json'), text);
  const r = await ratchet(dir, ['import', 'ftl', '--write']);
  expect(r.code).toBe(2);
  expect(r.err).toMatch(/\.ftl\/campaign\.json:22:\d+: error: "updated_at" must be a string/);
  expect(r.err).toContain('nothing written');
});
