/** Failure and pattern memory (`ratchet memory`). */
import { operationTool, type ToolSpec, type Zod } from '../tool-spec.js';

const file = (z: Zod) => z.string().optional();

export const memoryTools: ToolSpec[] = [
  operationTool({
    name: 'memory_query',
    title: 'Query memory',
    commands: ['memory query'],
    preset: 'core',
    description: 'Remembered failures and patterns relevant to a topic or error, best first.',
    shape: (z) => ({
      topic: z.string(),
      failures: z.number().int().min(0).optional(),
      patterns: z.number().int().min(0).optional(),
      tag: z.array(z.string()).optional(),
    }),
    // The CLI's typed operation (src/operations/memory.ts), loaded on the first call.
    operation: async (ctx, a) => (await import('@ratchet/cli')).memoryOperations.query(ctx, { topic: a.topic, failures: a.failures, patterns: a.patterns, tags: a.tag }),
    output: 'memory-query.v1',
  }),
  operationTool({
    name: 'memory_add_failure',
    title: 'Remember a failure',
    commands: ['memory add-failure'],
    paths: ['file'],
    preset: 'all',
    description: 'Remember a failure and how to avoid it.',
    shape: (z) => ({ trigger: z.string(), fix: z.string(), cost: z.number().int(), name: z.string().optional(), match: z.string().optional(), tag: z.array(z.string()).optional(), file: file(z) }),
    operation: async (ctx, a) =>
      (await import('@ratchet/cli')).memoryOperations.addFailure(ctx, { trigger: a.trigger, fix: a.fix, cost: a.cost, name: a.name, match: a.match, tags: a.tag, file: a.file }),
  }),
  operationTool({
    name: 'memory_add_pattern',
    title: 'Remember a pattern',
    commands: ['memory add-pattern'],
    paths: ['file'],
    preset: 'all',
    description: 'Remember something that worked.',
    shape: (z) => ({ trigger: z.string(), insight: z.string(), saved: z.number().int(), name: z.string().optional(), tag: z.array(z.string()).optional(), file: file(z) }),
    operation: async (ctx, a) =>
      (await import('@ratchet/cli')).memoryOperations.addPattern(ctx, { trigger: a.trigger, insight: a.insight, saved: a.saved, name: a.name, tags: a.tag, file: a.file }),
  }),
  operationTool({
    name: 'memory_feedback',
    title: 'Memory feedback',
    commands: ['memory feedback'],
    paths: ['file'],
    preset: 'all',
    description: 'Report whether a remembered entry helped.',
    shape: (z) => ({ name: z.string(), helped: z.boolean(), file: file(z) }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).memoryOperations.feedback(ctx, { name: a.name, outcome: a.helped ? 'helped' : 'failed', file: a.file }),
  }),
  operationTool({
    name: 'memory_stats',
    title: 'Memory stats',
    commands: ['memory stats'],
    paths: ['file'],
    preset: 'all',
    description: 'Memory counts, caps, feedback and the most important entries.',
    shape: (z) => ({ file: file(z) }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).memoryOperations.stats(ctx, { file: a.file }),
  }),
  operationTool({
    name: 'memory_link',
    title: 'Link memory entries',
    commands: ['memory link'],
    paths: ['file'],
    preset: 'all',
    description: 'Relate two memory entries with a typed edge.',
    shape: (z) => ({
      from: z.string(),
      to: z.string(),
      type: z.enum(['co_occurs', 'causes', 'caused_by', 'solves', 'solved_by', 'prerequisite', 'requires', 'variant']),
      file: file(z),
    }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).memoryOperations.link(ctx, { from: a.from, to: a.to, type: a.type, file: a.file }),
    idempotent: true,
  }),
  operationTool({
    name: 'memory_prune',
    title: 'Prune memory',
    commands: ['memory prune'],
    paths: ['file'],
    preset: 'all',
    description: 'Forget entries below an importance threshold and enforce the caps (dry_run: list them).',
    shape: (z) => ({ min_importance: z.number().min(0).optional(), dry_run: z.boolean().optional(), file: file(z) }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).memoryOperations.prune(ctx, { minImportance: a.min_importance, dryRun: a.dry_run, file: a.file }),
    destructive: true,
  }),
  operationTool({
    name: 'memory_observe',
    title: 'Learn from a campaign',
    commands: ['memory observe'],
    paths: ['file', 'workspace_dir'],
    preset: 'all',
    description: "Learn from a campaign's finished workspaces (blocked: failures, completed: patterns).",
    shape: (z) => ({
      campaign: z.string().optional().describe('archived campaign id (default: active)'),
      verify: z.boolean().optional().describe("re-run a blocked workspace's verify first"),
      timeout_ms: z.number().int().positive().optional(),
      workspace_dir: z.string().optional(),
      file: file(z),
    }),
    operation: async (ctx, a) =>
      (await import('@ratchet/cli')).memoryOperations.observe(ctx, { campaign: a.campaign, verify: a.verify, timeoutMs: a.timeout_ms, workspaceDir: a.workspace_dir, file: a.file }),
    // verify runs the workspace's own commands.
    openWorld: true,
  }),
];
