/**
 * `ratchet store export | import`: files -> PostgreSQL -> files gives back byte-identical documents;
 * a malformed, truncated or colliding import is refused (exit 2, naming the line) with nothing written.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { INSTALL_HINT, startTestCluster, testClusterAvailability, type TestCluster } from '@ratchet/store-postgres/testing';
import { ratchet, tempDir } from '../helpers.js';

function campaignProject(): string {
  const dir = tempDir('ratchet-transfer-');
  writeFileSync(join(dir, 'plan.json'), JSON.stringify({ tasks: [1, 2, 3].map((seq) => ({ seq, delta: [`ünïcode-${seq}.ts`], verify: 'true', depends: seq === 3 ? [1] : 'none' })) }));
  expect(ratchet(['campaign', 'create', 'transfer «quotes» "and" \\ backslashes'], { cwd: dir }).status).toBe(0);
  expect(ratchet(['campaign', 'add-tasks', 'plan.json'], { cwd: dir }).status).toBe(0);
  expect(ratchet(['campaign', 'ready', '--claim', 'A', '--lease', '15m'], { cwd: dir }).status).toBe(0);
  expect(ratchet(['campaign', 'update-task', '1', 'complete', '--runner', 'A'], { cwd: dir }).status).toBe(0);
  expect(ratchet(['campaign', 'ready', '--claim', 'B', '--lease', '15m'], { cwd: dir }).status).toBe(0);
  return dir;
}

describe('store export and import on files', () => {
  test('files -> files: the campaign comes back byte for byte, with its live claim', () => {
    const from = campaignProject();
    const out = join(from, 'state.jsonl');
    expect(ratchet(['store', 'export', '--out', 'state.jsonl'], { cwd: from }).status).toBe(0);
    const to = tempDir('ratchet-transfer-to-');
    const imported = ratchet(['--json', 'store', 'import', out], { cwd: to });
    expect(imported.stderr).toBe('');
    expect(JSON.parse(imported.stdout)).toMatchObject({ ok: true, documents: 1 });
    expect(readFileSync(join(to, '.ratchet/campaign.json'), 'utf8')).toBe(readFileSync(join(from, '.ratchet/campaign.json'), 'utf8'));
    // B's claim came along: nobody else gets task 2, and B can finish it.
    expect(JSON.parse(ratchet(['--json', 'campaign', 'ready', '--claim', 'C', '--lease', '15m'], { cwd: to }).stdout)).toMatchObject({ claimed: { seq: 3 } });
    expect(ratchet(['campaign', 'update-task', '2', 'complete', '--runner', 'B'], { cwd: to }).status).toBe(0);
  }, 120_000);

  test('bad input: malformed, truncated, empty, binary and colliding imports write nothing', () => {
    const from = campaignProject();
    const text = ratchet(['store', 'export'], { cwd: from }).stdout;
    const lines = text.trimEnd().split('\n');
    const cases: [string, string, RegExp][] = [
      ['truncated', `${lines.slice(0, -1).join('\n')}\n`, /cut short/],
      ['cut mid-line', text.slice(0, Math.floor(text.length / 2)), /line \d+|:\d+: /],
      ['bad JSON', `${lines[0]}\n{"type":"document",\n${lines.slice(1).join('\n')}\n`, /:2: not JSON/],
      ['hostile key', text.replace('".ratchet/campaign.json"', '"../../etc/passwd"'), /:2: "key"/],
      ['not an export', '{"hello":"world"}\n', /:1: a record|:1: unknown record type/],
      ['empty', '', /not a Ratchet store export|cut short/],
      ['CRLF with a lost trailer', lines.slice(0, -1).join('\r\n'), /cut short/],
    ];
    for (const [name, body, message] of cases) {
      const to = tempDir('ratchet-transfer-bad-');
      writeFileSync(join(to, 'in.jsonl'), body);
      const r = ratchet(['store', 'import', 'in.jsonl'], { cwd: to });
      expect({ name, status: r.status }).toEqual({ name, status: 2 });
      expect(r.stderr, name).toMatch(message);
      expect(existsSync(join(to, '.ratchet')), name).toBe(false);
    }
    const binary = tempDir('ratchet-transfer-bin-');
    writeFileSync(join(binary, 'in.jsonl'), Buffer.from([0, 1, 2, 255, 254]));
    expect(ratchet(['store', 'import', 'in.jsonl'], { cwd: binary }).status).toBe(2);
    // Into a project that already has a campaign: refused, the existing file untouched.
    const other = campaignProject();
    const before = readFileSync(join(other, '.ratchet/campaign.json'), 'utf8');
    writeFileSync(join(other, 'in.jsonl'), text);
    const collide = ratchet(['store', 'import', 'in.jsonl'], { cwd: other });
    expect(collide.status).toBe(2);
    expect(collide.stderr).toContain('already holds document .ratchet/campaign.json');
    expect(readFileSync(join(other, '.ratchet/campaign.json'), 'utf8')).toBe(before);
  }, 120_000);
});

const availability = testClusterAvailability();
if (!availability.available) console.warn(`\n*** SKIPPED: files -> PostgreSQL -> files needs PostgreSQL: ${INSTALL_HINT}\n`);

describe.skipIf(!availability.available)('store export and import through PostgreSQL', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  test('files -> PostgreSQL -> files: byte-identical documents, and the campaign works in between', () => {
    const from = campaignProject();
    expect(ratchet(['store', 'export', '--out', 'state.jsonl'], { cwd: from }).status).toBe(0);
    const pg = { RATCHET_STORE: cluster.url, RATCHET_STORE_PROJECT: 'transfer' };
    const machine = tempDir('ratchet-transfer-pg-');
    const imported = ratchet(['store', 'import', join(from, 'state.jsonl')], { cwd: machine, env: pg });
    expect(imported.stderr).toBe('');
    expect(imported.status).toBe(0);
    const status = ratchet(['--json', 'campaign', 'status'], { cwd: machine, env: pg });
    expect((JSON.parse(status.stdout) as { tasks: { status: string }[] }).tasks.map((t) => t.status)).toEqual(['complete', 'in_progress', 'pending']);
    expect(ratchet(['store', 'export', '--out', 'back.jsonl'], { cwd: machine, env: pg }).status).toBe(0);
    const back = tempDir('ratchet-transfer-back-');
    expect(ratchet(['store', 'import', join(machine, 'back.jsonl')], { cwd: back }).status).toBe(0);
    expect(readFileSync(join(back, '.ratchet/campaign.json'), 'utf8')).toBe(readFileSync(join(from, '.ratchet/campaign.json'), 'utf8'));
    const pgStatus = ratchet(['store', 'status'], { cwd: machine, env: pg });
    expect(pgStatus.stdout).toContain('store: postgres at postgres://');
    expect(pgStatus.stdout).toContain('document .ratchet/campaign.json');
  }, 120_000);
});
