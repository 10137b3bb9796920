import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { failureOf, formatErrorReport, toErrorReport, CliError } from '../src/errors.js';
import { shownPath } from '../src/paths.js';
import { run } from '../src/main.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

function capture(stdin = ''): { io: Io; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd: repoRoot, readStdin: () => Promise.resolve(stdin) },
    out: () => out,
    err: () => err,
  };
}

describe('run() in-process', () => {
  test('exit codes: 0 for a clean check, 1 for problems, 2 for usage errors', async () => {
    expect(await run(['fsm', 'check', 'protocols/fdc.fsm.json'], capture().io)).toBe(0);
    expect(await run(['fsm', 'check', 'examples/fsm/broken.fsm.json'], capture().io)).toBe(1);
    expect(await run(['fsm', 'nope'], capture().io)).toBe(2);
    expect(await run(['--help'], capture().io)).toBe(0);
  });

  test('--json usage errors are one JSON document on stdout', async () => {
    const c = capture();
    expect(await run(['--json', 'fsm', 'check'], c.io)).toBe(2);
    expect(JSON.parse(c.out())).toMatchObject({ ok: false, error: { code: 'commander.missingArgument' } });
  });

  test('--quiet prints nothing on success but still prints errors', async () => {
    const ok = capture();
    expect(await run(['--quiet', 'fsm', 'accept', 'protocols/fdc.fsm.json', 'plan_op', 'step_op', 'close_op'], ok.io)).toBe(0);
    expect(ok.out()).toBe('');
    const bad = capture();
    expect(await run(['--quiet', 'fsm', 'check', 'missing.json'], bad.io)).toBe(2);
    expect(bad.err()).toContain('missing.json');
  });

  test('symbols from stdin go through the Io, not process.stdin', async () => {
    const c = capture('plan_op step_op close_op');
    expect(await run(['fsm', 'accept', 'protocols/fdc.fsm.json', '--from-file', '-'], c.io)).toBe(0);
    expect(c.out()).toContain('accepted: 3 symbols');
  });
});

describe('error reports', () => {
  test('file:line:col prefix, and store errors keep their reason without repeating the path', () => {
    expect(formatErrorReport(toErrorReport(new CliError('boom', { file: 'a.json', line: 3, column: 7 })))).toBe('a.json:3:7: boom');
    const storeLike = Object.assign(new Error('/x/a.json: bad (line 1, column 2)'), { code: 'parse-error', path: '/x/a.json', reason: 'bad', line: 1, column: 2 });
    expect(formatErrorReport(toErrorReport(storeLike))).toBe('/x/a.json:1:2: bad');
    expect(formatErrorReport(toErrorReport(new Error('plain')))).toBe('ratchet: plain');
  });

  test('a file inside the command directory is named relative to it, in the document and on stderr; one outside keeps its absolute path', () => {
    const storeLike = (path: string): Error => Object.assign(new Error(`${path}: bad`), { code: 'parse-error', path, reason: 'bad', line: 1, column: 2 });
    const show = (path: string): string => shownPath('/p', path);
    const inside = failureOf(storeLike('/p/.ratchet/campaign.json'), show);
    expect(inside.document.error).toMatchObject({ file: '.ratchet/campaign.json', line: 1, column: 2 });
    expect(inside.text).toBe('.ratchet/campaign.json:1:2: bad');
    expect(failureOf(storeLike('/elsewhere/a.json'), show).document.error.file).toBe('/elsewhere/a.json');
    expect(failureOf(storeLike('/p/../p2/a.json'), show).document.error.file).toBe('/p/../p2/a.json');
    expect(failureOf(new CliError('boom', { file: '../x.json' }), show).document.error.file).toBe('../x.json');
  });

  test('an unparsable state file: the --json error names it relative to --cwd, and the file is left as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-error-path-'));
    mkdirSync(join(dir, '.ratchet'));
    writeFileSync(join(dir, '.ratchet', 'campaign.json'), '{bad');
    const c = capture();
    expect(await run(['--json', '--cwd', dir, 'campaign', 'status'], c.io)).toBe(2);
    expect(JSON.parse(c.out())).toMatchObject({ ok: false, error: { code: 'parse-error', file: '.ratchet/campaign.json', line: 1, column: 2 } });
    expect(c.err()).toMatch(/^\.ratchet\/campaign\.json:1:2: /);
    expect(readFileSync(join(dir, '.ratchet', 'campaign.json'), 'utf8')).toBe('{bad');
  });
});
