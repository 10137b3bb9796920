/** Campaigns: a task DAG for parallel builders (`ratchet campaign`). */
import { cmd } from '../argv.js';
import type { ToolSpec } from '../tool-spec.js';

export const campaignTools: ToolSpec[] = [
  {
    name: 'campaign_ready',
    preset: 'core',
    description: 'Campaign tasks ready to start; with claim, atomically take the first for that runner.',
    shape: (z) => ({ claim: z.string().optional().describe('runner id'), lease: z.string().optional().describe('with claim: expires unless renewed (15m)') }),
    argv: (a) => cmd('campaign', 'ready').opt('--claim', a.claim).opt('--lease', a.lease),
  },
  {
    name: 'campaign_heartbeat',
    preset: 'standard',
    description: 'Renew the leased campaign claims of a runner.',
    shape: (z) => ({ runner: z.string(), lease: z.string().optional() }),
    argv: (a) => cmd('campaign', 'heartbeat').opt('--lease', a.lease).arg(a.runner),
  },
  {
    name: 'campaign_update_task',
    preset: 'core',
    description: "Change a campaign task's status (legal moves only).",
    shape: (z) => ({ seq: z.string(), status: z.enum(['pending', 'in_progress', 'complete', 'blocked']), reason: z.string().optional(), runner: z.string().optional() }),
    argv: (a) => cmd('campaign', 'update-task').opt('--reason', a.reason).opt('--runner', a.runner).arg(a.seq).arg(a.status),
  },
  {
    name: 'campaign_create',
    preset: 'all',
    description: 'Start a campaign with an objective.',
    shape: (z) => ({ objective: z.string(), framework: z.string().optional() }),
    argv: (a) => cmd('campaign', 'create').opt('--framework', a.framework).arg(a.objective),
  },
  {
    name: 'campaign_add_tasks',
    paths: ['file'],
    preset: 'all',
    description: 'Add the tasks of a plan.json (a file path, or the plan object itself).',
    shape: (z) => ({ file: z.string().optional(), plan: z.record(z.string(), z.unknown()).optional() }),
    argv: (a) => cmd('campaign', 'add-tasks').arg(a.plan === undefined ? a.file : '-'),
    stdin: (a) => (a.plan === undefined ? undefined : JSON.stringify(a.plan)),
  },
  {
    name: 'campaign_status',
    preset: 'all',
    description: 'Objective, counts and every task with status and runner.',
    shape: () => ({}),
    argv: () => cmd('campaign', 'status'),
  },
  {
    name: 'campaign_cascade_status',
    preset: 'all',
    description: 'Campaign state with ready, blocked and unreachable tasks.',
    shape: () => ({}),
    argv: () => cmd('campaign', 'cascade-status'),
  },
  {
    name: 'campaign_waves',
    preset: 'all',
    description: 'Parallel layers of the task graph.',
    shape: () => ({}),
    argv: () => cmd('campaign', 'waves'),
  },
  {
    name: 'campaign_propagate_blocks',
    preset: 'all',
    description: 'Block every task below a blocked one.',
    shape: () => ({}),
    argv: () => cmd('campaign', 'propagate-blocks'),
  },
];
