import { describe, expect, test } from 'vitest';
import { InputError, failStep, parsePlan, planDigest, readySteps, startPlan, startStep, succeedStep, upsertGoal } from '../src/index.js';
import { AGENT, USER, tempStore } from './support.js';

const TEXT = `Measure, then two fixes side by side, then verify.

## Step 1: Measure
Success Criteria: a profile of the signup request
Actions: run the load test
Parallelizable with: None

## Step 2: Batch the lookups
Success Criteria: one query instead of N
Actions: rewrite the loop
Parallelizable with: Step 3

## Step 3: Cache the country list
Success Criteria: served from the cache
Actions: add the cache
Parallelizable with: Step 2

## Step 4: Verify
Success Criteria: p95 under 300 ms
Actions: rerun the load test
Parallelizable with: None
`;

async function started(): Promise<ReturnType<typeof tempStore>> {
  const t = tempStore();
  await t.store.mutate({ actor: AGENT, op: 'goal' }, (tx) => upsertGoal(tx, { id: 'signup', title: 'Speed up signup' }));
  await t.store.mutate({ actor: AGENT, op: 'plan.start' }, (tx) => startPlan(tx, { plan: parsePlan(TEXT), digest: planDigest(TEXT), goal_id: 'signup', source: 'plan.md' }));
  return t;
}

/** The refusal a mutation ends with (nothing is written). */
async function refusal(t: ReturnType<typeof tempStore>, fn: Parameters<ReturnType<typeof tempStore>['store']['mutate']>[1]): Promise<InputError> {
  const before = await t.store.read();
  const err = await t.store.mutate({ actor: AGENT, op: 'plan.step' }, fn).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InputError);
  expect((await t.store.read()).version).toBe(before.version);
  return err as InputError;
}

describe('executing a plan: steps started, succeeded with evidence, failed', () => {
  test('a run goes step by step through its schedule, each move a version in the audit trail', async () => {
    const t = await started();
    let state = await t.store.read();
    const run = state.plans![0]!;
    expect(run).toMatchObject({ id: 'pl1', goal_id: 'signup', status: 'running', digest: planDigest(TEXT) });
    expect(readySteps(run).map((s) => s.number)).toEqual([1]);
    await t.store.mutate({ actor: AGENT, op: 'plan.step' }, (tx) => startStep(tx, 'pl1', 1));
    await t.store.mutate({ actor: AGENT, op: 'plan.step' }, (tx) => succeedStep(tx, 'pl1', 1, { evidence_refs: ['profiles/signup.json'], note: 'three slow calls' }));
    state = await t.store.read();
    expect(readySteps(state.plans![0]!).map((s) => s.number)).toEqual([2, 3]);
    for (const n of [2, 3]) await t.store.mutate({ actor: AGENT, op: 'plan.step' }, (tx) => startStep(tx, 'pl1', n));
    for (const n of [2, 3]) await t.store.mutate({ actor: AGENT, op: 'plan.step' }, (tx) => succeedStep(tx, 'pl1', n, { evidence_refs: [`ci/run/${n}`] }));
    await t.store.mutate({ actor: AGENT, op: 'plan.step' }, (tx) => startStep(tx, 'pl1', 4));
    await t.store.mutate({ actor: AGENT, op: 'plan.step' }, (tx) => succeedStep(tx, 'pl1', 4, { evidence_refs: ['bench/p95.txt'] }));
    state = await t.store.read();
    expect(state.plans![0]!.status).toBe('succeeded');
    expect(state.plans![0]!.steps[0]!.criteria_met).toEqual({ criteria: 'a profile of the signup request', evidence_refs: ['profiles/signup.json'], note: 'three slow calls' });
    const history = await t.store.history();
    expect(history.filter((e) => e.changes.some((c) => c.kind === 'plan'))).toHaveLength(9);
    // Revertible like the rest: back to before step 4 succeeded.
    await t.store.revert(state.version - 1, { actor: USER });
    expect((await t.store.read()).plans![0]!.steps[3]!.status).toBe('started');
  });

  test('refused: succeeding a step that never started, or without evidence', async () => {
    const t = await started();
    expect((await refusal(t, (tx) => succeedStep(tx, 'pl1', 1, { evidence_refs: ['x'] }))).message).toContain('only a started step can succeed');
    await t.store.mutate({ actor: AGENT, op: 'plan.step' }, (tx) => startStep(tx, 'pl1', 1));
    const none = await refusal(t, (tx) => succeedStep(tx, 'pl1', 1, { evidence_refs: [] }));
    expect(none.code).toBe('plan-state');
    expect(none.message).toContain('cannot succeed without evidence: name what shows "a profile of the signup request" was met');
    await refusal(t, (tx) => succeedStep(tx, 'pl1', 1, { evidence_refs: ['  ', ''] }));
  });

  test('refused: starting a step before the steps it waits for succeeded, starting twice, moving a finished run', async () => {
    const t = await started();
    const early = await refusal(t, (tx) => startStep(tx, 'pl1', 4));
    expect(early.message).toBe('Step 4 of plan pl1 waits for Step 1, Step 2, Step 3, which have not succeeded');
    await t.store.mutate({ actor: AGENT, op: 'plan.step' }, (tx) => startStep(tx, 'pl1', 1));
    expect((await refusal(t, (tx) => startStep(tx, 'pl1', 1))).message).toContain('is started, not pending');
    expect((await refusal(t, (tx) => startStep(tx, 'pl1', 9))).code).toBe('not-found');
    await t.store.mutate({ actor: AGENT, op: 'plan.step' }, (tx) => failStep(tx, 'pl1', 1, { reason: 'the profiler crashed', regenerate: true }));
    const run = (await t.store.read()).plans![0]!;
    expect(run.status).toBe('failed');
    expect(run.regeneration).toMatchObject({ step: 1, reason: 'the profiler crashed', by: 'agent' });
    expect((await refusal(t, (tx) => startStep(tx, 'pl1', 2))).message).toContain('plan pl1 is failed');
    expect(readySteps(run)).toEqual([]);
  });

  test('a failure needs a reason and a started step; a plan that does not check never starts', async () => {
    const t = await started();
    await refusal(t, (tx) => failStep(tx, 'pl1', 1, { reason: 'x' }));
    await t.store.mutate({ actor: AGENT, op: 'plan.step' }, (tx) => startStep(tx, 'pl1', 1));
    await refusal(t, (tx) => failStep(tx, 'pl1', 1, { reason: '   ' }));
    const bad = TEXT.replace('Success Criteria: one query instead of N\n', '');
    const err = await refusal(t, (tx) => startPlan(tx, { plan: parsePlan(bad), digest: planDigest(bad) }));
    expect(err.message).toContain('the plan does not check (1 error; line 8: Step 2 has no "Success Criteria:"');
    await refusal(t, (tx) => startPlan(tx, { plan: parsePlan(TEXT), digest: planDigest(TEXT), goal_id: 'nope' }));
  });
});
