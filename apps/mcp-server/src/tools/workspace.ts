/** A campaign task's working brief (`ratchet workspace`). */
import { operationTool, type ToolSpec } from '../tool-spec.js';

export const workspaceTools: ToolSpec[] = [
  operationTool({
    name: 'workspace_show',
    title: 'Show a workspace',
    commands: ['workspace show'],
    preset: 'standard',
    description: "A campaign task's workspace: objective, delta, verify, lineage, prior knowledge.",
    shape: (z) => ({ seq: z.string() }),
    // The CLI's typed operations (src/operations/workspace.ts), loaded on the first call.
    operation: async (ctx, a) => (await import('@ratchet/cli')).workspaceOperations.show(ctx, { seq: a.seq }),
  }),
  operationTool({
    name: 'workspace_list',
    title: 'List workspaces',
    commands: ['workspace list'],
    preset: 'standard',
    description: 'Workspaces of the active campaign with their status.',
    shape: () => ({}),
    operation: async (ctx) => (await import('@ratchet/cli')).workspaceOperations.list(ctx, {}),
  }),
  operationTool({
    name: 'workspace_create',
    title: 'Create a workspace',
    commands: ['workspace create'],
    preset: 'all',
    paths: ['prior_knowledge', 'workspace_dir'],
    description: 'Create the workspace of a task whose dependencies are complete (runner: who holds it).',
    shape: (z) => ({
      seq: z.string(),
      runner: z.string(),
      prior_knowledge: z.string().optional().describe('JSON file injected instead of querying memory'),
      memory: z.boolean().optional().describe('false: inject no memory entries'),
      workspace_dir: z.string().optional(),
    }),
    operation: async (ctx, a) =>
      (await import('@ratchet/cli')).workspaceOperations.create(ctx, {
        seq: a.seq,
        runner: a.runner,
        priorKnowledge: a.prior_knowledge,
        memory: a.memory === false ? false : undefined,
        workspaceDir: a.workspace_dir,
      }),
  }),
  operationTool({
    name: 'workspace_finish',
    title: 'Finish a workspace',
    commands: ['workspace complete', 'workspace block'],
    preset: 'all',
    description: 'Mark a workspace complete (what was delivered) or blocked (why).',
    paths: ['workspace_dir'],
    shape: (z) => ({
      seq: z.string(),
      runner: z.string(),
      outcome: z.enum(['complete', 'block']),
      text: z.string().describe('delivery or reason'),
      utilized: z.array(z.string()).optional().describe('prior-knowledge entries used, name:failure|pattern'),
      workspace_dir: z.string().optional(),
    }),
    // The trust boundary checks the command this call is: completing and blocking are told apart.
    command: (a) => `workspace ${a.outcome}`,
    operation: async (ctx, a) => {
      const { workspaceOperations } = await import('@ratchet/cli');
      const input = { seq: a.seq, runner: a.runner, utilized: a.utilized, workspaceDir: a.workspace_dir };
      return a.outcome === 'block' ? workspaceOperations.block(ctx, { ...input, reason: a.text }) : workspaceOperations.complete(ctx, { ...input, delivered: a.text });
    },
  }),
];
