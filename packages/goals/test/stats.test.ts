import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { actionStats, completeAction, createAction, moveAction, scopedView, type Actor } from '../src/index.js';
import { ActionStatsSchema } from '../src/schema.js';
import { AGENT, T0, USER, registry, tempStore } from './support.js';

const HOUR = 3600_000;
const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../schemas/action-stats.schema.json', import.meta.url)), 'utf8')) as object;

/** A week of work: every kind of outcome, on a clock that moves. */
async function week() {
  const t = tempStore();
  const { store, clock } = t;
  await store.mutate({ actor: AGENT, op: 'day1' }, (tx) => {
    createAction(tx, registry, { id: 't1', type: 'agent_task', title: 'one' });
    createAction(tx, registry, { id: 't2', type: 'agent_task', title: 'two' });
    createAction(tx, registry, { id: 't3', type: 'agent_task', title: 'three', due_at: new Date(T0 + 2 * HOUR).toISOString() });
    createAction(tx, registry, { id: 'j1', type: 'background_job', title: 'job', owner: 'agent' });
    createAction(tx, registry, { id: 'j2', type: 'background_job', title: 'job', owner: 'agent' });
    createAction(tx, registry, { id: 'r1', type: 'reminder', title: 'ping', due_at: new Date(T0 + HOUR).toISOString() });
  });
  clock.now = T0 + 24 * HOUR;
  await store.mutate({ actor: AGENT, op: 'day2' }, (tx) => {
    completeAction(tx, registry, 't1');
    moveAction(tx, registry, 't2', 'cancelled');
    moveAction(tx, registry, 'j1', 'running');
    moveAction(tx, registry, 'j1', 'failed');
    completeAction(tx, registry, 'j2');
  });
  // An unknown type: coerced to user_task, a proposal filed.
  await store.mutate({ actor: AGENT, op: 'day2b' }, (tx) => createAction(tx, registry, { id: 'u1', type: 'load_test', title: 'load' }));
  // A turn escalates the overdue reminder.
  await store.commitTurn(registry, { turn_id: 'turn-1' }, { actor: AGENT });
  // Created then reverted: a revert is not new work, and its undo is not counted.
  await store.mutate({ actor: AGENT, op: 'oops' }, (tx) => completeAction(tx, registry, 't3'));
  const before = (await store.read()).version;
  await store.revert(before - 1, { actor: USER });
  return t;
}

describe('actions stats', () => {
  test('per type: created, completed, completion and failure rates, overdue, escalated, coerced; totals', async () => {
    const { store } = await week();
    const now = T0 + 48 * HOUR;
    const doc = actionStats(await store.read(), registry, { now });
    const row = (type: string) => doc.types.find((t) => t.type === type)!;
    expect(row('agent_task')).toEqual({ type: 'agent_task', registered: true, created: 3, completed: 1, cancelled: 1, failed: 0, escalated: 0, coerced: 0, open: 1, overdue: 1, completion_rate: 0.3333, failure_rate: 0 });
    // A failed job stays pending: its type lets it be queued again.
    expect(row('background_job')).toMatchObject({ created: 2, completed: 1, failed: 1, failure_rate: 0.5, completion_rate: 0.5, open: 1 });
    expect(row('reminder')).toMatchObject({ created: 1, escalated: 1, open: 1, overdue: 1, completion_rate: 0, failure_rate: null });
    expect(row('user_task')).toMatchObject({ created: 1, open: 1, coerced: 0 });
    expect(row('load_test')).toEqual({ type: 'load_test', registered: false, created: 0, completed: 0, cancelled: 0, failed: 0, escalated: 0, coerced: 1, open: 0, overdue: 0, completion_rate: null, failure_rate: null });
    // Registry order, then unregistered ids.
    expect(doc.types.map((t) => t.type)).toEqual([...registry.types.keys(), 'load_test']);
    expect(doc.totals).toMatchObject({ created: 7, completed: 2, cancelled: 1, failed: 1, escalated: 1, coerced: 1, open: 4, overdue: 2, failure_rate: 0.25 });
    expect(doc.totals.completion_rate).toBe(Math.round((2 / 7) * 10_000) / 10_000);
    // t3's completion was reverted: it did not happen, and t3 is open again (and overdue).
    expect((await store.read()).actions.find((x) => x.id === 't3')!.status).toBe('open');
  });

  test('deterministic under a fixed clock, and valid against its JSON Schema (and the zod schema)', async () => {
    const { store } = await week();
    const state = await store.read();
    const a = JSON.stringify(actionStats(state, registry, { now: T0 + 48 * HOUR }));
    const b = JSON.stringify(actionStats(structuredClone(state), registry, { now: T0 + 48 * HOUR }));
    expect(a).toBe(b);
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(JSON.parse(a)), JSON.stringify(validate.errors)).toBe(true);
    expect(ActionStatsSchema.safeParse(JSON.parse(a)).success).toBe(true);
    // Overdue is judged against the clock given.
    expect(actionStats(state, registry, { now: T0 }).totals.overdue).toBe(0);
  });

  test('--since: only what happened in the window counts; open and overdue are as of now', async () => {
    const { store } = await week();
    const doc = actionStats(await store.read(), registry, { now: T0 + 48 * HOUR, since: T0 + 12 * HOUR });
    expect(doc.since).toBe(new Date(T0 + 12 * HOUR).toISOString());
    const agentTask = doc.types.find((t) => t.type === 'agent_task')!;
    // Created on day 1, before the window; closed on day 2, inside it.
    expect(agentTask).toMatchObject({ created: 0, completed: 1, cancelled: 1, open: 1, completion_rate: null });
    expect(doc.totals.created).toBe(1);
  });

  test('scoped: an agent\'s figures cover only what it may see', async () => {
    const { store } = tempStore();
    const a: Actor = { role: 'agent', agent_id: 'a' };
    const b: Actor = { role: 'agent', agent_id: 'b' };
    await store.mutate({ actor: a, op: 'a' }, (tx) => createAction(tx, registry, { type: 'agent_task', title: 'x' }));
    await store.mutate({ actor: b, op: 'b' }, (tx) => {
      createAction(tx, registry, { type: 'agent_task', title: 'y' });
      createAction(tx, registry, { type: 'agent_task', title: 'z' });
    });
    const state = await store.read();
    expect(actionStats(scopedView(state, a), registry, { now: T0 }).totals).toMatchObject({ created: 1, open: 1 });
    expect(actionStats(scopedView(state, b), registry, { now: T0 }).totals).toMatchObject({ created: 2, open: 2 });
  });

  test('the figures agree with each other: a revert that is itself reverted puts its creations back in the count', async () => {
    const { store } = tempStore();
    await store.mutate({ actor: AGENT, op: 'create' }, (tx) => createAction(tx, registry, { id: 'a1', type: 'agent_task', title: 'one' }));
    await store.revert(0, { actor: USER });
    // Undo the undo: a1 exists again, and so does its creation.
    await store.revert(1, { actor: USER });
    await store.mutate({ actor: AGENT, op: 'create' }, (tx) => createAction(tx, registry, { id: 'a2', type: 'agent_task', title: 'two' }));
    await store.mutate({ actor: AGENT, op: 'complete' }, (tx) => completeAction(tx, registry, 'a2'));
    const state = await store.read();
    expect(state.actions.map((a) => a.id)).toEqual(['a1', 'a2']);
    const doc = actionStats(state, registry, { now: T0 });
    expect(doc.totals).toMatchObject({ created: 2, completed: 1, open: 1, completion_rate: 0.5 });
  });

  test('an action created and completed in one turn commit counts as created and completed', async () => {
    const { store } = tempStore();
    await store.commitTurn(registry, { turn_id: 't1', new_actions: [{ id: 'x1', type: 'agent_task', title: 'do it' }], completed_actions: ['x1'] }, { actor: AGENT });
    const doc = actionStats(await store.read(), registry, { now: T0 });
    expect(doc.totals).toMatchObject({ created: 1, completed: 1, completion_rate: 1, failure_rate: 0 });
  });
});
