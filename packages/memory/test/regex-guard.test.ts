import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
    '(a|ab)+x',
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
  ])('refuses %s', (pattern) => {
    const verdict = checkRegex(pattern);
    expect(verdict.safe).toBe(false);
  });

  test.each(['ImportError.*module', 'EADDRINUSE.*:\\d+', '(\\d{1,3}\\.){3}\\d{1,3}', 'No module named [\'"]?\\w+', '^TypeError: .* of undefined', '[a-z]+@[a-z]+\\.com', 'timeout|deadlock'])('accepts %s', (pattern) => {
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
