import { describe, expect, test } from 'vitest';
import { checkMemoryData, importFtlMemory, MemoryError } from '../src/index.js';
import { emptyMemory, NOW } from './support.js';

const ftl = {
  failures: [
    { name: 'import-error', trigger: "ModuleNotFoundError: No module named 'requests'", fix: 'pip install requests', match: 'No module named', cost: 3000, source: ['c1'], access_count: 4, last_accessed: 1767225600.5, related: ['venv first'], related_typed: { 'venv first': 'solved_by' }, times_helped: 2, times_failed: 1, created_at: '2026-01-01T00:00:00' },
    // FTL's Bloom filter let this near-duplicate in twice.
    { name: 'import-error-2', trigger: "ModuleNotFoundError: no module named 'request'", fix: 'same', match: null, cost: 2000, source: ['c2'], times_helped: 1, times_failed: 0, created_at: '2026-01-02T00:00:00' },
    { name: 'vague', trigger: 'error', fix: 'x', cost: 5 },
    'not an object',
    { name: 'no-trigger', fix: 'x', cost: 500 },
  ],
  patterns: [{ name: 'venv first', trigger: 'create the virtualenv before installing packages', insight: 'python -m venv .venv', saved: 1500 }],
};

describe('importing an FTL memory.json', () => {
  test('near-duplicates merge, gates apply, counters and dates carry over, relations are re-linked', () => {
    const data = emptyMemory();
    const r = importFtlMemory(data, ftl, { now: NOW });
    expect(r.added).toEqual([
      { kind: 'failure', name: 'import-error' },
      { kind: 'pattern', name: 'create-the-virtualenv-before-installing-packages' },
    ]);
    expect(r.merged).toEqual([{ kind: 'failure', name: 'import-error-2', into: 'import-error' }]);
    expect(r.refused.map((x) => x.refusals.map((g) => g.gate))).toEqual([['trigger-length', 'value']]);
    expect(r.skipped).toEqual([
      { pointer: '/failures/3', reason: 'not an object' },
      { pointer: '/failures/4', reason: 'no "trigger" string' },
    ]);
    expect(data.failures[0]).toMatchObject({ source: ['c1', 'c2'], times_helped: 3, times_failed: 1, access_count: 4, last_accessed: '2026-01-01T00:00:00.500Z', related_typed: { solved_by: ['create-the-virtualenv-before-installing-packages'] } });
    expect(data.patterns[0]!.related_typed).toEqual({ solves: ['import-error'] });
    expect(r.links).toBe(1);
    expect(checkMemoryData(data)).toEqual([]);
  });

  test('a risky match never drops an entry: the FTL pattern is kept, a catastrophic one is neutralised with a warning', () => {
    const data = emptyMemory();
    const r = importFtlMemory(
      data,
      {
        failures: [
          { name: 'budget-out', trigger: 'Budget exhausted while reading code_context partially', fix: 'read fewer files first', cost: 3000, match: 'Budget.*exhausted.*code_context.*partial|budget.*ran out.*before.*verify' },
          { name: 'aaa-hang', trigger: 'parser hangs on long aaaa strings in the fixture', fix: 'cap the input length', cost: 800, match: '(a+)+$' },
        ],
      },
      { now: NOW },
    );
    expect(r.refused).toEqual([]);
    expect(r.added.map((a) => a.name)).toEqual(['budget-out', 'aaa-hang']);
    expect(data.failures.map((f) => [f.name, f.match])).toEqual([
      ['budget-out', 'Budget.*exhausted.*code_context.*partial|budget.*ran out.*before.*verify'],
      ['aaa-hang', null],
    ]);
    expect(r.neutralised).toEqual([{ kind: 'failure', name: 'aaa-hang', match: '(a+)+$', reason: expect.stringContaining('backtrack') as string }]);
    expect(checkMemoryData(data)).toEqual([]);
  });

  test('not an object: a typed error', () => {
    expect(() => importFtlMemory(emptyMemory(), [1, 2], { now: NOW })).toThrow(MemoryError);
  });
});
