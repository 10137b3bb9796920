/** Failure and pattern memory (`ratchet memory`). */
import { cmd } from '../argv.js';
import type { ToolSpec, Zod } from '../tool-spec.js';

const file = (z: Zod) => z.string().optional();

export const memoryTools: ToolSpec[] = [
  {
    name: 'memory_query',
    preset: 'core',
    description: 'Remembered failures and patterns relevant to a topic or error, best first.',
    shape: (z) => ({
      topic: z.string(),
      failures: z.number().int().min(0).optional(),
      patterns: z.number().int().min(0).optional(),
      tag: z.array(z.string()).optional(),
    }),
    argv: (a) => cmd('memory', 'query').opt('--failures', a.failures).opt('--patterns', a.patterns).opt('--tag', a.tag).arg(a.topic),
  },
  {
    name: 'memory_add_failure',
    paths: ['file'],
    preset: 'all',
    description: 'Remember a failure and how to avoid it.',
    shape: (z) => ({ trigger: z.string(), fix: z.string(), cost: z.number().int(), name: z.string().optional(), match: z.string().optional(), tag: z.array(z.string()).optional(), file: file(z) }),
    argv: (a) =>
      cmd('memory', 'add-failure').opt('--trigger', a.trigger).opt('--fix', a.fix).opt('--cost', a.cost).opt('--name', a.name).opt('--match', a.match).opt('--tag', a.tag).opt('--file', a.file),
  },
  {
    name: 'memory_add_pattern',
    paths: ['file'],
    preset: 'all',
    description: 'Remember something that worked.',
    shape: (z) => ({ trigger: z.string(), insight: z.string(), saved: z.number().int(), name: z.string().optional(), tag: z.array(z.string()).optional(), file: file(z) }),
    argv: (a) => cmd('memory', 'add-pattern').opt('--trigger', a.trigger).opt('--insight', a.insight).opt('--saved', a.saved).opt('--name', a.name).opt('--tag', a.tag).opt('--file', a.file),
  },
  {
    name: 'memory_feedback',
    paths: ['file'],
    preset: 'all',
    description: 'Report whether a remembered entry helped.',
    shape: (z) => ({ name: z.string(), helped: z.boolean(), file: file(z) }),
    argv: (a) => cmd('memory', 'feedback').flag('--helped', a.helped === true).flag('--failed', a.helped === false).opt('--file', a.file).arg(a.name),
  },
  {
    name: 'memory_stats',
    paths: ['file'],
    preset: 'all',
    description: 'Memory counts, caps, feedback and the most important entries.',
    shape: (z) => ({ file: file(z) }),
    argv: (a) => cmd('memory', 'stats').opt('--file', a.file),
  },
];
