import { writeFileSync, readFileSync, openSync, ftruncateSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { examples, protocols, ratchet, repoRoot, tempDir } from '../helpers.js';

const fdc = join(protocols, 'fdc.fsm.json');

describe('ratchet (global behaviour)', () => {
  test('--version prints the CLI package version', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'apps/cli/package.json'), 'utf8')) as { version: string };
    const r = ratchet(['--version']);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
    // The bin answers a lone --version itself; with other flags commander does: same answer.
    expect(ratchet(['-V']).stdout.trim()).toBe(pkg.version);
    expect(ratchet(['--quiet', '--version']).stdout.trim()).toBe(pkg.version);
  });

  test('--help lists the commands and exit codes', () => {
    const r = ratchet(['--help']);
    expect(r.status).toBe(0);
    for (const word of ['fsm', 'init', 'quickstart', 'Exit codes']) expect(r.stdout).toContain(word);
  });

  test('an unknown command or option is a usage error (exit 2)', () => {
    expect(ratchet(['frobnicate']).status).toBe(2);
    expect(ratchet(['fsm', 'check', '--bogus', fdc]).status).toBe(2);
    expect(ratchet(['fsm', 'render', fdc, '--format', 'png']).status).toBe(2);
  });

  test('--cwd that is not a directory is a usage error', () => {
    const r = ratchet(['--cwd', join(repoRoot, 'no-such-dir'), 'fsm', 'check', 'x.json']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('not a directory');
  });
});

describe('ratchet fsm check', () => {
  test('the shipped protocol machines are clean, even with --strict', () => {
    const files = ['fdc', 'orchestrator', 'research'].map((n) => join(protocols, `${n}.fsm.json`));
    const r = ratchet(['fsm', 'check', '--strict', ...files]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.match(/no problems/g)).toHaveLength(3);
  });

  test('a broken machine: every problem at once, each with line:col and rule id (exit 1)', () => {
    const r = ratchet(['fsm', 'check', '--json', join(examples, 'fsm/broken.fsm.json')]);
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout) as { files: { diagnostics: { ruleId: string; line: number; column: number; pointer: string }[] }[] };
    const diags = doc.files[0]!.diagnostics;
    const rules = diags.map((d) => d.ruleId);
    expect(rules).toEqual(expect.arrayContaining(['undefined-state', 'unknown-symbol', 'unreachable-state', 'unused-symbol']));
    const undefinedState = diags.find((d) => d.ruleId === 'undefined-state')!;
    expect(undefinedState.pointer).toBe('/transitions/WORKING/escape');
    // "escape": "NOWHERE" sits on line 8 of the example file.
    expect(undefinedState.line).toBe(8);
    expect(undefinedState.column).toBeGreaterThan(1);
  });

  test('stylish output names file, line:col, severity and rule', () => {
    const r = ratchet(['fsm', 'check', join(examples, 'fsm/broken.fsm.json')], { cwd: repoRoot });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('examples/fsm/broken.fsm.json');
    expect(r.stdout).toMatch(/8:\d+\s+error\s+.*NOWHERE.*undefined-state/);
    expect(r.stdout).toMatch(/problems \(\d+ errors?, \d+ warnings?\)/);
  });

  test('malformed JSON: exit 2 with file:line:col', () => {
    const dir = tempDir();
    const file = join(dir, 'bad.fsm.json');
    writeFileSync(file, '{\n  "states": ["A",\n  "start_state": "A"\n}\n');
    const r = ratchet(['fsm', 'check', file]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/bad\.fsm\.json:3:\d+/);
  });

  test('a missing file is exit 2 naming it; other files are still checked', () => {
    const r = ratchet(['fsm', 'check', '/nonexistent/x.fsm.json', fdc]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('/nonexistent/x.fsm.json');
    expect(r.stdout).toContain('no problems');
  });

  test('__proto__ keys are refused with their place', () => {
    const dir = tempDir();
    const file = join(dir, 'proto.fsm.json');
    writeFileSync(file, '{"states":["A"],"start_state":"A","accept_states":["A"],\n"transitions":{"__proto__":{"x":"A"}}}');
    const r = ratchet(['fsm', 'check', file]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/proto\.fsm\.json:2:\d+.*__proto__/);
  });

  test('a 100 MB file is refused quickly with a clear message', () => {
    const dir = tempDir();
    const file = join(dir, 'huge.fsm.json');
    const fd = openSync(file, 'w');
    ftruncateSync(fd, 100 * 1024 * 1024);
    closeSync(fd);
    const r = ratchet(['fsm', 'check', file]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/huge\.fsm\.json.*(too large|MiB|bytes)/i);
  });

  test('a binary file is refused with a clear message', () => {
    const dir = tempDir();
    const file = join(dir, 'bin.fsm.json');
    writeFileSync(file, Buffer.from([0x7b, 0x00, 0xff, 0xfe, 0x01, 0x7d]));
    const r = ratchet(['fsm', 'check', file]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/bin\.fsm\.json.*binary/i);
  });

  test('BOM and CRLF are accepted', () => {
    const dir = tempDir();
    const file = join(dir, 'crlf.fsm.json');
    writeFileSync(file, `\uFEFF${readFileSync(fdc, 'utf8').replace(/\n/g, '\r\n')}`);
    expect(ratchet(['fsm', 'check', file]).status).toBe(0);
  });

  test('--json on an input error prints one JSON document with the place', () => {
    const dir = tempDir();
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"a": }');
    const r = ratchet(['--json', 'fsm', 'render', file]);
    expect(r.status).toBe(2);
    const doc = JSON.parse(r.stdout) as { ok: boolean; error: { file: string; line: number; column: number } };
    expect(doc.ok).toBe(false);
    expect(doc.error).toMatchObject({ line: 1, column: 7 });
    expect(doc.error.file).toContain('bad.json');
  });
});

describe('ratchet fsm accept', () => {
  test('a word in the language is accepted (exit 0)', () => {
    const r = ratchet(['fsm', 'accept', fdc, 'plan_op', 'step_op', 'write_op', 'close_op']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('CLOSED');
  });

  test('a rejected word says where, in which state, and what was legal (exit 1)', () => {
    const r = ratchet(['fsm', 'accept', fdc, 'plan_op', 'write_op', 'close_op']);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('symbol 2 of 3');
    expect(r.stdout).toContain('PLANNING');
    expect(r.stdout).toMatch(/legal in PLANNING: .*step_op/);
  });

  test('an unfinished word (no close) is rejected naming the continuation', () => {
    const r = ratchet(['--json', 'fsm', 'accept', fdc, 'plan_op', 'step_op']);
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout) as { accepted: boolean; reason: string; state: string; expected: string[] };
    expect(doc).toMatchObject({ accepted: false, reason: 'not-accepting', state: 'EXECUTING' });
    expect(doc.expected).toContain('close_op');
  });

  test('symbols from a file and from stdin', () => {
    const dir = tempDir();
    const file = join(dir, 'symbols.txt');
    writeFileSync(file, 'plan_op\nstep_op\r\nread_op write_op\nclose_op\n');
    expect(ratchet(['fsm', 'accept', fdc, '--from-file', file]).status).toBe(0);
    expect(ratchet(['fsm', 'accept', fdc, '--from-file', '-'], { input: 'plan_op step_op close_op' }).status).toBe(0);
    expect(ratchet(['fsm', 'accept', fdc, '--from-file', '-'], { input: 'plan_op close_op' }).status).toBe(1);
  });

  test('symbols both inline and from a file is a usage error', () => {
    expect(ratchet(['fsm', 'accept', fdc, 'plan_op', '--from-file', 'x']).status).toBe(2);
  });

  test('accepting against a broken machine is refused (exit 1) pointing at the first error', () => {
    const r = ratchet(['fsm', 'accept', join(examples, 'fsm/broken.fsm.json'), 'start']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/broken\.fsm\.json:\d+:\d+/);
  });
});

describe('ratchet fsm render', () => {
  test('mermaid and dot', () => {
    const mermaid = ratchet(['fsm', 'render', join(protocols, 'orchestrator.fsm.json')]);
    expect(mermaid.status).toBe(0);
    expect(mermaid.stdout).toMatch(/^stateDiagram-v2/);
    expect(mermaid.stdout).toContain('plan_accepted');
    const dot = ratchet(['fsm', 'render', fdc, '--format', 'dot']);
    expect(dot.status).toBe(0);
    expect(dot.stdout).toMatch(/^digraph/);
    expect(dot.stdout).toContain('doublecircle');
  });
});
