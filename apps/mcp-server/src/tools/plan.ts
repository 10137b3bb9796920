/** Plans checked before they run (`ratchet plan`). */
import { cmd } from '../argv.js';
import type { ToolSpec } from '../tool-spec.js';

export const planTools: ToolSpec[] = [
  {
    name: 'plan_lint',
    title: 'Lint a plan',
    commands: ['plan lint'],
    paths: ['plan', 'dialect', 'fsm', 'registry'],
    preset: 'core',
    description: 'Lint a plan and its sub-plans; findings with file:line.',
    shape: (z) => ({ plan: z.string(), dialect: z.string().optional(), fsm: z.string().optional(), registry: z.string().optional() }),
    argv: (a) => cmd('plan', 'lint').opt('--dialect', a.dialect).opt('--fsm', a.fsm).opt('--registry', a.registry).arg(a.plan),
    findings: true,
    output: 'plan-lint.v1',
  },
  {
    name: 'plan_analyze',
    title: 'Analyze a plan',
    commands: ['plan analyze'],
    paths: ['plan', 'dialect', 'registry'],
    preset: 'all',
    description: 'Complexity class and modality of a plan.',
    shape: (z) => ({ plan: z.string(), dialect: z.string().optional(), registry: z.string().optional() }),
    argv: (a) => cmd('plan', 'analyze').opt('--dialect', a.dialect).opt('--registry', a.registry).arg(a.plan),
  },
  {
    name: 'plan_registry_register',
    title: 'Register a plan',
    commands: ['plan registry register'],
    paths: ['path', 'registry'],
    preset: 'all',
    description: 'Register a plan file under a name for call_plan (force replaces one of that name).',
    shape: (z) => ({ name: z.string(), path: z.string(), force: z.boolean().optional(), registry: z.string().optional() }),
    argv: (a) => cmd('plan', 'registry', 'register').flag('--force', a.force).opt('--registry', a.registry).arg(a.name).arg(a.path),
    idempotent: true,
  },
  {
    name: 'plan_registry_deregister',
    title: 'Deregister a plan',
    commands: ['plan registry deregister'],
    paths: ['registry'],
    preset: 'all',
    description: 'Remove a plan name from the registry.',
    shape: (z) => ({ name: z.string(), registry: z.string().optional() }),
    argv: (a) => cmd('plan', 'registry', 'deregister').opt('--registry', a.registry).arg(a.name),
    destructive: true,
  },
];
