/** Goals, pending actions and the turn cycle (`ratchet turn|actions|goals`). */
import type { OwnerName } from '@ratchet/cli';
import { cmd, need } from '../argv.js';
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
  {
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
    argv: () => cmd('turn', 'commit').arg('-'),
    stdin: (a) => JSON.stringify(a.commit),
    idempotent: true,
  },
  {
    name: 'actions_list',
    title: 'List actions',
    commands: ['actions list'],
    preset: 'standard',
    description: 'Pending actions in assessment order.',
    shape: (z) => ({ all: z.boolean().optional(), owner: z.enum(['agent', 'user']).optional() }),
    argv: (a) => cmd('actions', 'list').flag('--all', a.all).opt('--owner', a.owner),
  },
  {
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
    argv: (a) =>
      cmd('actions', 'add').opt('--priority', a.priority).opt('--effort', a.effort).opt('--due', a.due).opt('--goal', a.goal).flag('--blocking', a.blocking).arg(a.type).arg(a.title),
  },
  {
    name: 'actions_complete',
    title: 'Complete an action',
    commands: ['actions complete'],
    preset: 'all',
    description: 'Complete an action, with evidence.',
    shape: (z) => ({ id: z.string(), evidence: z.array(z.string()).optional() }),
    argv: (a) => cmd('actions', 'complete').opt('--evidence', a.evidence).arg(a.id),
  },
  {
    name: 'goals_list',
    title: 'List goals',
    commands: ['goals list'],
    preset: 'all',
    description: 'Goals, highest priority first.',
    shape: (z) => ({ all: z.boolean().optional() }),
    argv: (a) => cmd('goals', 'list').flag('--all', a.all),
  },
  {
    name: 'goals_progress',
    title: 'Goal progress',
    commands: ['goals progress'],
    preset: 'all',
    description: 'Set or add progress (0 to 1) on a goal.',
    shape: (z) => ({ id: z.string(), set: z.number().min(0).max(1).optional(), delta: z.number().optional(), evidence: z.array(z.string()).optional() }),
    argv: (a) => cmd('goals', 'progress').opt('--set', a.set).opt('--delta', a.delta).opt('--evidence', a.evidence).arg(a.id),
  },
  {
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
    argv: (a) =>
      cmd('goals', 'add').opt('--expected-version', a.expected_version)
        .opt('--id', a.id)
        .opt('--priority', a.priority)
        .opt('--description', a.description)
        .opt('--parent', a.parent)
        .opt('--horizon-days', a.horizon_days)
        .opt('--horizon-steps', a.horizon_steps)
        .pairs('--metric', a.metric)
        .opt('--constraint', a.constraint)
        .opt('--status', a.status)
        .arg(a.title),
  },
  {
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
    argv: (a) =>
      a.action === 'start'
        ? cmd('goals', 'plan', 'start').opt('--expected-version', a.expected_version).opt('--id', a.id).opt('--goal', a.goal).opt('--turn', a.turn).arg(a.text === undefined ? need(a, 'file') : '-')
        : cmd('goals', 'plan', 'step').opt('--expected-version', a.expected_version)
            .opt('--evidence', a.evidence)
            .opt('--note', a.note)
            .opt('--reason', a.reason)
            .flag('--regenerate', a.regenerate)
            .opt('--turn', a.turn)
            .arg(need(a, 'plan'))
            .arg(need(a, 'step'))
            .arg(need(a, 'event')),
    stdin: (a) => (a.action === 'start' && typeof a.text === 'string' ? a.text : undefined),
  },
  {
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
    argv: (a) => {
      if (a.action === 'move') return cmd('actions', 'move').opt('--expected-version', a.expected_version).opt('--evidence', a.evidence).pairs('--meta', a.meta).arg(a.id).arg(need(a, 'status'));
      if (a.action === 'retype') return cmd('actions', 'retype').opt('--expected-version', a.expected_version).arg(a.id);
      return cmd('actions', 'update').opt('--expected-version', a.expected_version)
        .opt('--title', a.title)
        .opt('--description', a.description)
        .opt('--priority', a.priority)
        .opt('--effort', a.effort)
        .opt('--due', a.due)
        .opt('--goal', a.goal)
        .toggle('blocking', a.blocking)
        .arg(a.id);
    },
  },
];
