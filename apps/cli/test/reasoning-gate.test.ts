/**
 * The reasoning gate's decision, as a pure function over the sessions' states (the hook's e2e tests
 * are in tests/cli/reasoning-gate.test.ts and tests/claude-code/sessions-reasoning.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { reasoningFlowIds, reasoningHold, type ReasoningSession } from '../src/hook/reasoning-gate.js';

const session = (id: string, extra: Partial<ReasoningSession> = {}): ReasoningSession => ({ id, status: 'COMPLETED', current: null, routed: 'none', ...extra });
const routed = { flow: 'develop-feature', session: 'x-develop-feature' };

describe('reasoningHold', () => {
  test('nothing holds: no sessions, or every one finished with its route started, declined or none', () => {
    expect(reasoningHold([])).toBeUndefined();
    expect(reasoningHold([session('a', { handoff: routed, routed: 'started' }), session('b', { handoff: routed, routed: 'declined' }), session('c')])).toBeUndefined();
  });

  test('an open, a halted or a routed-but-not-started session holds; the first (newest) one is named', () => {
    expect(reasoningHold([session('new', { status: 'EXECUTING', current: '3b' }), session('old', { status: 'HALTED', current: '0' })])).toMatchObject({ session: 'new', kind: 'open', what: 'reasoning flow session new is EXECUTING at step 3b' });
    expect(reasoningHold([session('done', { handoff: routed, routed: 'started' }), session('old', { status: 'HALTED', current: '4' })])).toMatchObject({ session: 'old', kind: 'halted' });
    const r = reasoningHold([session('r', { handoff: routed, routed: 'pending' })]);
    expect(r).toMatchObject({ session: 'r', kind: 'routed', what: 'reasoning flow session r routed this request to flow develop-feature, which has not been started' });
    expect(r?.next).toContain('ratchet flow decline --session r');
  });

  test('sessions are read lazily: the gate stops at the first that holds', () => {
    const read: string[] = [];
    function* sessions(): Generator<ReasoningSession> {
      for (const s of [session('newest', { status: 'EXECUTING', current: '0' }), session('older')]) {
        read.push(s.id);
        yield s;
      }
    }
    expect(reasoningHold(sessions())?.session).toBe('newest');
    expect(read).toEqual(['newest']);
  });

  test("the reasoning flows: the project's prompt flow and the built-in one, however started", () => {
    expect([...reasoningFlowIds({ reasoningFlow: 'think-first' })].sort()).toEqual(['reasoning', 'think-first']);
    expect([...reasoningFlowIds({ reasoningFlow: false })]).toEqual(['reasoning']);
  });
});
