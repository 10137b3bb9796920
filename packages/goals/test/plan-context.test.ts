import { describe, expect, test } from 'vitest';
import { CUT_ORDER, InputError, createAction, deprecateActionType, emptyState, loadRegistry, jsonSize, planContext, renderPlanContext, upsertGoal, upsertQuestion, upsertStory, type ContextMemory, type GoalsState } from '../src/index.js';
import { PlanContextSchema } from '../src/schema.js';
import { AGENT, T0, inMemory, registry } from './support.js';

/** A state with two goals, actions for both owners, a question with its story. */
function seeded(): GoalsState {
  const { tx, state } = inMemory(AGENT);
  upsertGoal(tx, { id: 'beta', title: 'Ship the beta', priority: 5, description: 'public beta\r\nby June' });
  upsertGoal(tx, { id: 'docs', title: 'Write the docs', priority: 1 });
  createAction(tx, registry, { type: 'agent_task', title: 'Write the migration', priority: 3, goal_id: 'beta' });
  createAction(tx, registry, { type: 'agent_task', title: 'Draft the changelog', priority: 1 });
  createAction(tx, registry, { type: 'approval_request', title: 'Approve the schema change', priority: 2, due_at: '2029-12-31T00:00:00Z' });
  upsertQuestion(tx, { text: 'Which users churn first?', goal_id: 'beta', priority: 2 });
  upsertStory(tx, { question_id: 'q1', narrative: 'Churn starts at onboarding', acceptance_criteria: ['3 months of cohorts'] });
  state.version = 4;
  return state;
}

const memories: ContextMemory[] = [
  { kind: 'failure', name: 'migration-lock', score: 2.5, tier: 'critical', trigger: 'a migration on a large table', advice: 'add the index concurrently' },
  { kind: 'pattern', name: 'beta-flags', score: 1.2, trigger: 'shipping a beta', advice: 'gate it behind a flag' },
];

describe('planContext: the planner inputs', () => {
  test('goals with progress, top actions per owner, questions with stories, active types, memories', () => {
    const doc = planContext(seeded(), registry, { now: T0, memories });
    expect(doc.version).toBe(4);
    expect(doc.generated_at).toBe('2030-01-01T00:00:00.000Z');
    expect(doc.goals.map((g) => [g.id, g.progress])).toEqual([['beta', 0], ['docs', 0]]);
    expect(doc.actions.agent.map((a) => a.id)).toEqual(['a1', 'a2']);
    expect(doc.actions.user).toMatchObject([{ id: 'a3', type: 'approval_request', overdue: true, requires_confirmation: true }]);
    expect(doc.questions).toEqual([{ id: 'q1', text: 'Which users churn first?', goal_id: 'beta', priority: 2, story: { id: 's1', narrative: 'Churn starts at onboarding', acceptance_criteria: ['3 months of cohorts'], status: 'draft' } }]);
    expect(doc.action_types.map((t) => t.id)).toContain('decision');
    expect(doc.memories.map((m) => m.name)).toEqual(['migration-lock', 'beta-flags']);
    expect(doc.budget).toEqual({ limit: null, used: jsonSize(doc), cut: [] });
    // The shipped JSON Schema's source accepts what is produced.
    expect(PlanContextSchema.safeParse(doc).success).toBe(true);
  });

  test('the query ranks the goals that share its words first', () => {
    const doc = planContext(seeded(), registry, { now: T0, query: 'the docs are late' });
    expect(doc.goals.map((g) => g.id)).toEqual(['docs', 'beta']);
    expect(doc.query).toBe('the docs are late');
  });

  test('a deprecated type is not offered to the planner', () => {
    const reg = loadRegistry(deprecateActionType(registry.document, 'research'));
    expect(planContext(emptyState(), reg, { now: T0 }).action_types.map((t) => t.id)).not.toContain('research');
  });

  test('deterministic: same state and clock, same bytes; another clock changes only what depends on it', () => {
    const a = JSON.stringify(planContext(seeded(), registry, { now: T0, memories }));
    const b = JSON.stringify(planContext(seeded(), registry, { now: T0, memories }));
    expect(a).toBe(b);
    const later = planContext(seeded(), registry, { now: Date.parse('2029-01-01T00:00:00Z'), memories });
    expect(later.actions.user[0]!.overdue).toBe(false);
  });
});

describe('planContext: bounded by a character budget', () => {
  test('fits the budget, and lists what it cut, round-robin from the least certain section', () => {
    const full = planContext(seeded(), registry, { now: T0, memories });
    const budget = full.budget.used - 200;
    const doc = planContext(seeded(), registry, { now: T0, memories, budget });
    expect(jsonSize(doc)).toBeLessThanOrEqual(budget);
    expect(doc.budget.used).toBe(jsonSize(doc));
    expect(doc.budget.limit).toBe(budget);
    // First cut: the lowest-ranked memory, then the question, then the user's action...
    expect(doc.budget.cut[0]).toEqual({ section: 'memories', id: 'beta-flags' });
    expect(doc.budget.cut.length).toBeGreaterThan(0);
    // Everything cut is gone, everything kept is not listed as cut.
    const memoryNames = doc.memories.map((m) => m.name);
    for (const c of doc.budget.cut.filter((x) => x.section === 'memories')) expect(memoryNames).not.toContain(c.id);
  });

  test('a small budget cuts every section in turn, goals last', () => {
    const doc = planContext(seeded(), registry, { now: T0, memories, budget: 2500 });
    expect(jsonSize(doc)).toBeLessThanOrEqual(2500);
    const order = [...new Set(doc.budget.cut.map((c) => c.section))];
    expect(order).toEqual(CUT_ORDER.filter((s) => order.includes(s)));
    expect(order.length).toBeGreaterThan(3);
    // Goals go only once every other section is empty.
    if (doc.budget.cut.some((c) => c.section === 'goals')) {
      expect([doc.actions.agent, doc.actions.user, doc.questions, doc.action_types, doc.memories].every((s) => s.length === 0)).toBe(true);
    }
    expect(doc.memories).toEqual([]);
  });

  test('the Markdown rendering fits when it is what the budget measures', () => {
    const doc = planContext(seeded(), registry, { now: T0, memories, budget: 900, measure: (d) => renderPlanContext(d).length });
    const md = renderPlanContext(doc);
    expect(md.length).toBeLessThanOrEqual(900);
    expect(md).toContain(`Budget: ${md.length} of 900 characters; cut to fit: memories beta-flags`);
  });

  test('a budget below the empty skeleton is refused, naming the size needed', () => {
    expect(() => planContext(seeded(), registry, { now: T0, budget: 50 })).toThrow(InputError);
    expect(() => planContext(seeded(), registry, { now: T0, budget: 50 })).toThrow(/budget of 50 characters is too small: the context needs \d+/);
  });

  test('goals are cut last: an empty-ish state keeps its goal while action types go', () => {
    const { tx, state } = inMemory(AGENT);
    upsertGoal(tx, { id: 'beta', title: 'Ship the beta', priority: 5 });
    const full = planContext(state, registry, { now: T0 });
    const doc = planContext(state, registry, { now: T0, budget: full.budget.used - 300 });
    expect(doc.goals.map((g) => g.id)).toEqual(['beta']);
    expect(doc.budget.cut.every((c) => c.section === 'action_types')).toBe(true);
  });

  test('a huge goal description is cut whole rather than overflowing', () => {
    const state = seeded();
    state.goals[1]!.description = 'x'.repeat(100_000);
    const doc = planContext(state, registry, { now: T0, budget: 5000 });
    expect(jsonSize(doc)).toBeLessThanOrEqual(5000);
    expect(doc.budget.cut).toContainEqual({ section: 'goals', id: 'docs' });
  });
});

describe('renderPlanContext', () => {
  test('one line per item: CR/LF inside a value never breaks the layout', () => {
    const md = renderPlanContext(planContext(seeded(), registry, { now: T0, memories }));
    expect(md).toContain('- beta (p5, 0% done): Ship the beta — public beta by June\n');
    expect(md).toContain('- a3 [approval_request] Approve the schema change (pending, p2, due 2029-12-31T00:00:00.000Z, OVERDUE, blocking, needs confirmation)');
    expect(md).toContain('  - story s1 [draft]: Churn starts at onboarding — criteria: 3 months of cohorts');
    expect(md).toContain('- failure migration-lock (critical, score 2.5): when a migration on a large table — add the index concurrently');
    expect(md).not.toContain('\r');
  });
});
