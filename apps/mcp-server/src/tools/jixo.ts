/** JIXO job/log files with an inter-process lock (`ratchet jixo`). */
import { cmd } from '../argv.js';
import type { ToolSpec } from '../tool-spec.js';

export const jixoTools: ToolSpec[] = [
  {
    name: 'jixo_check',
    paths: ['file'],
    preset: 'standard',
    description: 'Parse a *.log.md or *.job.md file and report every problem.',
    shape: (z) => ({ file: z.string() }),
    argv: (a) => cmd('jixo', 'check').arg(a.file),
    findings: true,
  },
  {
    name: 'jixo_triage',
    paths: ['job', 'log'],
    preset: 'standard',
    description: 'Protocol 0: release stale locks, then your role and objective.',
    shape: (z) => ({ job: z.string(), runner: z.string(), active: z.array(z.string()).optional(), log: z.string().optional(), dry_run: z.boolean().optional() }),
    argv: (a) =>
      cmd('jixo', 'triage')
        .opt('--runner', a.runner)
        .opt('--active', Array.isArray(a.active) ? a.active.join(',') : undefined)
        .opt('--log', a.log)
        .flag('--dry-run', a.dry_run)
        .arg(a.job),
  },
  {
    name: 'jixo_lock',
    paths: ['log'],
    preset: 'standard',
    description: 'Take the log lock for your runner and return the fresh content.',
    shape: (z) => ({ log: z.string(), runner: z.string(), timeout_ms: z.number().int().positive().optional() }),
    argv: (a) => cmd('jixo', 'lock').opt('--runner', a.runner).opt('--timeout', a.timeout_ms).arg(a.log),
  },
  {
    name: 'jixo_unlock',
    paths: ['log'],
    preset: 'standard',
    description: 'Release the log lock your runner holds.',
    shape: (z) => ({ log: z.string(), runner: z.string() }),
    argv: (a) => cmd('jixo', 'unlock').opt('--runner', a.runner).arg(a.log),
  },
  {
    name: 'jixo_task_list',
    paths: ['log'],
    preset: 'all',
    description: 'Roadmap tasks with status and runner.',
    shape: (z) => ({ log: z.string() }),
    argv: (a) => cmd('jixo', 'task', 'list').arg(a.log),
  },
  {
    name: 'jixo_task_lock',
    paths: ['log'],
    preset: 'all',
    description: 'Lock one pending roadmap task for your runner.',
    shape: (z) => ({ log: z.string(), id: z.string(), runner: z.string() }),
    argv: (a) => cmd('jixo', 'task', 'lock').opt('--runner', a.runner).arg(a.log).arg(a.id),
  },
  {
    name: 'jixo_task_finish',
    paths: ['log'],
    preset: 'all',
    description: 'Complete, fail or pause your locked task with its Work Log entry.',
    shape: (z) => ({ log: z.string(), id: z.string(), runner: z.string(), outcome: z.enum(['complete', 'fail', 'pause']), summary: z.string() }),
    argv: (a) => cmd('jixo', 'task', String(a.outcome)).opt('--runner', a.runner).opt('--summary', a.summary).arg(a.log).arg(a.id),
  },
];
