/**
 * The planner's inputs (seed 002, "Inputs to Plan Generation"): the current state of the Frontal
 * Cortex (active goals and progress, the top pending actions per owner, the relevant questions with
 * their stories), the action types the registry allows, and relevant memories. One document, built
 * from `assess` (so it ranks exactly as the turn start does) and bounded to a character budget.
 *
 * Memories come in as plain values: this package never imports @ratchet/memory; the CLI queries
 * memory and passes the hits (DESIGN: where two packages meet, the application composes them).
 */
import { assess, type AssessOptions } from './assess.js';
import { InputError } from './errors.js';
import type { Registry } from './registry.js';
import type { z } from 'zod';
import type { ContextSectionSchema, PlanContextSchema } from './schema.js';
import { PLAN_CONTEXT_SCHEMA_URL } from './urls.js';
import type { GoalsState } from './types.js';

/**
 * The planner's context (JSON Schema: `@ratchet/goals/schemas/plan-context.schema.json`). `version` is
 * the goals state version read (a plan built on it commits with this `expected_version`);
 * `generated_at` the injected clock it was assembled at (same state, same clock, same document);
 * `budget` the size bound: `used` characters of `limit` (as the caller's rendering measures them) and
 * what was cut to stay in it.
 */
export type PlanContext = z.infer<typeof PlanContextSchema>;
/**
 * A memory the caller judged relevant (e.g. a @ratchet/memory query hit), already ranked best first:
 * `score` is the caller's, kept for the planner's judgement (the order given is the order kept);
 * `trigger` says when it applies, `advice` what to do (a failure's fix, a pattern's insight).
 */
export type ContextMemory = PlanContext['memories'][number];
export type ContextGoal = PlanContext['goals'][number];
export type ContextAction = PlanContext['actions']['agent'][number];
export type ContextQuestion = PlanContext['questions'][number];
export type ContextActionType = PlanContext['action_types'][number];
export type ContextSection = z.infer<typeof ContextSectionSchema>;
/** An item left out to fit the budget: which section, and its id (a memory's name). */
export type CutItem = PlanContext['budget']['cut'][number];

export interface PlanContextOptions extends Pick<AssessOptions, 'now' | 'query' | 'goals' | 'actions' | 'questions'> {
  memories?: readonly ContextMemory[] | undefined;
  /** At most this many characters, as `measure` counts them; absent: no bound. */
  budget?: number | undefined;
  /** The size of the document as it will be shown (default: JSON with 2-space indent and a final newline, as the CLI prints it). */
  measure?: ((doc: PlanContext) => number) | undefined;
}

/**
 * Items are cut round-robin over the sections in this order, each time the lowest-ranked item of
 * the section whose turn it is: the least certain inputs (memories) go first, no section is emptied
 * while another still holds its tail, and goals, what the plan is for, only once all else is gone.
 */
export const CUT_ORDER: readonly ContextSection[] = ['memories', 'questions', 'actions.user', 'actions.agent', 'action_types', 'goals'];

/** The size of the document as the CLI's `--json` prints it. */
export const jsonSize = (doc: PlanContext): number => JSON.stringify(doc, null, 2).length + 1;

/** Assemble the planner's context; throws `InputError` when even an empty context exceeds the budget. */
export function planContext(state: GoalsState, registry: Registry, options: PlanContextOptions): PlanContext {
  const turn = assess(state, registry, { now: options.now, query: options.query, goals: options.goals, actions: options.actions, questions: options.questions });
  const action = (x: (typeof turn.actions)[number]): ContextAction => {
    const a = x.action;
    return {
      id: a.id,
      type: a.type,
      title: a.title,
      status: a.status,
      priority: a.priority,
      due_at: a.due_at,
      goal_id: a.goal_id,
      blocking: a.blocking,
      requires_confirmation: a.requires_confirmation,
      overdue: x.overdue,
    };
  };
  const doc: PlanContext = {
    $schema: PLAN_CONTEXT_SCHEMA_URL,
    schemaVersion: 1,
    version: turn.version,
    generated_at: new Date(options.now).toISOString(),
    query: options.query,
    goals: turn.goals.map((g) => ({
      id: g.id,
      title: g.title,
      description: g.description,
      priority: g.priority,
      progress: g.progress,
      horizon: g.horizon,
      constraints: g.constraints,
      parent_goal_id: g.parent_goal_id,
    })),
    actions: { agent: turn.by_owner.agent.map(action), user: turn.by_owner.user.map(action) },
    questions: turn.questions.map(({ question: q, story: s }) => ({
      id: q.id,
      text: q.text,
      goal_id: q.goal_id,
      priority: q.priority,
      story: s === undefined ? undefined : { id: s.id, narrative: s.narrative, acceptance_criteria: s.acceptance_criteria, status: s.status },
    })),
    // Only types an action may be created with: the planner cannot use a deprecated one.
    action_types: [...registry.types.values()]
      .map((t) => t.type)
      .filter((t) => t.deprecation_status === 'active')
      .map((t) => ({
        id: t.id,
        display_name: t.display_name,
        description: t.description,
        allowed_owners: t.allowed_owners,
        requires_confirmation: t.default_policies.requires_confirmation === true,
        statuses: t.allowed_statuses,
      })),
    memories: (options.memories ?? []).map((m) => ({ ...m })),
    budget: { limit: options.budget ?? null, used: 0, cut: [] },
  };
  const measure = options.measure ?? jsonSize;
  fit(doc, options.budget, measure);
  return withoutUndefined(doc);
}

function sectionOf(doc: PlanContext, section: ContextSection): { id?: string; name?: string }[] {
  switch (section) {
    case 'actions.agent':
      return doc.actions.agent;
    case 'actions.user':
      return doc.actions.user;
    default:
      return doc[section];
  }
}

/** Cut items (round-robin, lowest-ranked first) until the rendering fits; `budget.used` is the final size. */
function fit(doc: PlanContext, budget: number | undefined, measure: (doc: PlanContext) => number): void {
  const settle = (): number => {
    // `used` is part of what is measured: iterate until the number printed is the size of the print.
    let size = measure(doc);
    for (let i = 0; i < 3 && doc.budget.used !== size; i++) {
      doc.budget.used = size;
      size = measure(doc);
    }
    return size;
  };
  if (budget === undefined) {
    settle();
    return;
  }
  const rotation = CUT_ORDER.filter((s) => s !== 'goals');
  let turn = 0;
  while (settle() > budget) {
    let cut = false;
    for (let tries = 0; tries < rotation.length && !cut; tries++) {
      const section = rotation[turn % rotation.length]!;
      turn++;
      cut = cutLast(doc, section);
    }
    if (!cut) cut = cutLast(doc, 'goals');
    if (!cut) {
      throw new InputError(`budget of ${budget} characters is too small: the context needs ${doc.budget.used} even with every goal, action, question, type and memory cut`, 'invalid-input');
    }
  }
}

/** Remove the section's lowest-ranked item and list it as cut; false when the section is empty. */
function cutLast(doc: PlanContext, section: ContextSection): boolean {
  const last = sectionOf(doc, section).pop();
  if (last === undefined) return false;
  doc.budget.cut.push({ section, id: String(last.id ?? last.name) });
  return true;
}

/** Drop `undefined` members so the document is the same whether it is printed or compared. */
function withoutUndefined<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * The compact Markdown rendering: what a prompt embeds. Every value of the document appears
 * except the schema fields; one line per item, so cutting an item shortens it predictably.
 */
export function renderPlanContext(doc: PlanContext): string {
  const out: string[] = [`# Planning context (goals state v${doc.version}, ${doc.generated_at})`];
  if (doc.query !== undefined) out.push('', `Query: ${oneLine(doc.query)}`);
  out.push('', '## Active goals');
  if (doc.goals.length === 0) out.push('- (none)');
  for (const g of doc.goals) {
    out.push(`- ${g.id} (p${g.priority}, ${Math.round(g.progress * 100)}% done${g.parent_goal_id !== undefined ? `, under ${g.parent_goal_id}` : ''}): ${oneLine(g.title)}${g.description !== undefined ? ` — ${oneLine(g.description)}` : ''}`);
    for (const c of g.constraints) out.push(`  - constraint: ${oneLine(c)}`);
  }
  for (const owner of ['agent', 'user'] as const) {
    out.push('', `## Pending actions for the ${owner}`);
    if (doc.actions[owner].length === 0) out.push('- (none)');
    for (const a of doc.actions[owner]) {
      const flags = [a.status, `p${a.priority}`, a.due_at !== undefined ? `due ${a.due_at}` : '', a.overdue ? 'OVERDUE' : '', a.blocking === true ? 'blocking' : '', a.requires_confirmation === true ? 'needs confirmation' : '', a.goal_id !== undefined ? `goal ${a.goal_id}` : ''].filter((f) => f !== '');
      out.push(`- ${a.id} [${a.type}] ${oneLine(a.title)} (${flags.join(', ')})`);
    }
  }
  out.push('', '## Questions and stories');
  if (doc.questions.length === 0) out.push('- (none)');
  for (const q of doc.questions) {
    out.push(`- ${q.id}${q.goal_id !== undefined ? ` (goal ${q.goal_id})` : ''}: ${oneLine(q.text)}`);
    if (q.story !== undefined) out.push(`  - story ${q.story.id} [${q.story.status}]: ${oneLine(q.story.narrative)}${q.story.acceptance_criteria.length > 0 ? ` — criteria: ${q.story.acceptance_criteria.map(oneLine).join('; ')}` : ''}`);
  }
  out.push('', '## Action types');
  for (const t of doc.action_types) out.push(`- ${t.id} (${t.allowed_owners.join('/')}${t.requires_confirmation ? ', needs confirmation' : ''}): ${oneLine(t.description ?? t.display_name)} Statuses: ${t.statuses.join(', ')}.`);
  out.push('', '## Relevant memories');
  if (doc.memories.length === 0) out.push('- (none)');
  for (const m of doc.memories) out.push(`- ${m.kind} ${m.name} (${m.tier !== undefined ? `${m.tier}, ` : ''}score ${m.score}): when ${oneLine(m.trigger)} — ${oneLine(m.advice)}`);
  const limit = doc.budget.limit === null ? '' : ` of ${doc.budget.limit}`;
  out.push('', `Budget: ${doc.budget.used}${limit} characters${doc.budget.cut.length > 0 ? `; cut to fit: ${doc.budget.cut.map((c) => `${c.section} ${c.id}`).join(', ')}` : ''}.`);
  return `${out.join('\n')}\n`;
}

/** Newlines (CR, LF) inside a value would break the one-line-per-item layout. */
const oneLine = (s: string): string => s.replace(/\s*[\r\n]+\s*/g, ' ');
