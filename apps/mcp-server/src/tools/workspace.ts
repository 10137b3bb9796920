/** A campaign task's working brief (`ratchet workspace`). */
import { cmd } from '../argv.js';
import type { ToolSpec } from '../tool-spec.js';

export const workspaceTools: ToolSpec[] = [
  {
    name: 'workspace_show',
    preset: 'standard',
    description: "A campaign task's workspace: objective, delta, verify, lineage, prior knowledge.",
    shape: (z) => ({ seq: z.string() }),
    argv: (a) => cmd('workspace', 'show').arg(a.seq),
  },
  {
    name: 'workspace_list',
    preset: 'standard',
    description: 'Workspaces of the active campaign with their status.',
    shape: () => ({}),
    argv: () => cmd('workspace', 'list'),
  },
  {
    name: 'workspace_create',
    preset: 'all',
    description: 'Create the workspace of a task whose dependencies are complete.',
    shape: (z) => ({ seq: z.string() }),
    argv: (a) => cmd('workspace', 'create').arg(a.seq),
  },
  {
    name: 'workspace_finish',
    preset: 'all',
    description: 'Mark a workspace complete (what was delivered) or blocked (why).',
    shape: (z) => ({ seq: z.string(), outcome: z.enum(['complete', 'block']), text: z.string().describe('delivery or reason') }),
    argv: (a) => cmd('workspace', String(a.outcome)).opt(a.outcome === 'complete' ? '--delivered' : '--reason', a.text).arg(a.seq),
  },
];
