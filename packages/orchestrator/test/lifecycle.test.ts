import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ORCHESTRATOR_DEFINITION, IllegalMoveError, createSession, fire, isFinished, legalTriggers, moveTo } from '../src/index.js';
import { fakeClock } from './support.js';

describe('lifecycle', () => {
  it('embeds protocols/orchestrator.fsm.json (generated: test/schema.test.ts fails when src/generated/definition.ts is stale)', () => {
    const file = JSON.parse(readFileSync(new URL('../../../protocols/orchestrator.fsm.json', import.meta.url), 'utf8')) as unknown;
    expect(ORCHESTRATOR_DEFINITION).toEqual(file);
  });

  it('walks the happy path START -> DONE by destination, looking triggers up', () => {
    const now = fakeClock();
    let s = createSession('T-1', { now });
    const path = ['ORIENTING', 'PLANNING', 'EXECUTING', 'EXECUTING', 'AWAITING_ANALYSIS', 'POST_MORTEM', 'SELF_CORRECTING', 'AWAITING_SUBMISSION', 'DONE'];
    for (const dest of path) s = moveTo(s, dest, { now });
    expect(s.state).toBe('DONE');
    expect(isFinished(s)).toBe(true);
    expect(s.history.map((h) => h.trigger)).toEqual([
      'begin_task',
      'orientation_complete',
      'plan_accepted',
      'step_complete',
      'plan_complete',
      'analysis_complete',
      'post_mortem_complete',
      'lessons_applied',
      'submit',
    ]);
    expect(s.history[0]).toEqual({ at: '2026-01-01T00:00:01.000Z', from: 'START', trigger: 'begin_task', to: 'ORIENTING' });
    expect(s.createdAt).toBe('2026-01-01T00:00:00.000Z');
    expect(s.updatedAt).toBe(s.history.at(-1)!.at);
  });

  it('fire is pure and follows the machine', () => {
    const now = fakeClock();
    const s0 = createSession('T', { now });
    const s1 = fire(s0, 'begin_task', { now });
    expect(s0.state).toBe('START');
    expect(s0.history).toEqual([]);
    expect(s1.state).toBe('ORIENTING');
  });

  it('an illegal trigger names the state and the legal triggers', () => {
    const now = fakeClock();
    const s = fire(fire(createSession('T', { now }), 'begin_task', { now }), 'orientation_complete', { now });
    expect(legalTriggers(s)).toEqual(['plan_rejected', 'plan_accepted', 'research_needed', 'abandon_task']);
    let err: unknown;
    try {
      fire(s, 'submit', { now });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(IllegalMoveError);
    const e = err as IllegalMoveError;
    expect(e.code).toBe('illegal-move');
    expect(e.state).toBe('PLANNING');
    expect(e.legal).toEqual(['plan_rejected', 'plan_accepted', 'research_needed', 'abandon_task']);
    expect(e.message).toBe('trigger "submit" is not allowed in state "PLANNING"; legal triggers: plan_rejected, plan_accepted, research_needed, abandon_task');
  });

  it('moveTo with no edge, or to an unknown state, is refused with the legal triggers', () => {
    const now = fakeClock();
    const s = createSession('T', { now });
    expect(() => moveTo(s, 'DONE', { now })).toThrow('move to "DONE" is not allowed in state "START"; legal triggers: begin_task');
    expect(() => moveTo(s, 'NOWHERE', { now })).toThrow(/no state "NOWHERE"/);
  });

  it('research loop and error recovery', () => {
    const now = fakeClock();
    let s = createSession('T', { now });
    for (const d of ['ORIENTING', 'PLANNING', 'RESEARCHING', 'AWAITING_RESULT', 'ERROR', 'ORIENTING']) s = moveTo(s, d, { now });
    expect(s.history.map((h) => h.trigger)).toEqual(['begin_task', 'orientation_complete', 'research_needed', 'research_plan_complete', 'research_failed', 'reorient']);
  });
});
