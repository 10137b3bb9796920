/** Plans checked before they run (`ratchet plan`). */
import { cmd } from '../argv.js';
import type { ToolSpec } from '../tool-spec.js';

export const planTools: ToolSpec[] = [
  {
    name: 'plan_lint',
    paths: ['plan', 'dialect', 'fsm', 'registry'],
    preset: 'core',
    description: 'Lint a plan and its sub-plans; findings with file:line.',
    shape: (z) => ({ plan: z.string(), dialect: z.string().optional(), fsm: z.string().optional(), registry: z.string().optional() }),
    argv: (a) => cmd('plan', 'lint').opt('--dialect', a.dialect).opt('--fsm', a.fsm).opt('--registry', a.registry).arg(a.plan),
    findings: true,
  },
  {
    name: 'plan_analyze',
    paths: ['plan', 'dialect', 'registry'],
    preset: 'all',
    description: 'Complexity class and modality of a plan.',
    shape: (z) => ({ plan: z.string(), dialect: z.string().optional(), registry: z.string().optional() }),
    argv: (a) => cmd('plan', 'analyze').opt('--dialect', a.dialect).opt('--registry', a.registry).arg(a.plan),
  },
];
