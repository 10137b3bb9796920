#!/usr/bin/env node
// Recall benchmark for @ratchet/memory's hybrid retrieval (run after `pnpm --filter @ratchet/memory build`).
// The set (lib/memory-recall-set.mjs): 26 realistic failure entries, 32 paraphrased queries that share no
// word with their target (checked here: the script fails if one does), 14 exact error strings.
// Measured: recall@5 of the query's returned failures (default threshold 0.25, top 5), hybrid (BM25 +
// the built-in semantic signal) against BM25 alone; the same with the set hidden among 2,000 generated
// entries; and one query's median time over 10,000 entries with the semantic signal on.
// Limits: paraphrase recall@5 >= 0.9 (hybrid, the set alone); no exact-string query found by BM25 alone
// is lost by hybrid; median query <= 20 ms. Prints one JSON line; exits 1 when a limit is exceeded.
import { performance } from 'node:perf_hooks';
import { MemoryIndex, entryText, tokenize } from '../../packages/memory/dist/index.js';
import { ENTRIES, EXACT, PARAPHRASES } from './lib/memory-recall-set.mjs';
import { seededWords } from './lib/seeded-words.mjs';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const DAY = 86_400_000;
const base = { source: [], access_count: 0, last_accessed: null, related: [], related_typed: {}, times_helped: 0, times_failed: 0, created_at: new Date(NOW - 10 * DAY).toISOString() };
const set = ENTRIES.map(([name, trigger, fix, cost]) => ({ ...base, name, trigger, fix, match: null, cost }));
const byName = new Map(set.map((e) => [e.name, e]));

// 1. Honesty: a paraphrase shares no (stemmed, non-stop) word with its target.
const violations = [];
for (const [query, target] of PARAPHRASES) {
  const entry = byName.get(target);
  if (entry === undefined) throw new Error(`no entry ${target}`);
  const words = new Set(tokenize(entryText(entry)));
  const shared = [...new Set(tokenize(query))].filter((t) => words.has(t));
  if (shared.length > 0) violations.push({ query, target, shared });
}
if (violations.length > 0) {
  console.log(JSON.stringify({ pass: false, error: 'paraphrases share words with their targets', violations }));
  process.exit(1);
}

// Seeded distractors, the vocabulary of tests/bench/memory.mjs.
const { rnd, words } = seededWords(20260601);
const generated = (n) => Array.from({ length: n }, (_, i) => ({ ...base, name: `gen-${i}`, trigger: `${words(9)} ${['TypeError', 'ECONNREFUSED', 'ModuleNotFoundError', 'EACCES', 'SIGKILL'][i % 5]}`, fix: words(14), match: null, cost: 100 + Math.floor(rnd() * 7000) }));

function recall(index, queries, retrieval) {
  const missed = [];
  let found = 0;
  const perQuery = [];
  for (const [query, target] of queries) {
    const names = index.query(query, { now: NOW, maxFailures: 5, retrieval }).failures.map((h) => h.name);
    const hit = names.includes(target);
    perQuery.push(hit);
    if (hit) found++;
    else missed.push({ query, target, got: names.slice(0, 3) });
  }
  return { recallAt5: Math.round((found / queries.length) * 1000) / 1000, found, of: queries.length, missed, perQuery };
}

const small = new MemoryIndex({ failures: set, patterns: [] });
const mixed = new MemoryIndex({ failures: [...generated(2000), ...set], patterns: [] });
const para = { hybrid: recall(small, PARAPHRASES, 'hybrid'), bm25: recall(small, PARAPHRASES, 'bm25') };
const paraMixed = { hybrid: recall(mixed, PARAPHRASES, 'hybrid'), bm25: recall(mixed, PARAPHRASES, 'bm25') };
const exact = { hybrid: recall(small, EXACT, 'hybrid'), bm25: recall(small, EXACT, 'bm25') };
const exactMixed = { hybrid: recall(mixed, EXACT, 'hybrid'), bm25: recall(mixed, EXACT, 'bm25') };
const lost = [exact, exactMixed].flatMap((r) => r.bm25.perQuery.map((hit, i) => (hit && !r.hybrid.perQuery[i] ? EXACT[i][0] : null)).filter((q) => q !== null));

// 3. Speed: 10,000 entries, semantic signal on.
const big = new MemoryIndex({ failures: [...generated(10_000 - set.length), ...set], patterns: [] });
let t0 = performance.now();
big.query('warm up the semantic index', { now: NOW });
const buildMs = performance.now() - t0;
const topics = [...PARAPHRASES.map(([q]) => q), ...EXACT.map(([q]) => q)];
for (const q of topics.slice(0, 8)) big.query(q, { now: NOW });
const ms = [];
for (const q of topics) {
  t0 = performance.now();
  big.query(q, { now: NOW });
  ms.push(performance.now() - t0);
}
ms.sort((a, b) => a - b);
const median = ms.length % 2 ? ms[(ms.length - 1) / 2] : (ms[ms.length / 2 - 1] + ms[ms.length / 2]) / 2;
const round = (x) => Math.round(x * 100) / 100;
const strip = (r) => ({ recallAt5: r.recallAt5, found: r.found, of: r.of });

const result = {
  entries: set.length,
  paraphrases: PARAPHRASES.length,
  exactQueries: EXACT.length,
  paraphraseRecallAt5: { hybrid: strip(para.hybrid), bm25: strip(para.bm25) },
  paraphraseRecallAt5Among2000: { hybrid: strip(paraMixed.hybrid), bm25: strip(paraMixed.bm25) },
  exactRecallAt5: { hybrid: strip(exact.hybrid), bm25: strip(exact.bm25) },
  exactRecallAt5Among2000: { hybrid: strip(exactMixed.hybrid), bm25: strip(exactMixed.bm25) },
  exactLostByHybrid: lost,
  missedParaphrases: para.hybrid.missed,
  query10kMedianMs: round(median),
  query10kMaxMs: round(ms[ms.length - 1]),
  semanticIndexBuild10kMs: round(buildMs),
  limits: { paraphraseRecallAt5: 0.9, exactLost: 0, query10kMedianMs: 20 },
};
result.pass = para.hybrid.recallAt5 >= 0.9 && lost.length === 0 && median <= 20;
console.log(JSON.stringify(result));
process.exitCode = result.pass ? 0 : 1;
