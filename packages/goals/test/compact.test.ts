import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  InputError,
  OwnerError,
  actionStats,
  addObservation,
  archiveObservation,
  completeAction,
  confirmAction,
  createAction,
  openGoals,
  scopedView,
  updateProgress,
  upsertGoal,
  upsertQuestion,
  upsertStory,
  type Actor,
  type GoalsState,
  type GoalsStore,
} from '../src/index.js';
import { AGENT, T0, USER, registry, tempDir } from './support.js';

/** 60 mutations: goals that progress with evidence, actions made and done, a question and story archived, an observation archived. */
async function history(store: GoalsStore): Promise<void> {
  await store.mutate({ actor: AGENT, op: 'plan' }, (tx) => {
    upsertGoal(tx, { id: 'beta', title: 'Ship the beta', priority: 5 });
    upsertQuestion(tx, { id: 'q1', text: 'Who churns?', goal_id: 'beta' });
    upsertStory(tx, { id: 's1', question_id: 'q1', narrative: 'early', evidence_refs: ['notes/churn.md'] });
    addObservation(tx, { id: 'o1', content: 'p95 doubled', source: 'tool:grafana' });
  });
  for (let i = 1; i <= 20; i++) {
    await store.mutate({ actor: AGENT, op: 'work' }, (tx) => createAction(tx, registry, { id: `t${i}`, type: 'agent_task', title: `task ${i}`, goal_id: 'beta' }));
    await store.mutate({ actor: AGENT, op: 'done' }, (tx) => completeAction(tx, registry, `t${i}`, { evidence_refs: [`ci/run/${i}`] }));
    await store.mutate({ actor: AGENT, op: 'goal.progress' }, (tx) => updateProgress(tx, { goal_id: 'beta', progress: i / 20, evidence_refs: [`ci/run/${i}`] }));
  }
  await store.mutate({ actor: AGENT, op: 'archive' }, (tx) => {
    upsertQuestion(tx, { id: 'q1', text: 'Who churns?', status: 'archived' });
    upsertStory(tx, { id: 's1', status: 'archived' });
    archiveObservation(tx, 'o1');
  });
  for (let i = 0; i < 18; i++) await store.mutate({ actor: AGENT, op: 'late' }, (tx) => upsertGoal(tx, { id: `late${i}`, title: `late ${i}` }));
}

async function fresh(): Promise<{ store: GoalsStore; path: string }> {
  const path = join(tempDir('goals-compact-'), 'goals.json');
  const store = openGoals(path, { clock: () => T0 });
  await history(store);
  return { store, path };
}

const entities = (s: GoalsState) => {
  const byId = <T extends { id: string }>(l: T[] | undefined): T[] => [...(l ?? [])].sort((a, b) => (a.id < b.id ? -1 : 1));
  return { goals: byId(s.goals), actions: byId(s.actions), questions: byId(s.questions), stories: byId(s.stories), observations: byId(s.observations) };
};

describe('audit compaction', () => {
  test('old entries become one summary that keeps evidence, milestones, lineage and counts; the file shrinks and still validates', async () => {
    const { store, path } = await fresh();
    const before = await store.read();
    expect(before.version).toBe(80);
    const sizeBefore = statSync(path).size;
    const statsBefore = actionStats(before, registry, { now: T0 });
    const r = await store.compact(registry, { keep: 10 }, { actor: USER });
    expect(r).toMatchObject({ compacted: 70, kept: 10, revert_points: [0], audit_base: 70 });
    const after = await store.read();
    expect(after.version).toBe(80);
    expect(after.audit.map((e) => e.version)).toEqual([71, 72, 73, 74, 75, 76, 77, 78, 79, 80]);
    expect(statSync(path).size).toBeLessThan(sizeBefore / 2);
    expect(entities(after)).toEqual(entities(before));
    const [s] = await store.summaries();
    expect(s).toMatchObject({ from_version: 1, to_version: 70, entries: 70, ops: { plan: 1, work: 20, done: 20, 'goal.progress': 20, archive: 1, late: 8 }, revert_point: 0 });
    expect(s!.evidence_refs).toEqual(['notes/churn.md', ...Array.from({ length: 20 }, (_, i) => `ci/run/${i + 1}`)]);
    // Progress went up by 1/20 at a time: the milestones are the quarters it crossed.
    expect(s!.milestones.map((m) => [m.goal_id, m.progress])).toEqual([['beta', 0.25], ['beta', 0.5], ['beta', 0.75], ['beta', 1]]);
    expect(s!.archived).toEqual([
      { kind: 'question', id: 'q1', version: 62, at: new Date(T0).toISOString(), goal_id: 'beta' },
      { kind: 'story', id: 's1', version: 62, at: new Date(T0).toISOString(), question_id: 'q1' },
      { kind: 'observation', id: 'o1', version: 62, at: new Date(T0).toISOString() },
    ]);
    expect(s!.action_counts.agent_task).toEqual({ created: 20, completed: 20, cancelled: 0, failed: 0, escalated: 0, coerced: 0 });
    // actions stats counts the same through the summary.
    expect(actionStats(after, registry, { now: T0 })).toEqual({ ...statsBefore });
    // Nothing more to compact: nothing written.
    const text = readFileSync(path, 'utf8');
    expect((await store.compact(registry, { keep: 10 }, { actor: USER })).compacted).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  test('a compaction with a stale expected_version is refused and writes nothing; the current version compacts', async () => {
    const { store, path } = await fresh();
    const text = readFileSync(path, 'utf8');
    const { version } = await store.read();
    await expect(store.compact(registry, { keep: 10 }, { actor: USER, expected_version: version - 1 })).rejects.toMatchObject({ code: 'conflict' });
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect((await store.compact(registry, { keep: 10 }, { actor: USER, expected_version: version })).compacted).toBeGreaterThan(0);
  });

  test('revert still reaches every kept version and each summary\'s revert point, with the same result as without compaction', async () => {
    const a = await fresh();
    const b = await fresh();
    await a.store.compact(registry, { keep: 10 }, { actor: USER });
    // A kept version.
    await a.store.revert(75, { actor: USER });
    await b.store.revert(75, { actor: USER });
    expect(entities(await a.store.read())).toEqual(entities(await b.store.read()));
    // The summary's revert point (v0): everything the range created is gone, as without compaction.
    await a.store.revert(0, { actor: USER });
    await b.store.revert(0, { actor: USER });
    expect(entities(await a.store.read())).toEqual(entities(await b.store.read()));
    expect((await a.store.read()).goals).toEqual([]);
    // A version inside the compacted range is not a revert point: refused, naming the ones there are.
    const refused = await a.store.revert(30, { actor: USER }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InputError);
    expect((refused as InputError).message).toBe('cannot revert to version 30: it was compacted; revert points kept: v0, v70 and later');
  });

  test('only the newest --revert-points summaries keep their images; an older point lapses', async () => {
    const { store } = await fresh();
    await store.compact(registry, { keep: 40 }, { actor: USER });
    await store.compact(registry, { keep: 10, revertPoints: 1 }, { actor: USER });
    const summaries = await store.summaries();
    expect(summaries.map((s) => [s.from_version, s.to_version, s.revert_point, s.base === undefined])).toEqual([[1, 40, undefined, true], [41, 70, 40, false]]);
    await expect(store.revert(0, { actor: USER })).rejects.toThrow('revert points kept: v40, v70 and later');
    await store.revert(40, { actor: USER });
    expect((await store.read()).goals.map((g) => g.id)).toEqual(['beta']);
  });

  test('the shortcuts: the agent cannot compact, nor revert across a range holding the user\'s confirmation', async () => {
    const path = join(tempDir('goals-compact-'), 'goals.json');
    const store = openGoals(path, { clock: () => T0 });
    await store.mutate({ actor: AGENT, op: 'a' }, (tx) => createAction(tx, registry, { id: 'u1', type: 'approval_request', title: 'approve', owner: 'user' }));
    await store.mutate({ actor: USER, op: 'confirm' }, (tx) => confirmAction(tx, 'u1'));
    for (let i = 0; i < 5; i++) await store.mutate({ actor: AGENT, op: 'g' }, (tx) => upsertGoal(tx, { title: `g${i}` }));
    const text = readFileSync(path, 'utf8');
    await expect(store.compact(registry, { keep: 0 }, { actor: AGENT })).rejects.toThrow(OwnerError);
    expect(readFileSync(path, 'utf8')).toBe(text);
    await store.compact(registry, { keep: 2 }, { actor: USER });
    await expect(store.revert(0, { actor: AGENT })).rejects.toThrow(/the agent cannot revert past v2: it would undo the user's confirmation of action u1/);
    await store.revert(0, { actor: USER });
  });

  test('scoped agents: the summaries\' images of other agents\' items are hidden, and their revert point is refused to another agent', async () => {
    const path = join(tempDir('goals-compact-'), 'goals.json');
    const store = openGoals(path, { clock: () => T0 });
    const a: Actor = { role: 'agent', agent_id: 'a' };
    const b: Actor = { role: 'agent', agent_id: 'b' };
    await store.mutate({ actor: a, op: 'a' }, (tx) => upsertGoal(tx, { id: 'ga', title: 'a' }));
    await store.mutate({ actor: b, op: 'b' }, (tx) => upsertGoal(tx, { id: 'gb', title: 'b' }));
    await store.mutate({ actor: b, op: 'b' }, (tx) => updateProgress(tx, { goal_id: 'gb', delta: 0.5 }));
    await store.compact(registry, { keep: 0 }, { actor: USER });
    const seen = scopedView(await store.read(), a).audit_summaries![0]!;
    expect(seen.base!.map((x) => x.id)).toEqual(['ga']);
    expect(seen.milestones).toEqual([]);
    await expect(store.revert(0, { actor: a })).rejects.toThrow(/goal gb belongs to agent "b"/);
  });

  test('a hand-edited history is refused on read with its place, never written over', async () => {
    const { store, path } = await fresh();
    await store.compact(registry, { keep: 10 }, { actor: USER });
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { audit_summaries: { to_version: number }[] };
    doc.audit_summaries[0]!.to_version = 60;
    writeFileSync(path, JSON.stringify(doc));
    await expect(store.read()).rejects.toThrow(/audit entry 1 records version 70 -> 71, expected 60 -> 61/);
    await expect(store.mutate({ actor: AGENT, op: 'x' }, (tx) => upsertGoal(tx, { title: 'x' }))).rejects.toThrow();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(doc);
  });
});

describe('automatic compaction', () => {
  test('past its threshold a write compacts the trail in the same locked write: bounded file, same stats, revert points kept', async () => {
    const dir = tempDir('goals-autocompact-');
    const plain = openGoals(join(dir, 'plain.json'), { clock: () => T0 });
    const path = join(dir, 'goals.json');
    let registryLoads = 0;
    const store = openGoals(path, {
      clock: () => T0,
      autoCompact: {
        at: 20,
        registry: () => {
          registryLoads++;
          return registry;
        },
      },
    });
    await history(plain);
    await history(store);
    const [bounded, unbounded] = [await store.read(), await plain.read()];
    // The plain trail keeps every write; the other never holds more than 20 entries.
    expect(unbounded.audit.length).toBe(unbounded.version);
    expect(unbounded.audit.length).toBeGreaterThan(60);
    expect(bounded.audit.length).toBeLessThanOrEqual(20);
    expect(bounded.version).toBe(unbounded.version);
    expect(entities(bounded)).toEqual(entities(unbounded));
    expect(registryLoads).toBe((bounded.audit_summaries ?? []).length);
    expect(registryLoads).toBeGreaterThan(1);
    expect((bounded.audit_summaries ?? []).every((s) => s.compacted_by === 'auto-compaction')).toBe(true);
    // The history stays queryable: the per-type figures are the uncompacted ones.
    const stats = (s: GoalsState) => actionStats(s, registry, { now: T0 }).totals;
    expect(stats(bounded)).toEqual(stats(unbounded));
    expect(statSync(path).size).toBeLessThan(statSync(join(dir, 'plain.json')).size);
    // An agent's writes trigger it (no person needed), and a kept revert point still reverts.
    const { points } = (await import('../src/compact.js')).revertPoints(bounded);
    expect(points.length).toBeGreaterThan(0);
    await store.revert(points[points.length - 1]!, { actor: USER });
  });

  test('without the option nothing compacts by itself', async () => {
    const { store } = await fresh();
    expect((await store.read()).audit_summaries ?? []).toEqual([]);
  });
});
