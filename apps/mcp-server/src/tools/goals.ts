/** Goals, pending actions and the turn cycle (`ratchet turn|actions|goals`). */
import type { OwnerName } from '@ratchet/cli';
import { need } from '../tool-args.js';
import { operationTool, type ToolSpec, type Zod } from '../tool-spec.js';

const OWNERS = ['agent', 'user'] as const satisfies readonly OwnerName[];

/** Optimistic locking: refused (nothing written) unless the goals state is at this version. */
export const expectedVersion = (z: Zod) => z.number().int().min(0).optional().describe('refuse unless the state is at this version');

export const goalsTools: ToolSpec[] = [
  operationTool({
    name: 'turn_assess',
    title: 'Assess the turn',
    commands: ['turn assess'],
    preset: 'standard',
    description: 'Turn start: top goals, pending actions and questions.',
    shape: (z) => ({ limit: z.number().int().positive().optional(), query: z.string().optional(), owner: z.enum(OWNERS).optional() }),
    // The CLI's typed operation (src/operations/goals.ts), loaded on the first call.
    operation: async (ctx, a) => (await import('@ratchet/cli')).goalsOperations.assess(ctx, { actions: a.limit, query: a.query, owner: a.owner }),
    output: 'turn-assess.v1',
  }),
  operationTool({
    name: 'turn_commit',
    title: 'Commit the turn',
    commands: ['turn commit'],
    preset: 'standard',
    description: "Turn end: apply the turn's deltas (idempotent by turn_id).",
    shape: (z) => ({
      commit: z
        .object({ turn_id: z.string() })
        .passthrough()
        .describe('{turn_id, expected_version?, progress, new_actions, completed_actions, story_updates}'),
    }),
    // The commit object itself is the input; problems in it are placed in it (`commit:1:45 ... (at /new_actions/0)`).
    operation: async (ctx, a) => (await import('@ratchet/cli')).goalsOperations.commitTurn(ctx, { commit: a.commit }),
    idempotent: true,
  }),
  operationTool({
    name: 'actions_list',
    title: 'List actions',
    commands: ['actions list'],
    preset: 'standard',
    description: 'Pending actions in assessment order.',
    shape: (z) => ({ all: z.boolean().optional(), owner: z.enum(OWNERS).optional() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).goalsOperations.listActions(ctx, { all: a.all, owner: a.owner }),
  }),
  operationTool({
    name: 'actions_add',
    title: 'Add an action',
    commands: ['actions add'],
    preset: 'all',
    description: 'Add a pending action of a registry type.',
    shape: (z) => ({
      type: z.string(),
      title: z.string(),
      priority: z.number().optional(),
      effort: z.number().positive().optional(),
      due: z.string().optional(),
      goal: z.string().optional(),
      blocking: z.boolean().optional(),
    }),
    operation: async (ctx, a) =>
      (await import('@ratchet/cli')).goalsOperations.addAction(ctx, { type: a.type, title: a.title, priority: a.priority, effort: a.effort, due: a.due, goal: a.goal, blocking: a.blocking }),
  }),
  operationTool({
    name: 'actions_complete',
    title: 'Complete an action',
    commands: ['actions complete'],
    preset: 'all',
    description: 'Complete an action, with evidence.',
    shape: (z) => ({ id: z.string(), evidence: z.array(z.string()).optional() }),
    // The agent acts: a user-owned action is refused by the library's owner rules (exit 1).
    operation: async (ctx, a) => (await import('@ratchet/cli')).goalsOperations.changeAction(ctx, { change: 'complete', id: a.id, evidence: a.evidence }),
  }),
  operationTool({
    name: 'goals_list',
    title: 'List goals',
    commands: ['goals list'],
    preset: 'all',
    description: 'Goals, highest priority first.',
    shape: (z) => ({ all: z.boolean().optional() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).goalsOperations.listGoals(ctx, { all: a.all }),
  }),
  operationTool({
    name: 'goals_progress',
    title: 'Goal progress',
    commands: ['goals progress'],
    preset: 'all',
    description: 'Set or add progress (0 to 1) on a goal.',
    shape: (z) => ({ id: z.string(), set: z.number().min(0).max(1).optional(), delta: z.number().optional(), evidence: z.array(z.string()).optional() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).goalsOperations.progress(ctx, { id: a.id, set: a.set, delta: a.delta, evidence: a.evidence }),
  }),
  operationTool({
    name: 'goals_add',
    title: 'Add or edit a goal',
    commands: ['goals add'],
    preset: 'all',
    description: 'Add a goal, or with the id of one change only the fields given.',
    shape: (z) => ({
      expected_version: expectedVersion(z),
      title: z.string().optional().describe('required for a new goal'),
      id: z.string().optional(),
      priority: z.number().optional(),
      description: z.string().optional(),
      parent: z.string().optional(),
      horizon_days: z.number().min(0).optional(),
      horizon_steps: z.number().int().min(0).optional(),
      metric: z.record(z.string(), z.number()).optional(),
      constraint: z.array(z.string()).optional(),
      status: z.enum(['proposed', 'active', 'paused', 'achieved', 'abandoned']).optional(),
    }),
    operation: async (ctx, a) =>
      (await import('@ratchet/cli')).goalsOperations.addGoal(ctx, {
        expectedVersion: a.expected_version,
        title: a.title,
        id: a.id,
        priority: a.priority,
        description: a.description,
        parent: a.parent,
        horizonDays: a.horizon_days,
        horizonSteps: a.horizon_steps,
        metrics: a.metric,
        constraints: a.constraint,
        status: a.status,
      }),
  }),
  operationTool({
    name: 'goals_plan',
    title: 'Goal plan',
    commands: ['goals plan start', 'goals plan step'],
    paths: ['file'],
    preset: 'all',
    description: 'start: run a checked Markdown plan (file or text); step: record a step start, succeed (evidence) or fail (reason).',
    shape: (z) => ({
      expected_version: expectedVersion(z),
      action: z.enum(['start', 'step']),
      file: z.string().optional().describe('start: the plan file'),
      text: z.string().optional().describe('start: the plan itself'),
      id: z.string().optional().describe('start: plan id'),
      goal: z.string().optional(),
      plan: z.string().optional().describe('step: plan id'),
      step: z.number().int().positive().optional(),
      event: z.enum(['start', 'succeed', 'fail']).optional(),
      evidence: z.array(z.string()).optional(),
      note: z.string().optional(),
      reason: z.string().optional(),
      regenerate: z.boolean().optional(),
      turn: z.string().optional(),
    }),
    // What each action needs is refused by name before anything runs.
    command: (a) => {
      if (a.action === 'start') {
        if (a.text === undefined) need(a, 'file');
        return 'goals plan start';
      }
      for (const name of ['plan', 'step', 'event']) need(a, name);
      return 'goals plan step';
    },
    operation: async (ctx, a) => {
      const { goalsOperations } = await import('@ratchet/cli');
      if (a.action === 'start') return goalsOperations.startPlan(ctx, { expectedVersion: a.expected_version, file: a.file, text: a.text, id: a.id, goal: a.goal, turn: a.turn });
      // plan, step and event are there: command() refused the call otherwise.
      return goalsOperations.stepPlan(ctx, {
        expectedVersion: a.expected_version,
        plan: a.plan ?? '',
        step: a.step ?? 0,
        event: a.event ?? 'start',
        evidence: a.evidence,
        note: a.note,
        reason: a.reason,
        regenerate: a.regenerate,
        turn: a.turn,
      });
    },
  }),
  operationTool({
    name: 'actions_update',
    title: 'Update an action',
    commands: ['actions move', 'actions retype', 'actions update'],
    preset: 'all',
    description: "move: to a status (evidence, meta); retype: the type it asked for, once merged; update: change its fields.",
    shape: (z) => ({
      expected_version: expectedVersion(z),
      action: z.enum(['move', 'retype', 'update']),
      id: z.string(),
      status: z.string().optional().describe('move'),
      evidence: z.array(z.string()).optional(),
      meta: z.record(z.string(), z.string()).optional(),
      title: z.string().optional(),
      description: z.string().optional(),
      priority: z.number().min(0).optional(),
      effort: z.number().positive().optional(),
      due: z.string().optional(),
      goal: z.string().optional(),
      blocking: z.boolean().optional(),
    }),
    // A missing status is refused by name before anything runs.
    command: (a) => (a.action === 'move' && need(a, 'status') !== undefined ? 'actions move' : `actions ${a.action}`),
    operation: async (ctx, a) => {
      const { goalsOperations } = await import('@ratchet/cli');
      if (a.action === 'update') {
        const { title, description, priority, effort, due, goal, blocking } = a;
        return goalsOperations.updateAction(ctx, { expectedVersion: a.expected_version, id: a.id, title, description, priority, effort, due, goal, blocking });
      }
      return goalsOperations.changeAction(ctx, { change: a.action, expectedVersion: a.expected_version, id: a.id, status: a.status, evidence: a.evidence, meta: a.meta });
    },
  }),
];
