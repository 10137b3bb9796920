/**
 * `ratchet import`: the original systems' layouts, built from the owning packages' fixtures (which
 * follow the formats in the seeds): found, reported, converted only with --write, never overwriting,
 * and a broken input file stops everything with its place.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

const packages = fileURLToPath(new URL('../../../packages/', import.meta.url));

async function ratchet(cwd: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd, readStdin: () => Promise.resolve('') };
  const code = await run(args, io);
  return { code, out, err };
}

function put(dir: string, rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

const FTL_MEMORY = JSON.stringify({
  failures: [
    { name: 'budget-out', trigger: 'Budget exhausted while reading code_context partially', fix: 'read fewer files first', cost: 3000, match: 'Budget.*exhausted.*code_context.*partial|budget.*ran out.*before.*verify' },
    { name: 'aaa-hang', trigger: 'parser hangs on long aaaa strings in the fixture', fix: 'cap the input length', cost: 800, match: '(a+)+$' },
  ],
  patterns: [],
});

/** A project holding every original layout. */
function legacyProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-import-'));
  cpSync(join(packages, 'campaign-dag/test/fixtures/ftl/.ftl'), join(dir, '.ftl'), { recursive: true });
  put(dir, '.ftl/memory.json', FTL_MEMORY);
  for (const f of ['v1-docs.log.md', 'v3-demo.log.md', 'readme.task.md']) cpSync(join(packages, 'jixo-log/test/fixtures/legacy', f), join(dir, '.jixo', f));
  put(dir, '.claude/memory/T1-clarification-memory.md', '# memory\n');
  put(dir, 'AGENTS.md', '# Agents\n');
  put(dir, 'knowledge_core/lessons.jsonl', '');
  put(dir, 'logs/activity.log.jsonl', '{"log_id":"1","session_id":"s","timestamp":"t","phase":"p","task":{"id":"t","plan_step":0},"action":{"type":"x","details":{}},"outcome":{"status":"ok","message":""}}\n');
  return dir;
}

describe('ratchet import', () => {
  test('auto finds every layout, says what is read in place and what would be converted, and writes nothing', async () => {
    const dir = legacyProject();
    const r = await ratchet(dir, ['import', 'auto']);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    for (const s of ['jules:', 'jixo:', 'ftl:', 'claude-orchestration:']) expect(r.out).toContain(s);
    expect(r.out).toContain('read in place  .jixo/readme.task.md');
    expect(r.out).toContain('read in place  .ftl/workspace/002_build-login_blocked.xml');
    expect(r.out).toContain('would convert  .ftl/campaign.json -> .ratchet/campaign.json');
    expect(r.out).toContain('would convert  .ftl/memory.json -> .ratchet/memory.json');
    expect(r.out).toContain('nothing written: pass --write');
    expect(existsSync(join(dir, '.ratchet'))).toBe(false);
  });

  test('--json follows the import schema', async () => {
    const dir = legacyProject();
    const r = await ratchet(dir, ['--json', 'import', 'ftl']);
    const doc = JSON.parse(r.out) as { $schema: string; ok: boolean; systems: { system: string; convert: { from: string; to: string; status: string }[] }[] };
    expect(doc.$schema).toBe('https://unpkg.com/@ratchet/cli/schemas/output/import.v1.schema.json');
    expect(doc.ok).toBe(true);
    expect(doc.systems[0]!.convert.map((c) => [c.from, c.status])).toEqual([
      ['.ftl/archive/20251020T090000.json', 'planned'],
      ['.ftl/campaign.json', 'planned'],
      ['.ftl/memory.json', 'planned'],
    ]);
    const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../schemas/output/import.v1.schema.json', import.meta.url)), 'utf8')) as { required: string[] };
    for (const key of schema.required) expect(doc).toHaveProperty(key);
  });

  test('ftl --write converts campaign, archive and memory (risky regex dropped with a warning); a second --write refuses and overwrites nothing', async () => {
    const dir = legacyProject();
    const r = await ratchet(dir, ['import', 'ftl', '--write']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('converted  .ftl/campaign.json -> .ratchet/campaign.json');
    expect(r.out).toMatch(/memory: aaa-hang kept without its match "\(a\+\)\+\$"/);
    const campaign = readFileSync(join(dir, '.ratchet/campaign.json'), 'utf8');
    expect(JSON.parse(campaign)).toMatchObject({ objective: 'Add user authentication' });
    const memory = JSON.parse(readFileSync(join(dir, '.ratchet/memory.json'), 'utf8')) as { failures: { name: string; match: string | null }[] };
    expect(memory.failures.map((f) => [f.name, f.match === null])).toEqual([['budget-out', false], ['aaa-hang', true]]);
    expect((await ratchet(dir, ['campaign', 'status'])).code).toBe(0);
    const again = await ratchet(dir, ['import', 'ftl', '--write']);
    expect(again.code).toBe(1);
    expect(again.out).toContain('refused  .ftl/campaign.json -> .ratchet/campaign.json  (.ratchet/campaign.json already exists; it is not overwritten)');
    expect(again.out).toContain('refused  .ftl/memory.json -> .ratchet/memory.json');
    expect(readFileSync(join(dir, '.ratchet/campaign.json'), 'utf8')).toBe(campaign);
  });

  test('a broken input file: exit 2 with file:line, and --write writes nothing at all', async () => {
    const dir = legacyProject();
    put(dir, '.ftl/campaign.json', '{\n  "objective": "x",\n  "tasks": [\n    {"seq": "001", "slug": "a", "depends": "none", "status": "pending"},\n');
    const r = await ratchet(dir, ['import', 'ftl', '--write']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\.ftl\/campaign\.json:5:\d+: error: /);
    expect(r.err).toContain('nothing written');
    expect(existsSync(join(dir, '.ratchet'))).toBe(false);
  });

  test('one bad JSONL line never hides the others: every bad line of the activity log is reported', async () => {
    const dir = legacyProject();
    const good = readFileSync(join(dir, 'logs/activity.log.jsonl'), 'utf8').trim();
    put(dir, 'logs/activity.log.jsonl', `${good}\n{"broken": \n${good}\r\n[1,2]\n${good}\n`);
    const r = await ratchet(dir, ['import', 'jules']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/logs\/activity\.log\.jsonl:2:1: error: not JSON/);
    expect(r.err).toMatch(/logs\/activity\.log\.jsonl:4:1: error: a JSONL line must be a JSON object/);
    expect(r.err.trim().split('\n')).toHaveLength(2);
  });

  test('a broken JIXO log is named with its line; *.task.md is read as a job, not a log', async () => {
    const dir = legacyProject();
    put(dir, '.jixo/bad.log.md', '---\ntitle: x\n---\n\n## 工作计划\n\n- [ ] 1. a\n  - status: Sleeping\n\n## 工作日志\n');
    const r = await ratchet(dir, ['import', 'jixo']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\.jixo\/bad\.log\.md:8:\d+: error: task 1: unknown status "Sleeping"/);
    expect(r.err).not.toContain('readme.task.md');
    const check = await ratchet(dir, ['jixo', 'check', '.jixo/readme.task.md']);
    expect(check.code).toBe(0);
  });

  test('bad usage and empty directories exit 2', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'ratchet-import-empty-'));
    expect((await ratchet(empty, ['import', 'nope'])).code).toBe(2);
    const none = await ratchet(empty, ['import', 'auto']);
    expect([none.code, none.out.trim()]).toEqual([2, 'no layout of jules, jixo, ftl, claude-orchestration, frontal-cortex found in .']);
    expect((await ratchet(empty, ['import', 'ftl', 'missing-dir'])).code).toBe(2);
  });
});
