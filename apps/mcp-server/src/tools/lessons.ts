/** The self-correction loop (`ratchet lessons`). */
import { cmd } from '../argv.js';
import type { ToolSpec } from '../tool-spec.js';

export const lessonsTools: ToolSpec[] = [
  {
    name: 'lessons_extract',
    title: 'Extract lessons',
    commands: ['lessons extract'],
    paths: ['postmortem'],
    // task_submit needs the post-mortem's lessons extracted: core carries a whole task.
    preset: 'core',
    description: "Read a post-mortem's lessons into lessons.jsonl.",
    shape: (z) => ({ postmortem: z.string(), task: z.string().optional() }),
    argv: (a) => cmd('lessons', 'extract').opt('--task', a.task).arg(a.postmortem),
  },
  {
    name: 'lessons_apply',
    title: 'Apply lessons',
    commands: ['lessons apply'],
    // A lesson that changes a protocol must be applied before task_submit: core carries any task.
    preset: 'core',
    description: 'Apply pending lessons to the protocols and recompile.',
    shape: (z) => ({ dry_run: z.boolean().optional(), id: z.array(z.string()).optional(), retry_failed: z.boolean().optional() }),
    argv: (a) => cmd('lessons', 'apply').flag('--dry-run', a.dry_run).opt('--id', a.id).flag('--retry-failed', a.retry_failed),
  },
  {
    name: 'lessons_list',
    title: 'List lessons',
    commands: ['lessons list'],
    preset: 'standard',
    description: 'Lessons with their status.',
    shape: (z) => ({ status: z.enum(['pending', 'applied', 'failed', 'manual', 'resolved']).optional() }),
    argv: (a) => cmd('lessons', 'list').opt('--status', a.status),
  },
];
