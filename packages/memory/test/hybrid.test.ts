import { describe, expect, test } from 'vitest';
import { CONCEPTS, entryText, MemoryIndex, SemanticIndex, fuse, rankOf, tokenize } from '../src/index.js';
import { emptyMemory, failure, NOW } from './support.js';

const opts = { now: NOW };

function memory() {
  const data = emptyMemory();
  data.failures.push(failure('mongo-port', 'MongoServerSelectionError: connect ECONNREFUSED 127.0.0.1:27017, EADDRINUSE', { fix: 'stop the local mongod or map the container elsewhere' }));
  data.failures.push(failure('jwt-env', 'Error: JWT_SECRET is not defined (jsonwebtoken)', { fix: 'load dotenv in the runner setup file' }));
  data.failures.push(failure('css-purge', 'stylesheet classes vanish in production after purge', { fix: 'safelist dynamic class names' }));
  return data;
}

describe('hybrid retrieval: BM25 fused with the built-in semantic signal', () => {
  test('a paraphrase with no word in common finds its entry; BM25 alone finds nothing', () => {
    const data = memory();
    const index = new MemoryIndex(data);
    const query = 'signing the auth token fails since no key is configured';
    const words = new Set(tokenize(entryText(data.failures[1]!)));
    expect(tokenize(query).filter((t) => words.has(t))).toEqual([]);
    expect(index.query(query, { ...opts, retrieval: 'bm25' }).failures).toEqual([]);
    expect(index.query(query, opts).failures.map((h) => h.name)[0]).toBe('jwt-env');
    expect(index.query('tests cannot reach the database on localhost', opts).failures.map((h) => h.name)[0]).toBe('mongo-port');
  });

  test('explain shows each signal: BM25 score and rank, semantic score and rank, fused', () => {
    const index = new MemoryIndex(memory());
    const [e] = index.explain('mongod database', { ...opts, name: 'mongo-port' });
    expect(e!.retrieval.bm25.rank).toBe(1);
    expect(e!.retrieval.semantic).toMatchObject({ rank: 1, source: 'builtin' });
    const { bm25, semantic, fused } = e!.retrieval;
    expect(fused.score).toBeCloseTo(1 - (1 - bm25.score) * (1 - 0.9 * semantic!.score));
    expect(e!.semantic!.find((m) => m.word === 'databas' || m.word === 'database')!.via).toBe('concept:database');
    const [lexical] = index.explain('mongod database', { ...opts, name: 'mongo-port', retrieval: 'bm25' });
    expect(lexical!.retrieval.semantic).toBeUndefined();
    expect(lexical!.semantic).toBeUndefined();
  });

  test('no loss on exact error strings: a BM25 hit stays first and keeps at least its BM25 relevance', () => {
    const index = new MemoryIndex(memory());
    for (const q of ['ECONNREFUSED 127.0.0.1:27017', 'JWT_SECRET is not defined']) {
      const lexical = index.query(q, { ...opts, retrieval: 'bm25' }).failures;
      const hybrid = index.query(q, opts).failures;
      expect(hybrid[0]!.name).toBe(lexical[0]!.name);
      expect(hybrid[0]!.relevance).toBeGreaterThanOrEqual(lexical[0]!.relevance);
    }
  });

  test('unrelated topics stay below the threshold; hostile input does not throw', () => {
    const index = new MemoryIndex(memory());
    expect(index.query('the quarterly marketing newsletter layout', opts).failures).toEqual([]);
    for (const q of ['', '\uFEFF', '\u0000\u0001binary\uFFFD', 'a'.repeat(100_000), '((( ))) [[[ ]]]', 'x\r\ny\r\n']) expect(() => index.query(q, opts)).not.toThrow();
  });

  test('n-grams join inflections the stemmer misses; phrases map to concepts', () => {
    const s = new SemanticIndex(['the configuration file is invalid', 'Error: listen EADDRINUSE', 'unrelated words here']);
    expect(s.scores('configured')[0]).toBeGreaterThan(0);
    expect(s.scores('configured')[2]).toBe(0);
    // "address already in use" is the port concept, like EADDRINUSE.
    expect(s.explain('address already in use', 1).some((m) => m.via === 'concept:port')).toBe(true);
  });

  test('fusion and rank helpers', () => {
    const f = fuse(Float64Array.from([0, 1, 0.5]), Float64Array.from([0, 0, 1]));
    expect([...f].map((x) => Math.round(x * 1000) / 1000)).toEqual([0, 1, 0.95]);
    expect(rankOf(Float64Array.from([0.2, 0.9, 0.2, 0]), 0)).toBe(2);
    expect(rankOf(Float64Array.from([0.2, 0.9, 0.2, 0]), 3)).toBeUndefined();
  });

  test('the concept table is data: lowercase entries, no group empty, no duplicates inside a group', () => {
    for (const [name, words] of Object.entries(CONCEPTS)) {
      expect(words.length, name).toBeGreaterThan(1);
      for (const w of words) expect(w, name).toBe(w.toLowerCase());
    }
  });
});
