import { parseJson } from '@ratchet/store';
import { describe, expect, test } from 'vitest';
import { addPlan, checkPlan, newCampaign, unsafePathReason } from '../src/index.js';

const ftlPlan = {
  _schema_version: '1.0',
  objective: 'Add user auth',
  campaign: 'auth',
  framework: 'fastapi',
  idioms: { required: ['use Depends'], forbidden: ['global state'] },
  tasks: [
    { seq: '001', slug: 'spec-auth', type: 'SPEC', delta: ['tests/test_auth.py'], verify: 'pytest tests/test_auth.py --collect-only', budget: 3, depends: 'none' },
    { seq: '002', slug: 'impl-auth', type: 'BUILD', delta: ['app/auth.py'], verify: 'pytest tests/test_auth.py', budget: 5, depends: '001' },
    { seq: 3, slug: 'verify-all', type: 'verify', delta: ['app/auth.py', 'app/main.py'], verify: 'pytest', budget: 2, depends: ['001', 2] },
  ],
};

describe('checkPlan: the FTL contract', () => {
  test('a well-formed plan: seqs normalised ("001" == 1), depends in every form, type case-insensitive, extra keys allowed', () => {
    const { plan, problems } = checkPlan(ftlPlan);
    expect(problems).toEqual([]);
    expect(plan?.tasks.map((t) => [t.seq, t.type, t.depends])).toEqual([
      [1, 'SPEC', []],
      [2, 'BUILD', [1]],
      [3, 'VERIFY', [1, 2]],
    ]);
    expect(plan).toMatchObject({ objective: 'Add user auth', framework: 'fastapi', idioms: { required: ['use Depends'], forbidden: ['global state'] } });
  });

  test('every shape problem at once, each with pointer, line and column', () => {
    const text = `{
  "tasks": [
    { "seq": "abc", "delta": [], "verify": "" },
    { "seq": 2, "type": "DEPLOY", "verify": "x", "delta": ["ok.ts"], "slug": "../evil" },
    { "seq": 3, "delta": ["a"] },
    "nope"
  ]
}`;
    const { plan, problems } = checkPlan(parseJson(text), { text });
    expect(plan).toBeUndefined();
    expect(problems.map((p) => [p.pointer, p.line, p.column])).toEqual([
      ['/tasks/0/seq', 3, 14],
      ['/tasks/0/delta', 3, 30],
      ['/tasks/0/verify', 3, 44],
      ['/tasks/1/slug', 4, 78],
      ['/tasks/1/type', 4, 25],
      ['/tasks/2', 5, 5],
      ['/tasks/3', 6, 5],
    ]);
    // No "objective" is not a problem: FTL's add_tasks never required it (test/ftl-import.test.ts).
    expect(problems.every((p) => p.rule === 'invalid')).toBe(true);
  });

  test('unknown, self and duplicate dependencies and a cycle, all reported at once with the full cycle path', () => {
    const plan = {
      objective: 'x',
      tasks: [
        { seq: 1, delta: ['a'], verify: 'v', depends: ['004'] },
        { seq: 2, delta: ['a'], verify: 'v', depends: [1, '001'] },
        { seq: 3, delta: ['a'], verify: 'v', depends: 3 },
        { seq: 4, delta: ['a'], verify: 'v', depends: [5] },
        { seq: 5, delta: ['a'], verify: 'v', depends: [1, 9] },
      ],
    };
    const { problems } = checkPlan(plan);
    expect(problems.map((p) => [p.rule, p.pointer])).toEqual([
      ['duplicate-dependency', '/tasks/1/depends/1'],
      ['self-dependency', '/tasks/2/depends'],
      ['unknown-dependency', '/tasks/4/depends/1'],
      ['cycle', '/tasks/0/depends'],
    ]);
    expect(problems[3]).toMatchObject({ cycle: [1, 4, 5, 1], message: 'dependency cycle: 001 -> 004 -> 005 -> 001 (each depends on the next)' });
  });

  test('duplicate seqs, within the plan and against tasks already in the campaign', () => {
    const plan = { objective: 'x', tasks: [{ seq: '007', delta: ['a'], verify: 'v' }, { seq: 7, delta: ['a'], verify: 'v' }, { seq: 2, delta: ['a'], verify: 'v', depends: 1 }] };
    expect(checkPlan(plan).problems.map((p) => [p.rule, p.pointer])).toEqual([['duplicate-seq', '/tasks/1/seq'], ['unknown-dependency', '/tasks/2/depends']]);
    const again = checkPlan({ objective: 'x', tasks: [{ seq: 1, delta: ['a'], verify: 'v' }, { seq: 9, delta: ['b'], verify: 'v', depends: 5 }] }, { existing: [{ seq: 1, depends: [] }, { seq: 5, depends: [] }] });
    expect(again.problems.map((p) => [p.rule, p.message])).toEqual([['duplicate-seq', 'seq 001 is already a task of the campaign']]);
  });

  test('graph rules wait for a clean read: a malformed task would otherwise look like an unknown dependency', () => {
    const { problems } = checkPlan({ objective: 'x', tasks: [{ seq: 'x1', delta: ['a'], verify: 'v' }, { seq: 2, delta: ['a'], verify: 'v', depends: 1 }] });
    expect(problems.map((p) => p.rule)).toEqual(['invalid']);
  });

  test('delta paths outside the project are refused (absolute, .., drive letters, ~, NUL)', () => {
    const deltas = ['/etc/passwd', '../outside.ts', 'a/../../b', 'C:\\x', '~/.ssh/id_rsa', 'a\0b', 'fine/./x/../y.ts'];
    const { problems } = checkPlan({ objective: 'x', tasks: [{ seq: 1, delta: deltas, verify: 'v' }] });
    expect(problems.map((p) => [p.rule, p.pointer])).toEqual(deltas.slice(0, 6).map((_, i) => ['unsafe-path', `/tasks/0/delta/${i}`]));
    expect(unsafePathReason('src/a.ts')).toBeUndefined();
  });

  test('hostile and odd input: non-objects, __proto__ keys stay data, huge seqs, BOM/CRLF text', () => {
    expect(checkPlan(null).problems[0]!.message).toContain('found null');
    expect(checkPlan([]).problems[0]!.message).toContain('found a list');
    expect(checkPlan({ objective: 'x', tasks: {} }).problems[0]!.pointer).toBe('/tasks');
    const proto = JSON.parse('{"objective":"x","tasks":[{"seq":1,"delta":["a"],"verify":"v","__proto__":{"polluted":true}}]}') as unknown;
    expect(checkPlan(proto).plan?.tasks[0]).not.toHaveProperty('polluted');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(checkPlan({ objective: 'x', tasks: [{ seq: 1e12, delta: ['a'], verify: 'v' }] }).problems[0]!.pointer).toBe('/tasks/0/seq');
    expect(checkPlan({ objective: 'x', tasks: [{ seq: -1, delta: ['a'], verify: 'v' }] }).problems).toHaveLength(1);
    const text = '\uFEFF{\r\n  "objective": "x",\r\n  "tasks": [\r\n    { "seq": 1, "delta": ["a"] }\r\n  ]\r\n}';
    const { problems } = checkPlan(parseJson(text), { text });
    expect(problems).toMatchObject([{ pointer: '/tasks/0', line: 4, message: expect.stringContaining('verify') as unknown }]);
  });

  test('a big plan (300,000 tasks in a chain) is checked and added without a stack overflow', () => {
    const tasks = Array.from({ length: 300_000 }, (_, i) => ({ seq: i + 1, delta: [`f${i}`], verify: 'v', depends: i === 0 ? 'none' : [i] }));
    const { plan } = checkPlan({ objective: 'x', tasks });
    expect(plan?.tasks).toHaveLength(300_000);
    const campaign = newCampaign('x', { now: '2030-01-01T00:00:00.000Z' });
    addPlan(campaign, plan!);
    expect(campaign.tasks).toHaveLength(300_000);
    expect(campaign.tasks.at(-1)).toMatchObject({ seq: 300_000, depends: [299_999], status: 'pending' });
  });
});
