import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Bm25Index, isGenericTrigger, tokenize, triggerSimilarity, findNearDuplicate } from '../src/index.js';

describe('tokenize', () => {
  test('splits camelCase and acronyms, lowercases, drops stop words, joins inflections', () => {
    expect(tokenize("ModuleNotFoundError: No module named 'requests' in HTTPServer")).toEqual(['module', 'found', 'error', 'module', 'named', 'request', 'http', 'server']);
    expect(tokenize('failing failed fails')).toEqual(['fail', 'fail', 'fail']);
  });

  test('hostile input: CRLF, BOM, NUL, emoji, a huge blob', () => {
    expect(tokenize('\uFEFFtimeout\r\nredis\u0000queue')).toEqual(['timeout', 'redis', 'queue']);
    expect(tokenize('déjà vu 🚀 naïve')).toEqual(['déjà', 'vu', '🚀', 'naïve']);
    const blob = 'A'.repeat(100_000);
    const out = tokenize(blob);
    expect(out).toHaveLength(1);
    expect(out[0]!.length).toBeLessThanOrEqual(64);
  });

  test('property: tokens are lowercase, non-empty and never contain separators', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        for (const t of tokenize(s)) {
          expect(t.length).toBeGreaterThan(0);
          expect(t).toBe(t.toLowerCase());
          expect(/[\s.,:;'"()[\]{}<>/\\|]/.test(t)).toBe(false);
        }
      }),
    );
  });
});

describe('BM25 relevance', () => {
  const docs = ['redis timeout in the queue worker', 'postgres deadlock during migration', 'redis connection refused on port 6379', 'react hook state not updating'];
  const index = new Bm25Index(docs);

  test('ranks the document with more of the query words first, and ignores unrelated ones', () => {
    const s = index.scores('redis queue timeout');
    expect(s[0]).toBeGreaterThan(s[2]!);
    expect(s[2]).toBeGreaterThan(0);
    expect(s[1]).toBe(0);
    expect(s[3]).toBe(0);
  });

  test('a rare word weighs more than a common one', () => {
    // "redis" is in 2 documents, "deadlock" in 1: each query matches exactly one word of doc 1 or doc 0.
    const rare = index.scores('deadlock zebra')[1]!;
    const common = index.scores('redis zebra')[0]!;
    expect(rare).toBeGreaterThan(common);
  });

  test('a query word no entry has counts against the match, but not like a df=0 idf', () => {
    const full = index.scores('deadlock migration')[1]!;
    const partial = index.scores('deadlock migration unicorn')[1]!;
    expect(partial).toBeLessThan(full);
    expect(partial).toBeGreaterThan(0.4);
  });

  test('explain: per-term contributions sum to the relevance', () => {
    const { terms, relevance } = index.explain('redis queue unicorn', 0);
    expect(terms.map((t) => t.term)).toEqual(['redis', 'queue', 'unicorn']);
    expect(terms[2]!.tf).toBe(0);
    expect(terms.reduce((a, t) => a + t.contribution, 0)).toBeCloseTo(relevance, 10);
    expect(relevance).toBeCloseTo(index.scores('redis queue unicorn')[0]!, 10);
  });

  test('empty corpus and empty query', () => {
    expect(new Bm25Index([]).scores('anything')).toHaveLength(0);
    expect([...index.scores('  the of and ')]).toEqual([0, 0, 0, 0]);
  });

  test('property: relevance is always within [0, 1]', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 60 }), { maxLength: 20 }), fc.string({ maxLength: 60 }), (corpus, q) => {
        for (const s of new Bm25Index(corpus).scores(q)) {
          expect(s).toBeGreaterThanOrEqual(0);
          expect(s).toBeLessThanOrEqual(1);
        }
      }),
    );
  });
});

describe('near duplicates and generic triggers', () => {
  test('one-character differences merge; a different module does not', () => {
    expect(triggerSimilarity("ModuleNotFoundError: No module named 'requests'", "ModuleNotFoundError: no module named 'request'")).toBeGreaterThan(0.8);
    expect(triggerSimilarity("ModuleNotFoundError: No module named 'numpy'", "ModuleNotFoundError: No module named 'requests'")).toBeLessThan(0.8);
    const found = findNearDuplicate('TypeError: cannot read properties of undefined (reading "map")', [
      { trigger: 'SyntaxError: unexpected token' },
      { trigger: 'TypeError: Cannot read properties of undefined (reading "map") ' },
    ]);
    expect(found).toEqual({ index: 1, similarity: 1 });
  });

  test('generic triggers are those without two specific words', () => {
    for (const t of ['Something went wrong', 'the test failed again', 'build error', 'It does not work!!!', 'unknown error occurred']) expect(isGenericTrigger(t), t).toBe(true);
    for (const t of ['TypeError: cannot read property map of undefined', 'pytest fixture db not found', 'ECONNREFUSED 127.0.0.1:6379']) expect(isGenericTrigger(t), t).toBe(false);
  });
});
