/** Goals, pending actions and the turn cycle (`ratchet turn|actions|goals`). */
import { cmd } from '../argv.js';
import type { ToolSpec } from '../tool-spec.js';

export const goalsTools: ToolSpec[] = [
  {
    name: 'turn_assess',
    preset: 'standard',
    description: 'Turn start: top goals, pending actions and questions.',
    shape: (z) => ({ limit: z.number().int().positive().optional(), query: z.string().optional(), owner: z.enum(['agent', 'user']).optional() }),
    argv: (a) => cmd('turn', 'assess').opt('--limit', a.limit).opt('--query', a.query).opt('--owner', a.owner),
  },
  {
    name: 'turn_commit',
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
  },
  {
    name: 'actions_list',
    preset: 'standard',
    description: 'Pending actions in assessment order.',
    shape: (z) => ({ all: z.boolean().optional(), owner: z.enum(['agent', 'user']).optional() }),
    argv: (a) => cmd('actions', 'list').flag('--all', a.all).opt('--owner', a.owner),
  },
  {
    name: 'actions_add',
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
    preset: 'all',
    description: 'Complete an action, with evidence.',
    shape: (z) => ({ id: z.string(), evidence: z.array(z.string()).optional() }),
    argv: (a) => cmd('actions', 'complete').opt('--evidence', a.evidence).arg(a.id),
  },
  {
    name: 'goals_list',
    preset: 'all',
    description: 'Goals, highest priority first.',
    shape: (z) => ({ all: z.boolean().optional() }),
    argv: (a) => cmd('goals', 'list').flag('--all', a.all),
  },
  {
    name: 'goals_progress',
    preset: 'all',
    description: 'Set or add progress (0 to 1) on a goal.',
    shape: (z) => ({ id: z.string(), set: z.number().min(0).max(1).optional(), delta: z.number().optional(), evidence: z.array(z.string()).optional() }),
    argv: (a) => cmd('goals', 'progress').opt('--set', a.set).opt('--delta', a.delta).opt('--evidence', a.evidence).arg(a.id),
  },
];
