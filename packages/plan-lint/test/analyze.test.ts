import { describe, expect, test } from 'vitest';
import { analyzePlan, complexityOf } from '../src/index.js';
import { fdc, memoryHost } from './support.js';

const run = (plans: Record<string, string>, registry?: Record<string, string>) =>
  analyzePlan({ entry: 'main.plan', host: memoryHost(plans), dialect: fdc.dialect, ...(registry ? { registry } : {}) });

describe('analyzePlan', () => {
  test('no loops, reads only: Constant, Read-Only', () => {
    expect(run({ 'main.plan': 'set_plan x\nread_file a\nrun_in_bash_session close\n' })).toEqual({ complexity: 'Constant', loopDepth: 0, modality: 'Read-Only', plans: ['main.plan'], unread: [] });
  });

  test('one loop level: Polynomial; any write effect: Read-Write', () => {
    const a = run({ 'main.plan': 'set_plan x\nfor_each_file *.ts\n  replace_with_git_merge_diff {file}\nrun_in_bash_session close\n' });
    expect([a.complexity, a.loopDepth, a.modality]).toEqual(['Polynomial', 1, 'Read-Write']);
  });

  test('nested loops: Exponential', () => {
    const a = run({ 'main.plan': 'for_each_file a/*\n  for_each_file b/*\n    read_file {file}\n' });
    expect([a.complexity, a.loopDepth]).toEqual(['Exponential', 2]);
  });

  test('a call inside a loop adds the sub-plan loop depth; modality follows sub-plans; registry first', () => {
    const a = run(
      {
        'main.plan': 'set_plan x\nfor_each_file *.ts\n  call_plan inner\nrun_in_bash_session close\n',
        'plans/inner.plan': 'set_plan y\nfor_each_file *.md\n  delete_file {file}\nrun_in_bash_session close\n',
      },
      { inner: 'plans/inner.plan' },
    );
    expect(a).toEqual({ complexity: 'Exponential', loopDepth: 2, modality: 'Read-Write', plans: ['main.plan', 'plans/inner.plan'], unread: [] });
  });

  test('each effect counts as a write except read; run_in_bash_session does not', () => {
    for (const cmd of ['create_file_with_block f', 'overwrite_file_with_block f', 'replace_with_git_merge_diff f', 'delete_file f', 'rename_file f g']) {
      expect(run({ 'main.plan': `${cmd}\n` }).modality).toBe('Read-Write');
    }
    expect(run({ 'main.plan': 'read_file f\nlist_files\ngrep x\nrun_in_bash_session rm -rf x\n' }).modality).toBe('Read-Only');
  });

  test('a sub-plan that cannot be read is listed with why, not dropped', () => {
    const missing = run({ 'main.plan': 'call_plan gone.plan\n' });
    expect(missing.unread).toEqual([{ path: 'gone.plan', reason: 'no such plan file' }]);
    const refused = analyzePlan({ entry: 'main.plan', host: { readPlan: (p) => (p === 'main.plan' ? 'call_plan out.plan\n' : { refused: 'out.plan leads through a symbolic link' }) }, dialect: fdc.dialect });
    expect(refused.unread).toEqual([{ path: 'out.plan', reason: 'out.plan leads through a symbolic link' }]);
  });

  test('cycles terminate', () => {
    expect(run({ 'main.plan': 'call_plan main.plan\n' }).loopDepth).toBe(0);
  });

  test('complexityOf', () => {
    expect([0, 1, 2, 5].map(complexityOf)).toEqual(['Constant', 'Polynomial', 'Exponential', 'Exponential']);
  });
});
