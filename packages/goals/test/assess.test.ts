import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { assess, createAction, emptyState, upsertGoal, upsertQuestion, upsertStory, type GoalsState, type PendingAction } from '../src/index.js';
import { AGENT, T0, inMemory, registry } from './support.js';

function action(partial: Partial<PendingAction> & { id: string }): PendingAction {
  return { type: 'agent_task', owner: 'agent', title: partial.id, priority: 1, status: 'open', created_by: 'agent', evidence_refs: [], metadata: {}, created_at: new Date(T0).toISOString(), updated_at: new Date(T0).toISOString(), version: 1, ...partial };
}

const ids = (state: GoalsState, k = 10): string[] => assess(state, registry, { now: T0, actions: k }).actions.map((a) => a.action.id);

describe('assess: ordering and its tie-breaks', () => {
  test('utility density, then due date, then blocking, then goal alignment, then age, then id', () => {
    const state = emptyState();
    state.goals.push({ id: 'g-hi', title: 'hi', priority: 9, status: 'active', progress: 0, metrics: {}, constraints: [], lineage_ids: [], evidence_refs: [], created_at: '', updated_at: '', version: 1 });
    const at = (ms: number): string => new Date(T0 + ms).toISOString();
    state.actions.push(
      action({ id: 'dense', priority: 4, effort: 1 }),
      action({ id: 'heavy', priority: 6, effort: 3 }),
      action({ id: 'due-late', priority: 1, due_at: at(2000) }),
      action({ id: 'due-soon', priority: 1, due_at: at(1000) }),
      action({ id: 'blocking', priority: 1, blocking: true }),
      action({ id: 'aligned', priority: 1, goal_id: 'g-hi' }),
      action({ id: 'older', priority: 1, created_at: at(-5) }),
      action({ id: 'b-same', priority: 1 }),
      action({ id: 'a-same', priority: 1 }),
      action({ id: 'finished', priority: 100, status: 'done' }),
    );
    expect(ids(state)).toEqual(['dense', 'heavy', 'due-soon', 'due-late', 'blocking', 'aligned', 'older', 'a-same', 'b-same']);
  });

  test('partitioned by owner, counted, with overdue and escalation flags', () => {
    const { tx, state } = inMemory(AGENT);
    createAction(tx, registry, { type: 'user_task', title: 'u1', priority: 5 });
    createAction(tx, registry, { type: 'reminder', owner: 'user', title: 'r1', priority: 1, due_at: new Date(T0 - 1).toISOString() });
    createAction(tx, registry, { type: 'agent_task', title: 'a1', priority: 2 });
    const r = assess(state, registry, { now: T0 });
    expect(r.by_owner.user.map((a) => a.action.title)).toEqual(['u1', 'r1']);
    expect(r.by_owner.agent.map((a) => a.action.title)).toEqual(['a1']);
    expect(r.counts).toEqual({ pending: 3, agent: 1, user: 2, overdue: 1, escalation_due: 1 });
    expect(r.actions.find((a) => a.action.title === 'r1')).toMatchObject({ overdue: true, escalation_due: true });
    expect(assess(state, registry, { now: T0, owner: 'agent' }).actions.map((a) => a.action.title)).toEqual(['a1']);
  });

  test('goals by relevance to the query, then priority; questions with their stories', () => {
    const { tx, state } = inMemory(AGENT);
    upsertGoal(tx, { title: 'Reduce cloud costs', priority: 1 });
    const launch = upsertGoal(tx, { title: 'Launch the mobile app', priority: 5 });
    upsertGoal(tx, { title: 'Paused thing', priority: 10, status: 'paused' });
    const q = upsertQuestion(tx, { text: 'What do mobile users need?', goal_id: launch.id, priority: 1 });
    upsertQuestion(tx, { text: 'Unrelated', priority: 3 });
    upsertStory(tx, { question_id: q.id, narrative: 'offline mode', acceptance_criteria: ['works offline'] });
    expect(assess(state, registry, { now: T0 }).goals.map((g) => g.title)).toEqual(['Launch the mobile app', 'Reduce cloud costs']);
    const r = assess(state, registry, { now: T0, query: 'cloud costs this month' });
    expect(r.goals.map((g) => g.title)).toEqual(['Reduce cloud costs', 'Launch the mobile app']);
    expect(assess(state, registry, { now: T0, query: 'mobile' }).questions[0]).toMatchObject({ question: { id: q.id }, story: { narrative: 'offline mode' } });
  });
});

test('timestamps in other ISO forms (offsets, no milliseconds) order by the time they denote', () => {
  const state = emptyState();
  state.actions.push(
    action({ id: 'later', due_at: '2030-01-01T09:30:00+00:00' }),
    action({ id: 'earlier', due_at: '2030-01-01T10:00:00+02:00' }),
    action({ id: 'bad-date', due_at: 'not a date' }),
    action({ id: 'canonical', due_at: '2030-01-01T08:30:00.000Z' }),
  );
  expect(ids(state)).toEqual(['earlier', 'canonical', 'later', 'bad-date']);
  const { tx } = inMemory(AGENT);
  expect(createAction(tx, registry, { type: 'agent_task', title: 'x', due_at: '2030-01-01T10:00:00+02:00' }).action.due_at).toBe('2030-01-01T08:00:00.000Z');
  expect(() => createAction(tx, registry, { type: 'agent_task', title: 'x', due_at: 'soon' })).toThrow(/ISO 8601/);
});

describe('deterministic selection (fast-check, fixed seed)', () => {
  const arbAction = fc.record({
    priority: fc.integer({ min: 0, max: 5 }),
    effort: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    due: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    blocking: fc.boolean(),
    owner: fc.constantFrom('agent' as const, 'user' as const),
    done: fc.boolean(),
  });

  test('the result does not depend on the order of the input, and is the prefix of a full sort', () => {
    fc.assert(
      fc.property(fc.array(arbAction, { maxLength: 60 }), fc.integer({ min: 1, max: 15 }), fc.integer(), (specs, k, seed) => {
        const actions = specs.map((s, i) =>
          action({ id: `a${i}`, priority: s.priority, effort: s.effort, due_at: s.due === undefined ? undefined : new Date(T0 + s.due).toISOString(), blocking: s.blocking, owner: s.owner, type: s.owner === 'user' ? 'user_task' : 'agent_task', status: s.done ? 'done' : 'open' }),
        );
        const state = { ...emptyState(), actions };
        const shuffled = { ...emptyState(), actions: [...actions].sort((a, b) => hash(a.id, seed) - hash(b.id, seed)) };
        const first = ids(state, k);
        expect(ids(shuffled, k)).toEqual(first);
        const full = ids(state, 1000);
        expect(first).toEqual(full.slice(0, k));
        expect(full).toHaveLength(actions.filter((a) => a.status !== 'done').length);
      }),
      { seed: 42, numRuns: 200 },
    );
  });
});

test('goals, questions and their stories: the same whatever the order of the arrays (fixed seed)', () => {
  const word = fc.constantFrom('mobile', 'cloud', 'costs', 'launch', 'users', 'beta');
  const arbGoal = fc.record({ words: fc.array(word, { maxLength: 3 }), priority: fc.integer({ min: 0, max: 3 }), progress: fc.constantFrom(0, 0.5, 1), status: fc.constantFrom('active' as const, 'active' as const, 'paused' as const) });
  const arbQuestion = fc.record({ words: fc.array(word, { maxLength: 3 }), priority: fc.integer({ min: 0, max: 3 }), goal: fc.option(fc.nat(), { nil: undefined }), open: fc.boolean(), stories: fc.nat({ max: 2 }) });
  fc.assert(
    fc.property(fc.array(arbGoal, { maxLength: 12 }), fc.array(arbQuestion, { maxLength: 12 }), fc.array(word, { maxLength: 2 }), fc.integer(), (gs, qs, query, seed) => {
      const state = emptyState();
      gs.forEach((g, i) => state.goals.push({ id: `g${i}`, title: g.words.join(' ') || 'goal', priority: g.priority, status: g.status, progress: g.progress, metrics: {}, constraints: [], lineage_ids: [], evidence_refs: [], created_at: '', updated_at: '', version: 1 }));
      qs.forEach((q, i) => {
        const goal_id = q.goal === undefined || gs.length === 0 ? undefined : `g${q.goal % gs.length}`;
        state.questions.push({ id: `q${i}`, text: q.words.join(' ') || 'question', priority: q.priority, status: q.open ? 'open' : 'answered', ...(goal_id ? { goal_id } : {}), tags: [], created_at: '', updated_at: '', version: 1 });
        for (let k = 0; k < q.stories; k++) state.stories.push({ id: `s${i}-${k}`, question_id: `q${i}`, narrative: `story ${k}`, acceptance_criteria: [], evidence_refs: [], status: 'active', last_updated: '', version: 1 });
      });
      const shuffle = <T extends { id: string }>(xs: T[]): T[] => [...xs].sort((a, b) => hash(a.id, seed) - hash(b.id, seed));
      const shuffled = { ...state, goals: shuffle(state.goals), questions: shuffle(state.questions), stories: shuffle(state.stories) };
      const view = (s: GoalsState): unknown => {
        const r = assess(s, registry, { now: T0, goals: 4, questions: 4, query: query.join(' ') });
        return { goals: r.goals.map((g) => g.id), questions: r.questions.map((q) => [q.question.id, q.story?.id]) };
      };
      expect(view(shuffled)).toEqual(view(state));
    }),
    { seed: 11, numRuns: 200 },
  );
});

function hash(s: string, seed: number): number {
  let h = seed | 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 2654435761);
  return h >>> 0;
}

describe('assess: relevance to the query', () => {
  test('actions sharing more of the query\'s words rank first; whole words, any case; the goal they serve counts; without a query nothing changes', () => {
    const state = emptyState();
    state.goals.push({ id: 'g-signup', title: 'Faster Signup', priority: 1, status: 'active', progress: 0, metrics: {}, constraints: [], lineage_ids: [], evidence_refs: [], created_at: '', updated_at: '', version: 1 });
    state.actions.push(
      action({ id: 'dense', priority: 9, title: 'Tidy the changelog' }),
      action({ id: 'signing', priority: 5, title: 'Rotate the signing key' }),
      action({ id: 'one', priority: 2, title: 'Profile the SIGNUP page' }),
      action({ id: 'two', priority: 1, title: 'Why is the signup page slow?', description: 'Profile it' }),
      action({ id: 'by-goal', priority: 3, title: 'Cache the country list', goal_id: 'g-signup' }),
    );
    const ranked = (query?: string): string[] => assess(state, registry, { now: T0, query }).actions.map((a) => a.action.id);
    expect(ranked()).toEqual(['dense', 'signing', 'by-goal', 'one', 'two']);
    // "signup" and "page" in one and two (density breaks the tie), "signup" in by-goal through its goal's title;
    // "sign" in nothing: it is not a word of "signing".
    expect(ranked('signup page sign')).toEqual(['one', 'two', 'by-goal', 'dense', 'signing']);
  });
});
