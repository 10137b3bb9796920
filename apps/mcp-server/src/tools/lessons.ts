/**
 * The self-correction loop (`ratchet lessons`): typed operations of the CLI's lessons area
 * (src/operations/lessons.ts), called with the tool's arguments as their input.
 */
import type { LESSON_STATUSES } from '@ratchet/cli';
import { operationTool, type ToolSpec } from '../tool-spec.js';

// The CLI's list, checked at compile time: the tool table loads no CLI code.
const STATUSES: typeof LESSON_STATUSES = ['pending', 'applied', 'failed', 'manual', 'resolved'];
const isoNow = (): string => new Date().toISOString();

export const lessonsTools: ToolSpec[] = [
  operationTool({
    name: 'lessons_extract',
    title: 'Extract lessons',
    commands: ['lessons extract'],
    paths: ['postmortem'],
    // task_submit needs the post-mortem's lessons extracted: core carries a whole task.
    preset: 'core',
    description: "Read a post-mortem's lessons into lessons.jsonl.",
    shape: (z) => ({ postmortem: z.string(), task: z.string().optional() }),
    operation: async (ctx, a) => {
      const { LESSONS_FILE, lessonsOperations } = await import('@ratchet/cli');
      return lessonsOperations.extract(ctx, { postmortem: a.postmortem, taskId: a.task, lessonsFile: LESSONS_FILE, now: isoNow() });
    },
  }),
  operationTool({
    name: 'lessons_apply',
    title: 'Apply lessons',
    commands: ['lessons apply'],
    // A lesson that changes a protocol must be applied before task_submit: core carries any task.
    preset: 'core',
    description: 'Apply pending lessons to the protocols and recompile.',
    shape: (z) => ({ dry_run: z.boolean().optional(), id: z.array(z.string()).optional(), retry_failed: z.boolean().optional() }),
    operation: async (ctx, a) => {
      const { LESSONS_FILE, lessonsOperations } = await import('@ratchet/cli');
      return lessonsOperations.apply(ctx, {
        lessonsFile: LESSONS_FILE,
        protocolsDir: 'protocols',
        ids: a.id,
        dryRun: a.dry_run === true,
        applyCode: false,
        retryFailed: a.retry_failed === true,
        now: isoNow,
      });
    },
  }),
  operationTool({
    name: 'lessons_list',
    title: 'List lessons',
    commands: ['lessons list'],
    preset: 'standard',
    description: 'Lessons with their status.',
    shape: (z) => ({ status: z.enum(STATUSES).optional() }),
    operation: async (ctx, a) => {
      const { LESSONS_FILE, lessonsOperations } = await import('@ratchet/cli');
      return lessonsOperations.list(ctx, { lessonsFile: LESSONS_FILE, status: a.status });
    },
  }),
];
