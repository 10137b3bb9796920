/**
 * What a finished session hands over to: the reasoning protocol's route (or the next queued flow) is
 * recorded in `handoff`, and stays owed until that session is started or the user declines it. The
 * shortcut refused here: the agent declining the route itself, or declining work already started.
 */
import { describe, expect, test } from 'vitest';
import { advanceFlow, declineFlow, loadFlowFile, startFlow, type RunnerOptions } from '../src/index.js';
import { handoffStatus, readSessionSync } from '../src/session-view.js';
import { flowIn, REASONING, runner, SKILL, think, tmpProject } from './support.js';

const CATALOGUE = { flows: () => ['develop-feature', 'reasoning', 'review'] };

/** A reasoning session run to completion with the route develop-feature. */
async function reasoned(root: string, opts: RunnerOptions, id = 'r'): Promise<void> {
  const flow = await loadFlowFile(REASONING);
  await startFlow(opts, { flow, ref: REASONING, sessionId: id, inputs: { query: 'add a login page' } });
  let v = await think(opts, { sessionId: id });
  while (v.session.current !== '4') v = await think(opts, { sessionId: id });
  v = await think(opts, { sessionId: id, set: { route: 'develop-feature', confidence: 'HIGH' } });
  while (v.session.status !== 'COMPLETED') v = await think(opts, { sessionId: id });
}

describe('handoff', () => {
  test('a reasoning session that completes records the route it hands over to; it is pending until that session starts', async () => {
    const root = tmpProject();
    const opts = runner(root, CATALOGUE);
    await reasoned(root, opts);
    const state = readSessionSync(root, 'r')!;
    expect(state.handoff).toEqual({ flow: 'develop-feature', session: 'r-develop-feature' });
    expect(handoffStatus(root, state)).toBe('pending');
    const skill = await loadFlowFile(SKILL);
    await startFlow(opts, { flow: skill, ref: SKILL, sessionId: 'r-develop-feature', inputs: { task: 'r' } });
    expect(handoffStatus(root, state)).toBe('started');
    // Started under another id, or as another flow, it is not the route.
    expect(handoffStatus(root, { ...state, handoff: { flow: 'review', session: 'r-develop-feature' } })).toBe('pending');
    expect(readSessionSync(root, 'nobody')).toBeUndefined();
  });

  test('only the user declines, with a reason; then nothing is owed and the directive no longer starts the route', async () => {
    const root = tmpProject();
    const opts = runner(root, CATALOGUE);
    await reasoned(root, opts);
    await expect(declineFlow(opts, { sessionId: 'r', actor: 'agent', reason: 'not needed' })).rejects.toMatchObject({ code: 'user-required' });
    for (const reason of [' ', 'two\r\nlines', 'x'.repeat(2001)]) await expect(declineFlow(opts, { sessionId: 'r', actor: 'user', reason })).rejects.toMatchObject({ code: 'bad-input' });
    await expect(declineFlow(opts, { sessionId: '../r', actor: 'user', reason: 'x' })).rejects.toMatchObject({ code: 'bad-session-id' });
    const v = await declineFlow(opts, { sessionId: 'r', actor: 'user', reason: 'only wanted the explanation' });
    expect(v.outcome).toBe('declined');
    expect(v.session.handoff).toMatchObject({ flow: 'develop-feature', session: 'r-develop-feature', declined: { reason: 'only wanted the explanation' } });
    expect(v.session.history.at(-1)).toMatchObject({ event: 'decline', detail: 'develop-feature: only wanted the explanation' });
    expect(v.directive.command).toBe('ratchet flow status --session r');
    expect(handoffStatus(root, v.session)).toBe('declined');
  });

  test('nothing to decline: an unfinished session, one that routes nowhere, one whose route was started', async () => {
    const root = tmpProject();
    const opts = runner(root, CATALOGUE);
    const flow = await loadFlowFile(REASONING);
    await startFlow(opts, { flow, ref: REASONING, sessionId: 'open', inputs: { query: 'q' } });
    await expect(declineFlow(opts, { sessionId: 'open', actor: 'user', reason: 'x' })).rejects.toMatchObject({ code: 'bad-input' });
    const mini = await flowIn(tmpProject(), { id: 'mini', title: 'Mini', steps: [{ id: '0', title: 'A', content: 'a.md' }] });
    await startFlow(opts, { flow: mini, ref: mini.path, sessionId: 'm' });
    expect((await advanceFlow(opts, { sessionId: 'm' })).session).toMatchObject({ status: 'COMPLETED' });
    expect(readSessionSync(root, 'm')!.handoff).toBeUndefined();
    await expect(declineFlow(opts, { sessionId: 'm', actor: 'user', reason: 'x' })).rejects.toMatchObject({ code: 'bad-input' });
    await reasoned(root, opts, 'r2');
    const skill = await loadFlowFile(SKILL);
    await startFlow(opts, { flow: skill, ref: SKILL, sessionId: 'r2-develop-feature', inputs: { task: 'r2' } });
    await expect(declineFlow(opts, { sessionId: 'r2', actor: 'user', reason: 'x' })).rejects.toMatchObject({ code: 'bad-input', reason: expect.stringContaining('was started already') as string });
  });

  test('a flow finishing with flows queued (--then) hands over to the first', async () => {
    const root = tmpProject();
    const opts = runner(root, CATALOGUE);
    const mini = await flowIn(tmpProject(), { id: 'mini', title: 'Mini', steps: [{ id: '0', title: 'A', content: 'a.md' }] });
    await startFlow(opts, { flow: mini, ref: mini.path, sessionId: 'm', then: ['review', 'develop-feature'] });
    const done = await advanceFlow(opts, { sessionId: 'm' });
    expect(done.session.handoff).toEqual({ flow: 'review', session: 'm-review' });
  });
});
