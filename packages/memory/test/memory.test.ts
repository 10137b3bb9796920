import { describe, expect, test } from 'vitest';
import {
  addFailure,
  addPattern,
  decay,
  enforceCaps,
  explainQuery,
  feedback,
  helpRatio,
  importance,
  link,
  MemoryError,
  MemoryIndex,
  prune,
  queryMemory,
  recordAccess,
  related,
  stats,
  type Embedder,
} from '../src/index.js';
import { DAY, emptyMemory, failure, NOW, pattern } from './support.js';

const opts = { now: NOW };

describe('quality gates', () => {
  test('every failing gate is reported with its reason, and nothing is stored', () => {
    const data = emptyMemory();
    const r = addFailure(data, { name: 'bad name!', trigger: 'error', fix: ' ', cost: 50, match: '(a+)+$' }, opts);
    expect(r.status).toBe('refused');
    if (r.status !== 'refused') return;
    expect(r.refusals.map((x) => x.gate).sort()).toEqual(['fix', 'match', 'name', 'trigger-length', 'value']);
    expect(r.refusals.find((x) => x.gate === 'value')!.reason).toContain('at least 100');
    expect(data.failures).toHaveLength(0);
  });

  test('generic triggers are refused even when long enough', () => {
    const r = addFailure(emptyMemory(), { trigger: 'Something went wrong again', fix: 'look closer', cost: 500 }, opts);
    expect(r).toMatchObject({ status: 'refused', refusals: [{ gate: 'generic-trigger' }] });
  });

  test('hostile input: huge text, __proto__ names, NaN costs, CRLF and binary in triggers', () => {
    const huge = addFailure(emptyMemory(), { trigger: `TypeError in parser ${'x'.repeat(5000)}`, fix: 'y'.repeat(5000), cost: 500 }, opts);
    expect(huge.status === 'refused' && huge.refusals.map((r) => r.gate)).toEqual(['text-length', 'text-length']);
    for (const name of ['__proto__', 'constructor!', '../../etc/passwd', '', 'a'.repeat(121)]) {
      expect(addFailure(emptyMemory(), { name, trigger: 'a specific trigger text', fix: 'x', cost: 500 }, opts)).toMatchObject({ status: 'refused', refusals: [{ gate: 'name' }] });
    }
    expect(addFailure(emptyMemory(), { trigger: 'a specific trigger text', fix: 'x', cost: Number.NaN }, opts)).toMatchObject({ status: 'refused', refusals: [{ gate: 'value' }] });
    const data = emptyMemory();
    expect(addFailure(data, { trigger: '\uFEFFredis timeout\r\nin queue \u0000 worker', fix: 'x', cost: 500 }, opts).status).toBe('added');
    expect(queryMemory(data, 'redis queue worker timeout', opts).failures).toHaveLength(1);
    expect(Object.prototype).not.toHaveProperty('x');
  });

  test('boundaries: 10 characters and cost 100 pass', () => {
    const r = addFailure(emptyMemory(), { trigger: 'npm ci EPERM', fix: 'close the editor holding node_modules', cost: 100 }, opts);
    expect(r.status).toBe('added');
    const short = addFailure(emptyMemory(), { trigger: 'npm EPERM', fix: 'x', cost: 100 }, opts);
    expect(short).toMatchObject({ status: 'refused', refusals: [{ gate: 'trigger-length' }] });
    expect(addPattern(emptyMemory(), { trigger: 'use respx to mock httpx', insight: 'x', saved: 99 }, opts)).toMatchObject({ status: 'refused', refusals: [{ gate: 'value' }] });
  });
});

describe('adding and merging', () => {
  test('a near-duplicate trigger merges: sources unioned, cost raised, name kept', () => {
    const data = emptyMemory();
    const a = addFailure(data, { trigger: "ModuleNotFoundError: No module named 'requests'", fix: 'pip install requests', cost: 2000, source: ['c1/001_a'] }, opts);
    const b = addFailure(data, { trigger: "ModuleNotFoundError: no module named 'request' ", fix: 'other', cost: 3000, source: ['c2/004_b', 'c1/001_a'] }, opts);
    expect(a.status).toBe('added');
    expect(b).toMatchObject({ status: 'merged', name: a.name });
    expect(data.failures).toHaveLength(1);
    expect(data.failures[0]).toMatchObject({ source: ['c1/001_a', 'c2/004_b'], cost: 3000, fix: 'pip install requests' });
    const c = addFailure(data, { trigger: "ModuleNotFoundError: No module named 'numpy'", fix: 'pip install numpy', cost: 2000 }, opts);
    expect(c.status).toBe('added');
    expect(data.failures).toHaveLength(2);
  });

  test('same name merges; a name used by the other kind is an error', () => {
    const data = emptyMemory();
    addFailure(data, { name: 'db-lock', trigger: 'sqlite database is locked during tests', fix: 'use WAL', cost: 1000 }, opts);
    expect(addFailure(data, { name: 'db-lock', trigger: 'totally different redis trigger text', fix: 'x', cost: 1000, tags: ['db'] }, opts).status).toBe('merged');
    expect(data.failures[0]!.tags).toEqual(['db']);
    expect(() => addPattern(data, { name: 'db-lock', trigger: 'enable WAL mode for sqlite', insight: 'x', saved: 500 }, opts)).toThrow(MemoryError);
  });

  test('derived names are unique and valid', () => {
    const data = emptyMemory();
    addFailure(data, { trigger: 'webpack build OOM on CI runners', fix: 'raise max-old-space-size', cost: 1000 }, opts);
    addFailure(data, { name: 'webpack-build-oom-on-ci-runners', trigger: 'unrelated postgres migration drift', fix: 'x', cost: 1000 }, opts);
    const names = data.failures.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names[0]).toBe('webpack-build-oom-on-ci-runners');
  });

  test('caps evict the least important entries and report them', () => {
    const data = emptyMemory();
    data.failures.push(failure('old-cheap', 'ancient cheap failure text', { cost: 100, created_at: new Date(NOW - 400 * DAY).toISOString() }));
    data.failures.push(failure('recent-costly', 'recent costly failure text', { cost: 9000 }));
    const r = addFailure(data, { trigger: 'brand new failure with details', fix: 'x', cost: 1000 }, { now: NOW, maxFailures: 2 });
    expect(r).toMatchObject({ status: 'added', evicted: ['old-cheap'] });
    expect(data.failures.map((f) => f.name).sort()).toEqual(['brand-new-failure-with-details', 'recent-costly']);
  });

  test('default caps are 500 failures and 200 patterns', () => {
    const data = emptyMemory();
    for (let i = 0; i < 505; i++) data.failures.push(failure(`f${i}`, `failure number ${i} text`, { cost: 100 + i }));
    for (let i = 0; i < 203; i++) data.patterns.push(pattern(`p${i}`, `pattern number ${i} text`, { saved: 100 + i }));
    const evicted = enforceCaps(data, opts);
    expect(data.failures).toHaveLength(500);
    expect(data.patterns).toHaveLength(200);
    expect(evicted).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'p0', 'p1', 'p2'].sort());
  });
});

describe('scoring and query', () => {
  test('help ratio, decay and importance follow the documented formulas', () => {
    const f = failure('x', 'some failure text', { times_helped: 3, times_failed: 1, cost: 1023, access_count: 4, created_at: new Date(NOW - 30 * DAY).toISOString() });
    expect(helpRatio(f)).toBeCloseTo(4 / 6);
    expect(decay(30)).toBeCloseTo(0.5);
    expect(importance(f, NOW)).toBeCloseTo(10 * 0.5 * (1 + 0.05 * 2) * 2 * (4 / 6));
    const fresh = failure('y', 'some failure text', { cost: 1023 });
    expect(importance(fresh, NOW)).toBeCloseTo(10 * 1 * 1 * 1 * 1.1);
  });

  test('score = relevance x log2(cost+1) x help ratio x decay; ordering follows it', () => {
    const data = emptyMemory();
    data.failures.push(failure('cheap', 'redis timeout in queue worker', { cost: 100 }));
    data.failures.push(failure('costly', 'redis timeout in queue worker!', { cost: 10_000 }));
    data.failures.push(failure('costly-but-failed', 'redis timeout in queue worker?', { cost: 10_000, times_failed: 8 }));
    data.failures.push(failure('costly-but-old', 'redis timeout in the queue worker', { cost: 10_000, created_at: new Date(NOW - 90 * DAY).toISOString() }));
    const r = queryMemory(data, 'redis timeout queue worker', opts);
    expect(r.failures.map((h) => h.name)).toEqual(['costly', 'cheap', 'costly-but-failed', 'costly-but-old']);
    for (const h of r.failures) expect(h.score).toBeCloseTo(h.relevance * Math.log2(('cost' in h.entry ? h.entry.cost : Number.NaN) + 1) * h.signals.helpRatio * h.signals.decay, 10);
  });

  test('threshold, tiers and the top 5 failures / 3 patterns', () => {
    const data = emptyMemory();
    for (let i = 0; i < 8; i++) data.failures.push(failure(`f${i}`, `docker permission denied on volume mount ${i}`));
    for (let i = 0; i < 5; i++) data.patterns.push(pattern(`p${i}`, `docker permission denied: rootless volume trick ${i}`));
    data.failures.push(failure('unrelated', 'react hook state not updating after render'));
    const r = queryMemory(data, 'docker permission denied volume', opts);
    expect(r.failures).toHaveLength(5);
    expect(r.patterns).toHaveLength(3);
    expect(r.failures.every((h) => h.tier === 'critical')).toBe(true);
    expect(r.patterns.every((h) => h.relevance >= 0.25)).toBe(true);
    expect(r.failures.some((h) => h.name === 'unrelated')).toBe(false);
    expect(queryMemory(data, 'docker permission denied volume', { now: NOW, threshold: 0.99, maxFailures: 100 }).failures.every((h) => h.relevance >= 0.99)).toBe(true);
  });

  test('a match regex hit makes an entry fully relevant; tags filter', () => {
    const data = emptyMemory();
    data.failures.push(failure('port', 'address already in use on dev server', { match: 'EADDRINUSE.*:\\d+', tags: ['node'] }));
    const r = queryMemory(data, 'Error: listen EADDRINUSE: 127.0.0.1:3000', opts);
    expect(r.failures[0]).toMatchObject({ name: 'port', relevance: 1, tier: 'critical', signals: { match: true } });
    expect(queryMemory(data, 'Error: listen EADDRINUSE: 127.0.0.1:3000', { now: NOW, tags: ['python'] }).failures).toHaveLength(0);
  });

  test('explain gives each signal and says why an entry was left out', () => {
    const data = emptyMemory();
    data.failures.push(failure('pg-deadlock', 'postgres deadlock during migration', { times_helped: 2 }));
    data.failures.push(failure('react', 'react hook state not updating'));
    const [hit] = explainQuery(data, 'postgres deadlock', { ...opts, name: 'pg-deadlock' });
    expect(hit).toMatchObject({ name: 'pg-deadlock', returned: true, rank: 1, tier: 'critical' });
    expect(hit!.factors.map((f) => f.signal)).toEqual(['relevance', 'value', 'helpRatio', 'decay']);
    expect(hit!.factors.reduce((a, f) => a * f.value, 1)).toBeCloseTo(hit!.score, 10);
    expect(hit!.terms.map((t) => t.term)).toEqual(['postgre', 'deadlock']);
    const [miss] = explainQuery(data, 'postgres deadlock', { ...opts, name: 'react' });
    expect(miss).toMatchObject({ returned: false, tier: undefined });
    expect(miss!.excludedBecause).toContain('below the threshold');
  });

  test('an embedder is the semantic signal, fused with BM25 (a user model, no download)', async () => {
    const data = emptyMemory();
    data.failures.push(failure('a', 'cannot connect to the cache server'));
    data.failures.push(failure('b', 'stylesheet not loading in production'));
    // A toy "model": vector = [mentions cache/redis, mentions css/style].
    const embedder: Embedder = {
      embed: (texts) => texts.map((t) => [/cache|redis/i.test(t) ? 1 : 0, /css|style/i.test(t) ? 1 : 0]),
    };
    const r = await new MemoryIndex(data).queryWith(embedder, 'redis refuses connections', opts);
    expect(r.failures.map((h) => h.name)).toEqual(['a']);
    // The embedder's cosine is 1 and BM25 sees no shared word: fused = 1 - (1 - 0) * (1 - 0.9 * 1).
    expect(r.failures[0]!.relevance).toBeCloseTo(0.9);
    const [why] = await new MemoryIndex(data).explainWith(embedder, 'redis refuses connections', { ...opts, name: 'a' });
    expect(why!.retrieval).toEqual({ bm25: { score: 0, rank: undefined }, semantic: { score: 1, rank: 1, source: 'embedder' }, fused: { score: 0.9, rank: 1 } });
    const lexicalOnly = await new MemoryIndex(data).queryWith(embedder, 'redis refuses connections', { ...opts, retrieval: 'bm25' });
    expect(lexicalOnly.failures).toEqual([]);
    const bad: Embedder = { embed: () => [[1]] };
    await expect(new MemoryIndex(data).queryWith(bad, 'x', opts)).rejects.toThrow(/vectors/);
  });

  test('an index is a snapshot: reuse gives the same answer as a fresh query', () => {
    const data = emptyMemory();
    for (let i = 0; i < 50; i++) data.failures.push(failure(`f${i}`, `alpha beta ${i % 7} gamma ${i}`, { cost: 100 + i * 10 }));
    const index = new MemoryIndex(data);
    for (const q of ['alpha 3', 'gamma 12', 'beta']) expect(index.query(q, opts)).toEqual(queryMemory(data, q, opts));
  });
});

describe('feedback, access, graph, prune, stats', () => {
  test('feedback counts and updates access; unknown names are an error', () => {
    const data = emptyMemory();
    data.failures.push(failure('f', 'some failure trigger'));
    feedback(data, 'f', 'helped', NOW + DAY);
    feedback(data, 'f', 'failed', NOW + DAY);
    expect(data.failures[0]).toMatchObject({ times_helped: 1, times_failed: 1, access_count: 2, last_accessed: new Date(NOW + DAY).toISOString() });
    expect(() => feedback(data, 'nope', 'helped', NOW)).toThrow(expect.objectContaining({ code: 'not-found' }) as Error);
    recordAccess(data, ['f', 'f', 'ghost'], NOW + 2 * DAY);
    expect(data.failures[0]!.access_count).toBe(3);
  });

  test('related: typed weighted edges with inverses, product threshold 0.5', () => {
    const data = emptyMemory();
    for (const n of ['a', 'b', 'c', 'd', 'e']) data.failures.push(failure(n, `failure ${n} trigger text`));
    data.patterns.push(pattern('p', 'pattern trigger text'));
    link(data, 'a', 'b', 'variant'); // 0.7
    link(data, 'b', 'c', 'variant'); // 0.49 < 0.5: dropped
    link(data, 'a', 'p', 'solved_by'); // 1.5
    link(data, 'p', 'd', 'co_occurs'); // 1.2
    link(data, 'e', 'a', 'causes'); // a caused_by e: 1.0
    expect(data.failures[4]!.related_typed).toEqual({ causes: ['a'] });
    expect(data.failures[0]!.related_typed).toEqual({ caused_by: ['e'], solved_by: ['p'], variant: ['b'] });
    expect(data.patterns[0]!.related_typed).toEqual({ co_occurs: ['d'], solves: ['a'] });
    const r = related(data, 'a');
    expect(r.map((x) => [x.name, Number(x.weight.toFixed(2))])).toEqual([
      ['p', 1.5],
      ['d', 1.2],
      ['e', 1],
      ['b', 0.7],
    ]);
    expect(r.find((x) => x.name === 'd')!.path.map((s) => s.type)).toEqual(['solved_by', 'co_occurs']);
    expect(related(data, 'c').map((x) => x.name)).toEqual(['b']);
    expect(() => link(data, 'a', 'a', 'causes')).toThrow(/itself/);
    expect(() => link(data, 'a', 'zz', 'causes')).toThrow(/no memory entry/);
    expect(() => link(data, 'a', 'b', 'hates' as never)).toThrow(/unknown relation/);
  });

  test('related terminates on cycles with weights above 1', () => {
    const data = emptyMemory();
    data.failures.push(failure('x', 'failure x trigger text'));
    data.patterns.push(pattern('y', 'pattern y trigger text'));
    link(data, 'x', 'y', 'solved_by');
    expect(related(data, 'x', { maxDepth: 50 }).map((r) => r.name)).toEqual(['y']);
  });

  test('prune removes entries below importance 0.1 and the edges to them', () => {
    const data = emptyMemory();
    data.failures.push(failure('ancient', 'very old failure text', { cost: 100, created_at: new Date(NOW - 400 * DAY).toISOString() }));
    data.failures.push(failure('fresh', 'fresh failure text'));
    link(data, 'fresh', 'ancient', 'causes');
    const r = prune(data, opts);
    expect(r.removed.map((x) => x.name)).toEqual(['ancient']);
    expect(r.removed[0]!.importance).toBeLessThan(0.1);
    expect(data.failures[0]).toMatchObject({ name: 'fresh', related: [], related_typed: {} });
  });

  test('stats', () => {
    const data = emptyMemory();
    data.failures.push(failure('a', 'failure a trigger', { times_helped: 2, tags: ['x'] }));
    data.patterns.push(pattern('b', 'pattern b trigger', { times_failed: 1, tags: ['x', 'y'] }));
    link(data, 'a', 'b', 'solved_by');
    const s = stats(data, NOW);
    expect(s).toMatchObject({ failures: 1, patterns: 1, edges: 1, feedback: { helped: 2, failed: 1 }, prunable: 0, caps: { failures: 500, patterns: 200 } });
    expect({ ...s.tags }).toEqual({ x: 2, y: 1 });
    expect(s.top[0]!.name).toBe('a');
  });
});
