/** Campaigns: a task DAG for parallel builders (`ratchet campaign`). */
import { operationTool, type ToolSpec } from '../tool-spec.js';

// The CLI's typed operations (src/operations/campaign.ts), loaded on the first call.
const ops = async () => (await import('@ratchet/cli')).campaignOperations;

export const campaignTools: ToolSpec[] = [
  operationTool({
    name: 'campaign_ready',
    title: 'Ready campaign tasks',
    commands: ['campaign ready'],
    preset: 'core',
    description: 'Campaign tasks ready to start; with claim, atomically take the first for that runner.',
    shape: (z) => ({ claim: z.string().optional().describe('runner id'), lease: z.string().optional().describe('with claim: expires unless renewed (15m)') }),
    operation: async (ctx, a) => (await ops()).ready(ctx, { claim: a.claim, lease: a.lease }),
    output: 'campaign-ready.v1',
  }),
  operationTool({
    name: 'campaign_heartbeat',
    title: 'Renew claims',
    commands: ['campaign heartbeat'],
    preset: 'standard',
    description: 'Renew the leased campaign claims of a runner.',
    shape: (z) => ({ runner: z.string(), lease: z.string().optional() }),
    operation: async (ctx, a) => (await ops()).heartbeat(ctx, { runner: a.runner, lease: a.lease }),
    idempotent: true,
  }),
  operationTool({
    name: 'campaign_update_task',
    title: 'Update a campaign task',
    commands: ['campaign update-task'],
    preset: 'core',
    description: "Change a campaign task's status (legal moves only).",
    shape: (z) => ({ seq: z.string(), status: z.enum(['pending', 'in_progress', 'complete', 'blocked']), reason: z.string().optional(), runner: z.string().optional() }),
    // No asUser: the MCP channel is the agent's, which never overrides a claim.
    operation: async (ctx, a) => (await ops()).updateTask(ctx, { seq: a.seq, status: a.status, reason: a.reason, runner: a.runner }),
  }),
  operationTool({
    name: 'campaign_create',
    title: 'Create a campaign',
    commands: ['campaign create'],
    preset: 'all',
    description: 'Start a campaign with an objective.',
    shape: (z) => ({ objective: z.string(), framework: z.string().optional() }),
    operation: async (ctx, a) => (await ops()).create(ctx, { objective: a.objective, framework: a.framework }),
  }),
  operationTool({
    name: 'campaign_add_tasks',
    title: 'Add campaign tasks',
    commands: ['campaign add-tasks'],
    paths: ['file'],
    preset: 'all',
    description: 'Add the tasks of a plan.json (a file path, or the plan object itself).',
    shape: (z) => ({ file: z.string().optional(), plan: z.record(z.string(), z.unknown()).optional() }),
    // The plan object is read as the CLI reads a piped plan (size limit, `__proto__` refused, <stdin>).
    // Otherwise the file as the CLI reads its argument: none, or "-", is standard input, which the
    // MCP channel does not have (refused, naming why).
    operation: async (ctx, a) => {
      const cli = await import('@ratchet/cli');
      return cli.campaignOperations.addTasks(ctx, { plan: a.plan !== undefined ? { value: a.plan } : cli.campaignPlanSource(a.file) });
    },
  }),
  operationTool({
    name: 'campaign_status',
    title: 'Campaign status',
    commands: ['campaign status'],
    preset: 'all',
    description: 'Objective, counts and every task with status and runner.',
    shape: () => ({}),
    operation: async (ctx) => (await ops()).status(ctx, {}),
    output: 'campaign-status.v1',
  }),
  operationTool({
    name: 'campaign_cascade_status',
    title: 'Campaign cascade',
    commands: ['campaign cascade-status'],
    preset: 'all',
    description: 'Campaign state with ready, blocked and unreachable tasks.',
    shape: () => ({}),
    operation: async (ctx) => (await ops()).cascadeStatus(ctx, {}),
  }),
  operationTool({
    name: 'campaign_waves',
    title: 'Campaign waves',
    commands: ['campaign waves'],
    preset: 'all',
    description: 'Parallel layers of the task graph.',
    shape: () => ({}),
    operation: async (ctx) => (await ops()).waves(ctx, {}),
  }),
  operationTool({
    name: 'campaign_propagate_blocks',
    title: 'Propagate blocks',
    commands: ['campaign propagate-blocks'],
    preset: 'all',
    description: 'Block every task below a blocked one.',
    shape: () => ({}),
    operation: async (ctx) => (await ops()).propagateBlocks(ctx, {}),
  }),
  operationTool({
    name: 'campaign_phase',
    title: 'Campaign phase',
    commands: ['campaign phase'],
    preset: 'all',
    description: "The campaign's phase and log; event explored moves EXPLORE to PLAN.",
    shape: (z) => ({ event: z.enum(['explored']).optional(), reason: z.string().optional() }),
    operation: async (ctx, a) => (await ops()).phase(ctx, { event: a.event, reason: a.reason }),
  }),
  operationTool({
    name: 'campaign_complete',
    title: 'Complete the campaign',
    commands: ['campaign complete'],
    paths: ['workspace_dir'],
    preset: 'all',
    description: 'Archive the campaign (phase OBSERVE: memory_observe first, or skip_observe with the reason).',
    shape: (z) => ({ force: z.boolean().optional().describe('even with tasks in progress'), skip_observe: z.string().optional(), workspace_dir: z.string().optional() }),
    operation: async (ctx, a) => (await ops()).complete(ctx, { force: a.force, skipObserve: a.skip_observe, workspaceDir: a.workspace_dir }),
  }),
];
