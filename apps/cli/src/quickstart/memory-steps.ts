/**
 * Quickstart steps for memory: a failure remembered, a near-duplicate merged, a generic one refused,
 * a pattern linked to it, recall by topic with every signal explained, feedback, and a hand-edited
 * file whose catastrophic regex is skipped instead of hanging the query.
 */
import type { TourStep } from './steps.js';

export const MEMORY_STEPS: readonly TourStep[] = [
  {
    title: 'Remember a failure',
    explain: 'A trigger to recognise it, a fix, what it cost; the match regex makes it fully relevant when a topic contains the error. Kept in .ratchet/memory.json, written under a lock.',
    args: ['memory', 'add-failure', '--name', 'requests-missing', '--trigger', "ModuleNotFoundError: No module named 'requests'", '--fix', 'Install it in the project venv, not globally.', '--cost', '3000', '--match', 'No module named', '--source', 'auth/002'],
    expectExit: 0,
  },
  {
    title: 'A near-duplicate is merged, not stored twice',
    explain: "One character differs: FTL's exact-match Bloom filter let this in twice; here the sources are unioned into the existing entry.",
    args: ['memory', 'add-failure', '--trigger', "ModuleNotFoundError: no module named 'request'", '--fix', 'pip install requests', '--cost', '1000', '--source', 'billing/004'],
    expectExit: 0,
  },
  {
    title: 'A generic failure is refused',
    explain: 'Quality gates: "tests failed" would match every future query, and a cost under 100 is not worth remembering. Every reason at once (exit 1).',
    args: ['memory', 'add-failure', '--trigger', 'tests failed', '--fix', 'fix the tests', '--cost', '50'],
    expectExit: 1,
  },
  {
    title: 'Remember what worked, and relate it',
    explain: 'A pattern, linked to the failure it solves; the inverse edge (solves) is stored on the pattern.',
    args: ['memory', 'add-pattern', '--name', 'venv-first', '--trigger', 'create the virtualenv before installing packages', '--insight', 'python -m venv .venv, then install into it', '--saved', '1500'],
    expectExit: 0,
  },
  {
    title: 'Link them',
    explain: 'Typed edges with weights: solves 1.5, causes 1.0, co_occurs 0.8, variant 0.7.',
    args: ['memory', 'link', 'requests-missing', 'venv-first', '--type', 'solved_by'],
    expectExit: 0,
  },
  {
    title: 'Recall by topic',
    explain: 'BM25 relevance (no model download) x log2(cost + 1) x help ratio x age decay, tiered critical / productive / exploration.',
    args: ['memory', 'query', 'pytest fails: No module named requests'],
    expectExit: 0,
  },
  {
    title: 'Why it ranks there',
    explain: "explain prints each signal: every query term's tf, idf and contribution, the match, the cost factor, the help ratio and the decay.",
    args: ['memory', 'explain', 'pytest fails: No module named requests', '--name', 'requests-missing'],
    expectExit: 0,
  },
  {
    title: 'Say it helped',
    explain: 'Feedback moves the help ratio (helped + 1) / (helped + failed + 2) and so the ranking.',
    args: ['memory', 'feedback', 'requests-missing', '--helped'],
    expectExit: 0,
  },
  {
    title: 'What is related',
    explain: 'Breadth first over typed edges, dropping paths whose weight product falls under 0.5.',
    args: ['memory', 'related', 'venv-first'],
    expectExit: 0,
  },
  {
    title: 'A hand-edited memory with a catastrophic regex',
    explain: '(a+)+$ would take exponential time on this topic. Unsafe patterns are refused on add and skipped (with a note) at query time, never run.',
    args: ['memory', 'query', '--file', 'examples/memory/hand-edited-memory.json', 'parser hangs on aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!'],
    expectExit: 0,
    examples: ['memory/hand-edited-memory.json'],
  },
  {
    title: 'Memory at a glance',
    explain: 'Counts against the caps (500 failures, 200 patterns), feedback, relations, and what prune would remove.',
    args: ['memory', 'stats'],
    expectExit: 0,
  },
];
