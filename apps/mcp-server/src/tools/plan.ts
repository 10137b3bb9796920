/** Plans checked before they run (`ratchet plan`). */
import { operationTool, type ToolSpec } from '../tool-spec.js';

export const planTools: ToolSpec[] = [
  operationTool({
    name: 'plan_lint',
    title: 'Lint a plan',
    commands: ['plan lint'],
    paths: ['plan', 'dialect', 'fsm', 'registry'],
    preset: 'core',
    description: 'Lint a plan and its sub-plans; findings with file:line.',
    shape: (z) => ({ plan: z.string(), dialect: z.string().optional(), fsm: z.string().optional(), registry: z.string().optional() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).planOperations.lint(ctx, { plan: a.plan, dialect: a.dialect, fsm: a.fsm, registry: a.registry }),
    findings: true,
    output: 'plan-lint.v1',
  }),
  operationTool({
    name: 'plan_analyze',
    title: 'Analyze a plan',
    commands: ['plan analyze'],
    paths: ['plan', 'dialect', 'registry'],
    preset: 'all',
    description: 'Complexity class and modality of a plan.',
    shape: (z) => ({ plan: z.string(), dialect: z.string().optional(), registry: z.string().optional() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).planOperations.analyze(ctx, { plan: a.plan, dialect: a.dialect, registry: a.registry }),
  }),
  operationTool({
    name: 'plan_registry_register',
    title: 'Register a plan',
    commands: ['plan registry register'],
    paths: ['path', 'registry'],
    preset: 'all',
    description: 'Register a plan file under a name for call_plan (force replaces one of that name).',
    shape: (z) => ({ name: z.string(), path: z.string(), force: z.boolean().optional(), registry: z.string().optional() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).planOperations.register(ctx, { name: a.name, path: a.path, force: a.force, registry: a.registry }),
    idempotent: true,
  }),
  operationTool({
    name: 'plan_registry_deregister',
    title: 'Deregister a plan',
    commands: ['plan registry deregister'],
    paths: ['registry'],
    preset: 'all',
    description: 'Remove a plan name from the registry.',
    shape: (z) => ({ name: z.string(), registry: z.string().optional() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).planOperations.deregister(ctx, { name: a.name, registry: a.registry }),
    destructive: true,
  }),
];
