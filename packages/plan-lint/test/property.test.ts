import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { lintPlan } from '../src/index.js';
import { fdc, memoryHost } from './support.js';

/** Valid FDC plans over a generated project: every read targets a file that exists at that point. */
const validPlan = fc
  .record({
    reads: fc.array(fc.constantFrom('read', 'create', 'edit', 'list', 'grep', 'tool', 'step', 'delete'), { maxLength: 30 }),
    planningReads: fc.nat({ max: 3 }),
  })
  .map(({ reads, planningReads }) => {
    const lines = ['set_plan generated'];
    for (let i = 0; i < planningReads; i++) lines.push('read_file seed.txt');
    lines.push('plan_step_complete start');
    const live: string[] = ['seed.txt'];
    let n = 0;
    for (const op of reads) {
      if (op === 'read' && live.length > 0) lines.push(`read_file ${live[live.length - 1]!}`);
      else if (op === 'create') {
        const f = `gen/f${n++}.ts`;
        live.push(f);
        lines.push(`create_file_with_block ${f}`);
      } else if (op === 'edit' && live.length > 0) lines.push(`replace_with_git_merge_diff ${live[0]!}`);
      else if (op === 'delete' && live.length > 1) lines.push(`delete_file ${live.pop()!}`);
      else if (op === 'list') lines.push('list_files gen');
      else if (op === 'grep') lines.push('grep TODO');
      else if (op === 'tool') lines.push('run_in_bash_session npm test');
      else if (op === 'step') lines.push('plan_step_complete next');
    }
    lines.push('run_in_bash_session close');
    return lines;
  });

const lint = (lines: string[]) => lintPlan({ entry: 'p.plan', root: '/r', host: memoryHost({ 'p.plan': `${lines.join('\n')}\n` }), files: ['seed.txt'], ...fdc }).findings;

const NON_CLOSE = ['set_plan again', 'plan_step_complete x', 'read_file seed.txt', 'create_file_with_block z.ts', 'run_in_bash_session ls', 'grep x', 'list_files'];

describe('properties', () => {
  test('generated valid plans lint clean', () => {
    fc.assert(
      fc.property(validPlan, (lines) => {
        expect(lint(lines)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  test('appending a non-close command always yields closure-mandate at the appended line', () => {
    fc.assert(
      fc.property(validPlan, fc.constantFrom(...NON_CLOSE), (lines, extra) => {
        const findings = lint([...lines, extra]);
        expect(findings.filter((f) => f.ruleId === 'closure-mandate').map((f) => f.line)).toEqual([lines.length + 1]);
      }),
      { numRuns: 200 },
    );
  });
});
