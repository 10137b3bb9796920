/** The protocols the agent works under (`ratchet protocol`). */
import { cmd, need } from '../argv.js';
import type { ToolSpec } from '../tool-spec.js';

export const protocolTools: ToolSpec[] = [
  {
    name: 'protocol_compile',
    title: 'Compile protocols',
    commands: ['protocol compile'],
    paths: ['protocols', 'out'],
    preset: 'all',
    description: 'Render the protocols into AGENTS.md (or the targets); check: only report stale targets.',
    shape: (z) => ({ protocols: z.string().optional(), out: z.array(z.string()).optional(), check: z.boolean().optional() }),
    argv: (a) => cmd('protocol', 'compile').opt('--protocols', a.protocols).opt('--out', a.out).flag('--check', a.check),
    // --check exits 1 when a target is stale: the answer, not a refusal.
    findings: true,
    idempotent: true,
  },
  {
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
    argv: (a) =>
      cmd('protocol', 'update', String(a.action))
        .opt('--protocols', a.protocols)
        .flag('--dry-run', a.dry_run)
        .arg(a.protocol_id)
        .arg(need(a, a.action === 'update-rule' ? 'rule_id' : 'tool'))
        .arg(a.action === 'update-rule' ? need(a, 'description') : undefined),
    destructive: true,
  },
];
