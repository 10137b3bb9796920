import { describe, expect, test } from 'vitest';
import { MAX_PLAN_STEPS, parsePlan, type PlanIssue } from '../src/index.js';
import { ParsedPlanSchema } from '../src/schema.js';

const GOOD = `We speed up the signup page: measure first, then fix the two slow parts side by side, then verify.

## Step 1: Measure
Success Criteria: a profile of the signup request with the three slowest calls
Actions: run the load test; call the profiler tool
Parallelizable with: None

## Step 2: Batch the profile lookups
Success Criteria: one query instead of N
Actions: rewrite the lookup loop
Parallelizable with: Step 3

## Step 3: Cache the country list
Success Criteria: the country list is served from the cache
Actions: add the cache
Parallelizable with: [Step 2]

## Step 4: Verify
**Success Criteria:** p95 under 300 ms,
  measured on the same load test
- **Actions**: rerun the load test
Parallelizable with: None - must wait for Step 2 and Step 3
`;

const rules = (issues: readonly PlanIssue[]): string[] => issues.map((i) => `${i.line}:${i.column} ${i.rule}`);

describe('parsePlan: the seed\'s plan format', () => {
  test('narrative, steps with their fields, the schedule in waves', () => {
    const plan = parsePlan(GOOD);
    expect(plan.issues).toEqual([]);
    expect(plan.ok).toBe(true);
    expect(plan.narrative).toMatch(/^We speed up the signup page/);
    expect(plan.steps.map((s) => [s.number, s.name, s.line])).toEqual([[1, 'Measure', 3], [2, 'Batch the profile lookups', 8], [3, 'Cache the country list', 13], [4, 'Verify', 18]]);
    expect(plan.steps[3]!.success_criteria).toBe('p95 under 300 ms,\n  measured on the same load test');
    expect(plan.steps[3]!.actions).toBe('rerun the load test');
    expect(plan.steps[3]!.waits_for).toEqual([2, 3]);
    expect(plan.steps.map((s) => s.depends_on)).toEqual([[], [1], [1], [1, 2, 3]]);
    expect(plan.waves).toEqual([[1], [2, 3], [4]]);
    expect(ParsedPlanSchema.safeParse(plan).success).toBe(true);
  });

  test('CRLF and a BOM parse the same; a code fence holding "## Step" is narrative', () => {
    const crlf = parsePlan(`\uFEFF${GOOD.replaceAll('\n', '\r\n')}`);
    const plain = parsePlan(GOOD);
    expect(crlf).toEqual(plain);
    const fenced = parsePlan(`Example of the format:\n\`\`\`\n## Step 9: not a step\n\`\`\`\n${GOOD.slice(GOOD.indexOf('## Step 1'))}`);
    expect(fenced.steps.map((s) => s.number)).toEqual([1, 2, 3, 4]);
    expect(fenced.narrative).toContain('## Step 9: not a step');
  });

  test("the seed's own example is caught: Step 1 names a Step 4 the plan does not have", () => {
    const seed = `Strategy.

## Step 1: A
Success Criteria: a
Actions: a
Parallelizable with: [Step 2, Step 4]

## Step 2: B
Success Criteria: b
Actions: b
Parallelizable with: [Step 1]

## Step 3: C
Success Criteria: c
Actions: c
Parallelizable with: [None - must wait for Step 2]
`;
    const plan = parsePlan(seed);
    expect(plan.ok).toBe(false);
    expect(rules(plan.issues)).toEqual(['6:1 unknown-step']);
    expect(plan.issues[0]!.message).toBe('Step 1 names Step 4, which the plan does not have');
    expect(plan.waves).toEqual([]);
  });
});

describe('parsePlan: every problem, with its line', () => {
  test('missing and empty success criteria, missing actions and parallel info, duplicate fields', () => {
    const plan = parsePlan(`Narrative.

## Step 1: No criteria
Actions: something
Parallelizable with: None

## Step 2: Empty criteria
Success Criteria:
Actions: x
Actions: y
`);
    expect(rules(plan.issues)).toEqual(['3:1 missing-success-criteria', '7:1 missing-parallel', '8:1 missing-success-criteria', '10:1 duplicate-field']);
    expect(plan.issues.find((i) => i.rule === 'missing-parallel')!.severity).toBe('warning');
    expect(plan.ok).toBe(false);
  });

  test('parallel lists: unknown steps, itself, one-sided, unparsable', () => {
    const step = (n: number, parallel: string): string => `## Step ${n}: s${n}\nSuccess Criteria: ok\nActions: do\nParallelizable with: ${parallel}\n`;
    const plan = parsePlan(`N.\n${step(1, 'Step 2, Step 9')}${step(2, 'None')}${step(3, 'Step 3')}${step(4, 'whenever convenient')}`);
    expect(plan.issues.map((i) => [i.line, i.rule, i.step])).toEqual([
      [5, 'unknown-step', 1],
      [5, 'asymmetric-parallel', 1],
      [13, 'self-parallel', 3],
      [17, 'parallel-syntax', 4],
    ]);
    expect(plan.issues[1]!.message).toBe('Step 1 is parallelizable with Step 2, but Step 2 does not list Step 1: parallel runs both ways');
  });

  test('declared parallel but one waits for the other through a third step (order is the default)', () => {
    const step = (n: number, parallel: string): string => `## Step ${n}: s${n}\nSuccess Criteria: ok\nActions: do\nParallelizable with: ${parallel}\n`;
    const plan = parsePlan(`N.\n${step(1, 'Step 3')}${step(2, 'None')}${step(3, 'Step 1')}`);
    expect(rules(plan.issues)).toEqual(['5:1 parallel-conflict']);
    expect(plan.issues[0]!.message).toContain('Step 1 and Step 3 are declared parallel, but Step 3 waits for Step 2 waits for Step 1');
  });

  test('an explicit wait on a later step is a cycle, named step by step', () => {
    const step = (n: number, parallel: string): string => `## Step ${n}: s${n}\nSuccess Criteria: ok\nActions: do\nParallelizable with: ${parallel}\n`;
    const plan = parsePlan(`N.\n${step(1, 'None - must wait for Step 3')}${step(2, 'None')}${step(3, 'None')}`);
    expect(plan.issues.map((i) => i.rule)).toEqual(['cycle']);
    expect(plan.issues[0]!.message).toMatch(/Step \d waits for Step \d waits for Step \d/);
    expect(plan.issues[0]!.line).toBe(5);
  });

  test('numbering: out of order, duplicated, a malformed heading, no name', () => {
    const step = (h: string): string => `${h}\nSuccess Criteria: ok\nActions: do\nParallelizable with: None\n`;
    const plan = parsePlan(`N.\n${step('## Step 1: a')}${step('## Step 3: c')}${step('## Step 3: again')}${step('## Step two: b')}${step('## Step 4:')}`);
    // The fields under the malformed heading are not blamed on Step 3 before it.
    expect(rules(plan.issues)).toEqual(['6:1 step-number', '10:1 duplicate-step', '14:1 step-heading', '18:11 empty-step-name']);
    expect(parsePlan(`N.\n${step('## Step 1: a')}${step('## Step 2 - b')}`).issues.map((i) => i.rule)).toEqual(['step-heading']);
  });

  test('bad input: empty, no steps, binary, huge', () => {
    expect(rules(parsePlan('').issues)).toEqual(['1:1 no-steps']);
    expect(rules(parsePlan('just prose\nand more prose\n').issues)).toEqual(['1:1 no-steps']);
    expect(rules(parsePlan('## Step 1: a\nSucc\u0000ess').issues)).toEqual(['2:5 not-text']);
    const many = Array.from({ length: MAX_PLAN_STEPS + 1 }, (_, i) => `## Step ${i + 1}: s\nSuccess Criteria: ok\nActions: do\nParallelizable with: None\n`).join('');
    const plan = parsePlan(`N.\n${many}`);
    expect(plan.issues.map((i) => i.rule)).toEqual(['too-many-steps']);
  });

  test('a long all-sequential plan is checked in linear-ish time and waves are one step each', () => {
    const n = MAX_PLAN_STEPS;
    const text = `N.\n${Array.from({ length: n }, (_, i) => `## Step ${i + 1}: s\nSuccess Criteria: ok\nActions: do\nParallelizable with: ${i % 2 === 0 && i + 1 < n ? `Step ${i + 2}` : i % 2 === 1 ? `Step ${i}` : 'None'}\n`).join('')}`;
    const t0 = performance.now();
    const plan = parsePlan(text);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(plan.ok).toBe(true);
    expect(plan.waves).toHaveLength(n / 2);
    expect(plan.waves[0]).toEqual([1, 2]);
  });
});
