import { mkdtempSync, readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

function project(): string {
  return mkdtempSync(join(tmpdir(), 'ratchet-cli-memory-'));
}

function capture(cwd: string): { io: Io; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd, readStdin: () => Promise.resolve('') },
    out: () => out,
    err: () => err,
  };
}

async function ratchet(cwd: string, ...argv: string[]): Promise<{ code: number; out: string; err: string; json: () => Record<string, unknown> }> {
  const c = capture(cwd);
  const code = await run(argv, c.io);
  return { code, out: c.out(), err: c.err(), json: () => JSON.parse(c.out()) as Record<string, unknown> };
}

const addRequests = ['memory', 'add-failure', '--trigger', "ModuleNotFoundError: No module named 'requests'", '--fix', 'install requests in the project venv', '--cost', '3000', '--name', 'requests-missing', '--source', 'auth/002'];

describe('ratchet memory', () => {
  test('add-failure, add-pattern, query, explain: the round trip', async () => {
    const dir = project();
    expect((await ratchet(dir, ...addRequests)).out).toContain('added failure requests-missing to .ratchet/memory.json');
    const p = await ratchet(dir, 'memory', 'add-pattern', '--trigger', 'pin dependencies with a lockfile in CI', '--insight', 'use pip-tools and commit requirements.txt', '--saved', '1500');
    expect(p.code).toBe(0);
    const q = await ratchet(dir, 'memory', 'query', 'pytest', 'fails:', 'No', 'module', 'named', 'requests');
    expect(q.code).toBe(0);
    expect(q.out).toMatch(/failures \(1\):\n\s+critical\s+[\d.]+\s+requests-missing: ModuleNotFoundError/);
    const j = await ratchet(dir, '--json', 'memory', 'query', 'No module named requests');
    expect(j.json()).toMatchObject({ ok: true, failures: [{ name: 'requests-missing', tier: 'critical', fix: 'install requests in the project venv', source: ['auth/002'] }], patterns: [] });
    const e = await ratchet(dir, 'memory', 'explain', 'No module named requests', '--name', 'requests-missing');
    expect(e.out).toContain('failure requests-missing: rank 1, critical');
    expect(e.out).toMatch(/term "request": tf \d+, idf [\d.]+, contributes/);
    expect(e.out).toMatch(/x decay\s+1\.0000/);
    // Each retrieval signal with its score and rank, then the fused relevance.
    expect(e.out).toMatch(/bm25\s+[\d.]+\s+\(rank 1\)/);
    expect(e.out).toMatch(/semantic\s+[\d.]+\s+\(rank 1, built-in/);
    expect(e.out).toMatch(/fused\s+[\d.]+\s+\(rank 1;/);
    // A paraphrase: no word in common, found through the semantic signal only.
    const para = await ratchet(dir, '--json', 'memory', 'explain', 'python library import absent', '--name', 'requests-missing');
    const [why] = para.json().explanations as { retrieval: { bm25: { score: number }; semantic: { score: number; source: string } } }[];
    expect(why!.retrieval.bm25.score).toBe(0);
    expect(why!.retrieval.semantic).toMatchObject({ source: 'builtin' });
    expect(why!.retrieval.semantic.score).toBeGreaterThan(0.25);
    const lexical = await ratchet(dir, '--json', 'memory', 'explain', 'python library import absent', '--name', 'requests-missing', '--retrieval', 'bm25');
    expect((lexical.json().explanations as { retrieval: Record<string, unknown> }[])[0]!.retrieval.semantic).toBeUndefined();
    expect((await ratchet(dir, 'memory', 'query', 'x', '--retrieval', 'magic')).code).toBe(2);
    const ej = await ratchet(dir, '--json', 'memory', 'explain', 'lockfile CI', '--name', 'requests-missing');
    expect(ej.json()).toMatchObject({ explanations: [{ name: 'requests-missing', returned: false }] });
  });

  test('ratchet.config.json chooses the embedder: transformers without its package is a clear input error; a bad section is refused', async () => {
    const dir = project();
    await ratchet(dir, ...addRequests);
    writeFileSync(join(dir, 'ratchet.config.json'), JSON.stringify({ memory: { embedder: 'transformers', modelDir: 'models' } }));
    const missing = await ratchet(dir, 'memory', 'query', 'No module named requests');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('ratchet.config.json');
    expect(missing.err).toContain('npm install @huggingface/transformers');
    // --retrieval bm25 does not need the embedder.
    expect((await ratchet(dir, 'memory', 'query', 'No module named requests', '--retrieval', 'bm25')).code).toBe(0);
    writeFileSync(join(dir, 'ratchet.config.json'), JSON.stringify({ memory: { embedder: 'magic' } }));
    const bad = await ratchet(dir, 'memory', 'query', 'No module named requests');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/ratchet\.config\.json.*\/memory\/embedder: expected one of builtin, transformers/);
    writeFileSync(join(dir, 'ratchet.config.json'), JSON.stringify({ memory: { embedder: 'builtin' } }));
    expect((await ratchet(dir, 'memory', 'query', 'No module named requests')).code).toBe(0);
  });

  test('queries never write unless --record', async () => {
    const dir = project();
    await ratchet(dir, ...addRequests);
    const file = join(dir, '.ratchet/memory.json');
    const before = readFileSync(file, 'utf8');
    await ratchet(dir, 'memory', 'query', 'No module named requests');
    expect(readFileSync(file, 'utf8')).toBe(before);
    await ratchet(dir, 'memory', 'query', 'No module named requests', '--record');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ failures: [{ access_count: 1 }] });
  });

  test('a gate refusal exits 1 with every reason and writes nothing', async () => {
    const dir = project();
    const r = await ratchet(dir, 'memory', 'add-failure', '--trigger', 'error', '--fix', 'x', '--cost', '10');
    expect(r.code).toBe(1);
    expect(r.out).toContain('trigger-length: trigger is 5 characters');
    expect(r.out).toContain('value: cost is 10');
    expect(existsSync(join(dir, '.ratchet/memory.json'))).toBe(false);
    const g = await ratchet(dir, '--json', 'memory', 'add-failure', '--trigger', 'something went wrong again', '--fix', 'x', '--cost', '500');
    expect(g.code).toBe(1);
    expect(g.json()).toMatchObject({ ok: false, status: 'refused', refusals: [{ gate: 'generic-trigger' }] });
    const m = await ratchet(dir, 'memory', 'add-failure', '--trigger', 'parser hangs on long aaaa input', '--fix', 'x', '--cost', '500', '--match', '(a+)+$');
    expect(m.code).toBe(1);
    expect(m.out).toContain('match: match pattern refused');
  });

  test('a near-duplicate merges and says so', async () => {
    const dir = project();
    await ratchet(dir, ...addRequests);
    const r = await ratchet(dir, '--json', 'memory', 'add-failure', '--trigger', "ModuleNotFoundError: no module named 'request'", '--fix', 'x', '--cost', '4000', '--source', 'billing/007');
    expect(r.json()).toMatchObject({ ok: true, status: 'merged', name: 'requests-missing' });
    const stats = await ratchet(dir, '--json', 'memory', 'stats');
    expect(stats.json()).toMatchObject({ failures: 1, patterns: 0 });
  });

  test('feedback, link, related, prune, stats', async () => {
    const dir = project();
    await ratchet(dir, ...addRequests);
    await ratchet(dir, 'memory', 'add-pattern', '--name', 'venv-first', '--trigger', 'create the virtualenv before installing', '--insight', 'python -m venv .venv', '--saved', '800');
    expect((await ratchet(dir, 'memory', 'feedback', 'requests-missing', '--helped')).out).toContain('requests-missing: helped (helped 1, failed 0; help ratio 0.67)');
    expect((await ratchet(dir, 'memory', 'link', 'requests-missing', 'venv-first', '--type', 'solved_by')).code).toBe(0);
    const rel = await ratchet(dir, '--json', 'memory', 'related', 'venv-first');
    expect(rel.json()).toMatchObject({ related: [{ name: 'requests-missing', weight: 1.5, path: [{ type: 'solves' }] }] });
    expect((await ratchet(dir, 'memory', 'related', 'requests-missing')).out).toMatch(/1\.50\s+pattern venv-first/);
    const pr = await ratchet(dir, '--json', 'memory', 'prune', '--dry-run');
    expect(pr.json()).toMatchObject({ dryRun: true, removed: [], kept: 2 });
    const st = await ratchet(dir, 'memory', 'stats');
    expect(st.out).toContain('1/500 failures, 1/200 patterns, 1 relations');
    expect(st.out).toContain('feedback: 1 helped, 0 failed');
  });

  test('prune removes what decayed away', async () => {
    const dir = project();
    mkdirSync(join(dir, '.ratchet'));
    const old = { name: 'ancient', trigger: 'an ancient failure text', fix: 'x', match: null, cost: 100, source: [], access_count: 0, last_accessed: null, related: [], related_typed: {}, times_helped: 0, times_failed: 0, created_at: '2000-01-01T00:00:00Z' };
    writeFileSync(join(dir, '.ratchet/memory.json'), JSON.stringify({ schemaVersion: 1, failures: [old], patterns: [] }));
    const r = await ratchet(dir, 'memory', 'prune');
    expect(r.out).toMatch(/removed 1, kept 0:\n\s+failure ancient/);
    expect(JSON.parse(readFileSync(join(dir, '.ratchet/memory.json'), 'utf8'))).toMatchObject({ failures: [] });
  });

  test('bad input exits 2 naming the file and place; the file is left alone', async () => {
    const dir = project();
    mkdirSync(join(dir, '.ratchet'));
    const text = '{\n  "schemaVersion": 1,\n  "failures": [,\n}\n';
    writeFileSync(join(dir, '.ratchet/memory.json'), text);
    const q = await ratchet(dir, 'memory', 'query', 'anything');
    expect(q.code).toBe(2);
    expect(q.err).toMatch(/\.ratchet\/memory\.json:3:\d+: /);
    const a = await ratchet(dir, ...addRequests);
    expect(a.code).toBe(2);
    expect(readFileSync(join(dir, '.ratchet/memory.json'), 'utf8')).toBe(text);
    writeFileSync(join(dir, '.ratchet/memory.json'), '{"schemaVersion": 1, "failures": [], "patterns": [], "__proto__": {"polluted": true}}');
    const p = await ratchet(dir, '--json', 'memory', 'stats');
    expect(p.code).toBe(2);
    expect(p.json()).toMatchObject({ ok: false, error: { code: 'unsafe-input' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('usage errors exit 2: unknown entry, bad numbers, missing options', async () => {
    const dir = project();
    await ratchet(dir, ...addRequests);
    const f = await ratchet(dir, 'memory', 'feedback', 'nope', '--helped');
    expect(f.code).toBe(2);
    expect(f.err).toContain('.ratchet/memory.json: no memory entry named "nope"');
    expect((await ratchet(dir, 'memory', 'feedback', 'requests-missing')).code).toBe(2);
    expect((await ratchet(dir, 'memory', 'feedback', 'requests-missing', '--helped', '--failed')).code).toBe(2);
    expect((await ratchet(dir, 'memory', 'add-failure', '--trigger', 'valid specific trigger here', '--fix', 'x', '--cost', 'lots')).err).toContain('--cost must be a number');
    expect((await ratchet(dir, 'memory', 'query', 'x', '--threshold', '2')).code).toBe(2);
    expect((await ratchet(dir, 'memory', 'add-failure', '--fix', 'x', '--cost', '100')).code).toBe(2);
    expect((await ratchet(dir, 'memory', 'link', 'requests-missing', 'requests-missing', '--type', 'causes')).code).toBe(2);
    expect((await ratchet(dir, 'memory', 'link', 'a', 'b', '--type', 'hates')).code).toBe(2);
  });

  test('--file points elsewhere; a missing memory file queries as empty', async () => {
    const dir = project();
    const r = await ratchet(dir, 'memory', 'query', 'anything at all', '--file', 'custom/mem.json');
    expect(r.code).toBe(0);
    expect(r.out).toContain('no memory reaches relevance 0.25 for this topic (0 entries in custom/mem.json)');
    expect((await ratchet(dir, ...addRequests, '--file', 'custom/mem.json')).code).toBe(0);
    expect(existsSync(join(dir, 'custom/mem.json'))).toBe(true);
  });

  test('import an FTL memory.json: merged, refused entries listed (exit 1); a bad file exits 2', async () => {
    const dir = project();
    const ftl = {
      failures: [
        { name: 'import-error', trigger: "ModuleNotFoundError: No module named 'requests'", fix: 'pip install requests', cost: 3000, times_helped: 2 },
        { name: 'import-error-2', trigger: "ModuleNotFoundError: no module named 'request'", fix: 'same', cost: 2000 },
        { name: 'vague', trigger: 'error', fix: 'x', cost: 5 },
      ],
      patterns: [],
    };
    writeFileSync(join(dir, 'ftl.json'), JSON.stringify(ftl));
    const r = await ratchet(dir, 'memory', 'import', 'ftl.json');
    expect(r.code).toBe(1);
    expect(r.out).toContain('1 added, 1 merged into near-duplicates');
    expect(r.out).toContain('merged import-error-2 into import-error');
    expect(r.out).toContain('refused failure vague');
    expect(JSON.parse(readFileSync(join(dir, '.ratchet/memory.json'), 'utf8'))).toMatchObject({ failures: [{ name: 'import-error', times_helped: 2 }] });
    writeFileSync(join(dir, 'bad.json'), '{"failures": [}');
    const bad = await ratchet(dir, 'memory', 'import', 'bad.json');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/bad\.json:1:\d+: /);
  });

  test('help has examples', async () => {
    const r = await ratchet(project(), 'memory', 'query', '--help');
    expect(r.out).toContain('Examples:');
    expect(r.out).toContain('--record');
  });
});
