/** The protocols the agent works under (`ratchet protocol`). */
import { requiredArg } from '../tool-args.js';
import { operationTool, type ToolSpec } from '../tool-spec.js';

export const protocolTools: ToolSpec[] = [
  operationTool({
    name: 'protocol_compile',
    title: 'Compile protocols',
    commands: ['protocol compile'],
    paths: ['protocols', 'out'],
    preset: 'all',
    description: 'Render the protocols into AGENTS.md (or the targets); check: only report stale targets.',
    shape: (z) => ({ protocols: z.string().optional(), out: z.array(z.string()).optional(), check: z.boolean().optional() }),
    // The CLI's typed operation (src/operations/protocol.ts): every --out target is confined to the project there too.
    operation: async (ctx, a) => (await import('@ratchet/cli')).protocolOperations.compile(ctx, { protocols: a.protocols, out: a.out, check: a.check }),
    // --check exits 1 when a target is stale: the answer, not a refusal.
    findings: true,
    idempotent: true,
  }),
  operationTool({
    name: 'protocol_update',
    title: 'Edit a protocol',
    commands: ['protocol update add-tool', 'protocol update update-rule', 'protocol update deprecate-tool'],
    paths: ['protocols'],
    preset: 'all',
    description: "Edit a protocol: add or deprecate an associated tool, or replace a rule's description.",
    shape: (z) => ({
      action: z.enum(['add-tool', 'update-rule', 'deprecate-tool']),
      protocol_id: z.string(),
      tool: z.string().optional().describe('add-tool, deprecate-tool'),
      rule_id: z.string().optional().describe('update-rule'),
      description: z.string().optional().describe('update-rule'),
      dry_run: z.boolean().optional(),
      protocols: z.string().optional(),
    }),
    command: (a) => `protocol update ${a.action}`,
    operation: async (ctx, a) => {
      const common = { protocolId: a.protocol_id, protocols: a.protocols, dryRun: a.dry_run };
      const { protocolOperations } = await import('@ratchet/cli');
      if (a.action === 'update-rule')
        return protocolOperations.update(ctx, { ...common, action: a.action, ruleId: await requiredArg(a, 'rule_id', a.rule_id), description: await requiredArg(a, 'description', a.description) });
      return protocolOperations.update(ctx, { ...common, action: a.action, tool: await requiredArg(a, 'tool', a.tool) });
    },
    destructive: true,
  }),
];
