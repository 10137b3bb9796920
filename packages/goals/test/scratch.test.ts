import { describe, expect, test } from 'vitest';
import { InputError, SCRATCH_TTL_MS, addObservation, archiveObservation, expireObservations, promoteObservation, reviewObservation, scratchView } from '../src/index.js';
import { AGENT, T0, registry, tempStore } from './support.js';

const DAY = 24 * 60 * 60 * 1000;

describe('the Scratch Page', () => {
  test('add: the seed fields, TTL 7 days by default; expired items leave the active set on read, with no daemon', async () => {
    const t = tempStore();
    await t.store.mutate({ actor: AGENT, op: 'scratch.add' }, (tx) => {
      addObservation(tx, { content: 'signup p95 doubled since Monday', source: 'tool:grafana', tags: ['perf', 'perf'], confidence: 0.8 });
      addObservation(tx, { type: 'alert', content: 'disk 90% full', source: 'daemon:gut', ttl_ms: DAY });
    });
    const state = await t.store.read();
    expect(state.observations![0]).toMatchObject({ id: 'o1', type: 'observation', owner: 'agent', status: 'active', confidence: 0.8, tags: ['perf'], expires_at: new Date(T0 + SCRATCH_TTL_MS).toISOString() });
    expect(scratchView(state, T0).active.map((o) => o.id).sort()).toEqual(['o1', 'o2']);
    // Two days later, without anyone writing: o2 expired, o1 still active.
    const later = scratchView(state, T0 + 2 * DAY);
    expect(later.active.map((o) => o.id)).toEqual(['o1']);
    expect(later.expired.map((o) => o.id)).toEqual(['o2']);
    expect(scratchView(state, T0, { tag: 'perf' }).active.map((o) => o.id)).toEqual(['o1']);
    // The write side: expire archives them for good.
    t.clock.now = T0 + 2 * DAY;
    const r = await t.store.mutate({ actor: AGENT, op: 'scratch.expire' }, (tx) => expireObservations(tx));
    expect(r.result).toEqual(['o2']);
    expect((await t.store.read()).observations![1]).toMatchObject({ status: 'archived', expired: true });
  });

  test('review moves between active, pending_review and resolved; archived is final; an expired item cannot be revived', async () => {
    const t = tempStore();
    await t.store.mutate({ actor: AGENT, op: 'scratch.add' }, (tx) => addObservation(tx, { content: 'x', source: 's', ttl_ms: DAY }));
    await t.store.mutate({ actor: AGENT, op: 'scratch.review' }, (tx) => reviewObservation(tx, 'o1', 'pending_review', 'worth a look'));
    expect((await t.store.read()).observations![0]).toMatchObject({ status: 'pending_review', reviewed_by: 'agent', review_note: 'worth a look' });
    await t.store.mutate({ actor: AGENT, op: 'scratch.archive' }, (tx) => archiveObservation(tx, 'o1'));
    const archived = await t.store.mutate({ actor: AGENT, op: 'scratch.review' }, (tx) => reviewObservation(tx, 'o1', 'active')).catch((e: unknown) => e);
    expect(archived).toBeInstanceOf(InputError);
    expect((archived as InputError).code).toBe('scratch-state');
    await t.store.mutate({ actor: AGENT, op: 'scratch.add' }, (tx) => addObservation(tx, { content: 'y', source: 's', ttl_ms: DAY }));
    t.clock.now = T0 + 2 * DAY;
    const expired = await t.store.mutate({ actor: AGENT, op: 'scratch.review' }, (tx) => reviewObservation(tx, 'o2', 'active')).catch((e: unknown) => e);
    expect((expired as InputError).message).toContain('expired at');
  });

  test('promote: to an action that links back to its observation, or to a goal; never twice, never once expired', async () => {
    const t = tempStore();
    await t.store.mutate({ actor: AGENT, op: 'scratch.add' }, (tx) => {
      addObservation(tx, { content: 'signup p95 doubled', source: 'tool:grafana' });
      addObservation(tx, { content: 'Cut signup latency in half', source: 'user:alice', type: 'story' });
    });
    const a = await t.store.mutate({ actor: AGENT, op: 'scratch.promote' }, (tx) => promoteObservation(tx, registry, 'o1', { to: 'action', action: { type: 'research', title: 'Find why signup got slow' } }));
    expect(a.result.action!.action).toMatchObject({ id: 'a1', metadata: { observation_id: 'o1' }, evidence_refs: ['scratch:o1'] });
    expect(a.result.observation).toMatchObject({ status: 'resolved', promoted_to: { kind: 'action', id: 'a1' } });
    const g = await t.store.mutate({ actor: AGENT, op: 'scratch.promote' }, (tx) => promoteObservation(tx, registry, 'o2', { to: 'goal', goal: { priority: 3 } }));
    expect(g.result.goal).toMatchObject({ id: 'g1', title: 'Cut signup latency in half', priority: 3, evidence_refs: ['scratch:o2'] });
    const twice = await t.store.mutate({ actor: AGENT, op: 'scratch.promote' }, (tx) => promoteObservation(tx, registry, 'o1', { to: 'goal', goal: {} })).catch((e: unknown) => e);
    expect((twice as InputError).message).toContain('already promoted to action a1');
    await t.store.mutate({ actor: AGENT, op: 'scratch.add' }, (tx) => addObservation(tx, { content: 'z', source: 's', ttl_ms: 1000 }));
    t.clock.now = T0 + 2000;
    const late = await t.store.mutate({ actor: AGENT, op: 'scratch.promote' }, (tx) => promoteObservation(tx, registry, 'o3', { to: 'goal', goal: {} })).catch((e: unknown) => e);
    expect((late as InputError).code).toBe('scratch-state');
    expect((await t.store.read()).goals).toHaveLength(1);
  });

  test('bad input: empty content, no source, confidence out of range, a bad expiry', async () => {
    const t = tempStore();
    for (const input of [{ content: ' ', source: 's' }, { content: 'c', source: '' }, { content: 'c', source: 's', confidence: 2 }, { content: 'c', source: 's', expires_at: 'tomorrow' }, { content: 'c', source: 's', ttl_ms: -1 }]) {
      await expect(t.store.mutate({ actor: AGENT, op: 'scratch.add' }, (tx) => addObservation(tx, input))).rejects.toBeInstanceOf(InputError);
    }
    expect((await t.store.read()).version).toBe(0);
  });
});
