import { describe, expect, test } from 'vitest';
import { parsePlan } from '../src/index.js';

describe('parsePlan', () => {
  test('commands, args, raw rest and columns', () => {
    const { plan, diagnostics } = parsePlan('set_plan  Fix   it now\nread_file a.ts\n', 'p.plan');
    expect(diagnostics).toEqual([]);
    expect(plan.body[0]).toEqual({ kind: 'command', name: 'set_plan', args: ['Fix', 'it', 'now'], raw: 'Fix   it now', line: 1, column: 1, argsColumn: 11 });
    expect(plan.loopDepth).toBe(0);
  });

  test('LF, CRLF and a BOM parse to the same tree', () => {
    const lf = parsePlan('set_plan x\nread_file a\n', 'p').plan;
    expect(parsePlan('\uFEFFset_plan x\r\nread_file a\r\n', 'p').plan).toEqual(lf);
  });

  test('full-line comments (indented too) and blank lines are skipped; a trailing # is part of the args', () => {
    const { plan, diagnostics } = parsePlan('# head\n\n   # indented\nset_plan x # not a comment\n  \t \n', 'p');
    expect(diagnostics).toEqual([]);
    expect(plan.body).toHaveLength(1);
    expect(plan.body[0]).toMatchObject({ args: ['x', '#', 'not', 'a', 'comment'] });
  });

  test('nested for_each_file blocks and loop depth; dedent closes blocks', () => {
    const text = ['for_each_file a/*', '  for_each_file b/*', '    read_file {file}', '  read_file {file}', 'set_plan done'].join('\n');
    const { plan, diagnostics } = parsePlan(text, 'p');
    expect(diagnostics).toEqual([]);
    expect(plan.loopDepth).toBe(2);
    expect(plan.body.map((n) => n.kind)).toEqual(['for_each_file', 'command']);
    const outer = plan.body[0]!;
    if (outer.kind !== 'for_each_file') throw new Error('expected loop');
    expect(outer.body.map((n) => n.kind)).toEqual(['for_each_file', 'command']);
  });

  test('a tab anywhere in the indentation is reported at its column', () => {
    const { diagnostics } = parsePlan('set_plan x\n  \tread_file a\n', 'p');
    expect(diagnostics.map((d) => [d.ruleId, d.line, d.column])).toEqual([['tab-indentation', 2, 3]]);
  });

  test('arguments split on any whitespace run; one-argument lines keep the raw string', () => {
    const { plan } = parsePlan('grep a\tb  c\nread_file x.ts\nlist_files\n', 'p');
    expect(plan.body.map((n) => (n.kind === 'command' ? n.args : []))).toEqual([['a', 'b', 'c'], ['x.ts'], []]);
  });

  test('many distinct command names (past the name cache) keep their own names', () => {
    const names = Array.from({ length: 40 }, (_, i) => `cmd_${i}`);
    const { plan } = parsePlan(names.concat(names).map((n) => `${n} arg`).join('\n'), 'p');
    expect(plan.body.map((n) => (n.kind === 'command' ? n.name : ''))).toEqual(names.concat(names));
  });

  test('an empty block at the end of the file', () => {
    expect(parsePlan('set_plan x\nfor_each_file *.ts\n', 'p').diagnostics.map((d) => [d.ruleId, d.line])).toEqual([['empty-block', 2]]);
  });

  test('call_plan with two arguments is malformed', () => {
    expect(parsePlan('call_plan a b\n', 'p').diagnostics.map((d) => d.ruleId)).toEqual(['malformed-line']);
  });

  test('2,000 nested levels do not overflow (no recursion per line)', () => {
    const lines: string[] = [];
    for (let i = 0; i < 2000; i++) lines.push(`${' '.repeat(i * 2)}for_each_file *`);
    lines.push(`${' '.repeat(4000)}read_file {file}`);
    const { plan, diagnostics } = parsePlan(lines.join('\n'), 'p');
    expect(diagnostics).toEqual([]);
    expect(plan.loopDepth).toBe(2000);
  });
});
