import { readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { brief, CORPUS, lintCorpus } from './support.js';

const EXPECTED: Record<string, string[]> = {
  'invalid/after-close.plan': ['closure-mandate@4:1', 'fsm-adherence@4:1'],
  'invalid/calls.plan': [
    'call-plan-not-found@3:11',
    'call-plan-outside-root@4:11',
    'call-plan-outside-root@5:11',
    'call-plan-outside-root@6:11',
    'fsm-adherence@sub/bad.plan:2:1',
  ],
  'invalid/comments-only.plan': ['empty-plan@1:1'],
  'invalid/empty.plan': ['empty-plan@1:1'],
  'invalid/fs.plan': ['file-not-found@3:11', 'file-exists@4:24', 'file-not-found@6:11', 'file-not-found@8:29', 'empty-glob@9:15', 'path-outside-root@11:11'],
  'invalid/fsm-order.plan': ['fsm-adherence@2:1'],
  // Line 5 is the body of line 4, indented 4 instead of 2: one finding, not also "empty block".
  'invalid/indent.plan': ['bad-indentation@3:1', 'bad-indentation@5:1', 'bad-indentation@8:1', 'unbound-placeholder@9:11'],
  'invalid/malformed.plan': ['malformed-line@3:1', 'malformed-line@4:1', 'malformed-line@5:1', 'malformed-line@6:1', 'empty-block@7:1'],
  'invalid/no-close.plan': ['closure-mandate@3:1'],
  'invalid/tabs.plan': ['tab-indentation@4:1'],
  // Tabs mixed into space indentation, each reported at the tab's own column.
  'invalid/mixed-indent.plan': ['tab-indentation@4:3', 'tab-indentation@5:2', 'tab-indentation@6:1', 'tab-indentation@9:3'],
  // A BOM, CRLF line ends, a comment and no final newline: lines and columns as a person counts them.
  'invalid/crlf-bom.plan': ['file-not-found@4:11', 'bad-indentation@5:1'],
  'invalid/unknown.plan': ['unknown-command@3:1'],
};

describe('corpus', () => {
  const valid = readdirSync(`${CORPUS}valid`).sort();
  test.each(valid)('valid/%s lints clean', (name) => {
    expect(lintCorpus(`valid/${name}`)).toEqual([]);
  });

  test('every invalid corpus plan has an expectation', () => {
    expect(readdirSync(`${CORPUS}invalid`).sort().map((n) => `invalid/${n}`)).toEqual(Object.keys(EXPECTED).sort());
  });

  test.each(Object.entries(EXPECTED))('%s: exact rule ids and places', (entry, expected) => {
    expect(brief(lintCorpus(entry), entry)).toEqual(expected);
  });
});

describe('messages', () => {
  test('fsm-adherence names the legal commands, mapped back from symbols', () => {
    const [f] = lintCorpus('invalid/fsm-order.plan');
    expect(f!.message).toBe('create_file_with_block (write_op) is not allowed in state PLANNING; expected one of: plan_step_complete, define_scope, google_search, grep, list_files, read_file, view_text_website');
    expect(f!.severity).toBe('error');
  });

  test('closure-mandate names the close command of the dialect', () => {
    expect(lintCorpus('invalid/no-close.plan')[0]!.message).toContain('run_in_bash_session close');
  });

  test('file-not-found after a move says where the file went', () => {
    const f = lintCorpus('invalid/fs.plan').find((x) => x.line === 6)!;
    expect(f.message).toBe('read_file: "src/a.ts" does not exist at this point of the plan (moved to src/z.ts at invalid/fs.plan:5)');
  });

  test('findings in a sub-plan carry the call chain and call sites', () => {
    const f = lintCorpus('invalid/calls.plan').find((x) => x.file === 'sub/bad.plan')!;
    expect(f.chain).toEqual(['invalid/calls.plan', 'sub/bad.plan']);
    expect(f.callSites).toEqual([{ file: 'invalid/calls.plan', line: 7, column: 1 }]);
  });

  test('corpus cycle: sub/cycle-a.plan -> sub/cycle-b.plan -> sub/cycle-a.plan', () => {
    const findings = lintCorpus('sub/cycle-a.plan');
    expect(brief(findings, 'sub/cycle-a.plan')).toEqual(['plan-cycle@sub/cycle-b.plan:3:11']);
    expect(findings[0]!.message).toBe('plan cycle: sub/cycle-a.plan -> sub/cycle-b.plan -> sub/cycle-a.plan');
    expect(findings[0]!.chain).toEqual(['sub/cycle-a.plan', 'sub/cycle-b.plan']);
  });

  test('empty-glob is a warning, the rest are errors', () => {
    const fs = lintCorpus('invalid/fs.plan');
    expect(fs.filter((f) => f.severity === 'warning').map((f) => f.ruleId)).toEqual(['empty-glob']);
  });
});
