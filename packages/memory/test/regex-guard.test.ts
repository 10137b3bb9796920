import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { addFailure, checkRegex, MATCH_SUBJECT_LIMIT, queryMemory } from '../src/index.js';
import { emptyMemory, failure, NOW, tempDir } from './support.js';

const worker = fileURLToPath(new URL('./fixtures/worker.mjs', import.meta.url));
const EVIL = '(a+)+$';
const EVIL_SUBJECT = `${'a'.repeat(40)}!`;

function runWorker(args: string[], timeoutMs: number): { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--conditions=@ratchet/source', '--import', 'tsx', worker, ...args], { encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL' });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

describe('regex guard', () => {
  test.each([
    '(a+)+$',
    '(a*)*b',
    '(a|a)*c',
    '(.*a){12}',
    '(.*a){3}',
    '(\\w+\\d+)+$',
    '^(([a-z])+.)+[A-Z]([a-z])+$',
    '(x+x+)+y',
    '\\s*\\s*\\s*$',
    '((ab|a){10}){10}',
    '([a-zA-Z0-9]+\\s?)*$',
    '(a)\\1',
    '(?<n>a)\\k<n>',
    'x(?=y)',
    '(?<!a)b',
    'a'.repeat(201),
    '(unclosed',
    '',
    // V8 without the u flag: `[^]` is a whole class, `\u{1,}` is `u+`, `\p{1,}` is `p+`, `\x{1,}` is `x+`.
    '[^](a+)+]',
    '[](a+)+]',
    '(\\u{1,})*$',
    '(\\p{1,})*$',
    '(\\x{1,})*$',
    '\\u{1,}\\u{1,}\\u{1,}x',
  ])('refuses %s', (pattern) => {
    const verdict = checkRegex(pattern);
    expect(verdict.safe).toBe(false);
  });

  test.each(['ImportError.*module', 'EADDRINUSE.*:\\d+', '(\\d{1,3}\\.){3}\\d{1,3}', 'No module named [\'"]?\\w+', '^TypeError: .* of undefined', '[a-z]+@[a-z]+\\.com', 'timeout|deadlock', '[^]*ERR', '\\u0041+B', '\\x41*B', '(?:foo|bar){2}', '(\\w+\\s){2}'])('accepts %s', (pattern) => {
    expect(checkRegex(pattern).safe).toBe(true);
  });

  test('adding a failure with a catastrophic match is refused with the reason', () => {
    const r = addFailure(emptyMemory(), { trigger: 'long aaaa strings hang the parser', fix: 'x', cost: 500, match: EVIL }, { now: NOW });
    expect(r).toMatchObject({ status: 'refused', refusals: [{ gate: 'match' }] });
    if (r.status === 'refused') expect(r.refusals[0]!.reason).toContain('backtrack');
  });

  test('a hand-edited memory.json with a catastrophic match: the query skips it and reports it', () => {
    const data = emptyMemory();
    data.failures.push(failure('evil', 'long aaaa strings hang the parser', { match: EVIL }));
    data.failures.push(failure('good', 'parser hangs on long input', { match: 'hang' }));
    const r = queryMemory(data, EVIL_SUBJECT, { now: NOW });
    expect(r.skipped).toEqual([{ name: 'evil', reason: expect.stringContaining('not run') as string }]);
    expect(queryMemory(data, 'the parser hangs', { now: NOW }).failures.map((h) => h.name)).toContain('good');
  });

  test('a time budget bounds the regexes of one query: entries met after it is spent are scored without theirs and reported', () => {
    const data = emptyMemory();
    for (let i = 0; i < 6; i++) data.failures.push(failure(`f${i}`, `unrelated words number ${i}`, { match: 'ZZMARK' }));
    expect(queryMemory(data, 'ZZMARK seen', { now: NOW }).failures.filter((h) => h.signals.match)).toHaveLength(5);
    let t = 0;
    // Each reading of this clock is 40 ms later: the first two regexes run, then the 100 ms are spent.
    const clock = (): number => (t += 40);
    const r = queryMemory(data, 'ZZMARK seen', { now: NOW, maxFailures: 10, matchBudget: { ms: 100, clock } });
    expect(r.failures.map((h) => h.name)).toEqual(['f0', 'f1']);
    expect(r.skipped.map((s) => s.name)).toEqual(['f2', 'f3', 'f4', 'f5']);
    expect(r.skipped[0]!.reason).toContain('time budget of 100 ms');
  });

  test('accepted patterns only ever see the first 256 characters of the topic', () => {
    const data = emptyMemory();
    data.failures.push(failure('tail', 'marker at the end of a long topic', { match: 'ZZTAIL' }));
    expect(queryMemory(data, `${'x '.repeat(MATCH_SUBJECT_LIMIT)}ZZTAIL`, { now: NOW }).failures.filter((h) => h.signals.match)).toHaveLength(0);
  });

  // Real processes with a hard timeout in the harness: a hang fails the test instead of hanging it.
  test('the harness really catches a hang: the raw pattern on this subject is killed by the timeout', () => {
    const raw = runWorker(['regex', EVIL, `${'a'.repeat(50)}!`], 3_000);
    expect(raw.signal).toBe('SIGKILL');
  });

  // The guard's scanner must read patterns exactly as V8 compiles them: any mismatch (a class, an
  // escape) can hide a nested quantifier. Generated patterns that the guard accepts are run on
  // adversarial subjects in a real process; an accepted catastrophic pattern would hang it until the
  // harness kills it, and stderr names the pattern. (This found `[^](a+)+]` and `(\u{1,})*`.)
  test('property: every generated pattern the guard accepts finishes on adversarial subjects in a real process', () => {
    // Patterns from a small grammar: atoms (the tricky ones included), groups, quantifiers, sequences, alternations.
    const { alt } = fc.letrec<{ atom: string; group: string; quantified: string; seq: string; alt: string }>((tie) => ({
      atom: fc.oneof({ depthSize: 'small' }, fc.constantFrom('a', 'b', ' ', '.', '\\w', '[ab]', '[^]', '[]', '[^a]', ']', '\\u0061', '\\x61', '\\u{1,}', '\\p{2,}', '\\x{1,}', '\\c', '$'), tie('group')),
      group: fc.tuple(fc.constantFrom('(', '(?:'), tie('alt')).map(([open, inner]) => `${open}${inner})`),
      quantified: fc.tuple(tie('atom'), fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,}', '{0,3}', '{16}')).map(([atom, q]) => atom + q),
      seq: fc.array(tie('quantified'), { minLength: 1, maxLength: 4 }).map((xs) => xs.join('')),
      alt: fc.array(tie('seq'), { minLength: 1, maxLength: 2 }).map((xs) => xs.join('|')),
    }));
    const accepted = new Set<string>();
    fc.assert(
      fc.property(alt, (pattern) => {
        if (checkRegex(pattern).safe) accepted.add(pattern);
      }),
      { numRuns: 5000, seed: 20260601 },
    );
    expect(accepted.size).toBeGreaterThan(300);
    const file = join(tempDir(), 'patterns.json');
    writeFileSync(file, JSON.stringify([...accepted]));
    const r = runWorker(['regexes', file], 120_000);
    expect({ signal: r.signal, lastPattern: r.stderr.trim().split('\n').at(-1) }).toEqual({ signal: null, lastPattern: expect.any(String) as string });
    expect(r.stdout).toBe('done');
  }, 150_000);

  test('a query over memory.json holding the catastrophic pattern finishes in a real process', () => {
    const dir = tempDir();
    const file = join(dir, 'memory.json');
    const evil = failure('evil', 'long aaaa strings hang the parser', { match: EVIL });
    writeFileSync(file, JSON.stringify({ schemaVersion: 1, failures: [evil], patterns: [] }));
    const r = runWorker(['query', file, `${'a'.repeat(50)}!`], 20_000);
    expect(r.signal, r.stderr).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ skipped: [{ name: 'evil' }] });
  });
});
