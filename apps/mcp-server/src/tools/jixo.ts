/** JIXO job/log files with an inter-process lock (`ratchet jixo`). */
import { cmd, need } from '../argv.js';
import type { ToolSpec } from '../tool-spec.js';

export const jixoTools: ToolSpec[] = [
  {
    name: 'jixo_check',
    title: 'Check a JIXO file',
    commands: ['jixo check'],
    paths: ['file'],
    preset: 'standard',
    description: 'Parse a *.log.md or *.job.md file and report every problem.',
    shape: (z) => ({ file: z.string() }),
    argv: (a) => cmd('jixo', 'check').arg(a.file),
    findings: true,
  },
  {
    name: 'jixo_triage',
    title: 'JIXO triage',
    commands: ['jixo triage'],
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
    title: 'Lock a JIXO log',
    commands: ['jixo lock'],
    paths: ['log'],
    preset: 'standard',
    description: 'Take the log lock for your runner and return the fresh content.',
    shape: (z) => ({ log: z.string(), runner: z.string(), timeout_ms: z.number().int().positive().optional() }),
    argv: (a) => cmd('jixo', 'lock').opt('--runner', a.runner).opt('--timeout', a.timeout_ms).arg(a.log),
  },
  {
    name: 'jixo_unlock',
    title: 'Unlock a JIXO log',
    commands: ['jixo unlock'],
    paths: ['log'],
    preset: 'standard',
    description: 'Release the log lock your runner holds.',
    shape: (z) => ({ log: z.string(), runner: z.string() }),
    argv: (a) => cmd('jixo', 'unlock').opt('--runner', a.runner).arg(a.log),
  },
  {
    name: 'jixo_task_list',
    title: 'JIXO roadmap',
    commands: ['jixo task list'],
    paths: ['log'],
    preset: 'all',
    description: 'Roadmap tasks with status and runner.',
    shape: (z) => ({ log: z.string() }),
    argv: (a) => cmd('jixo', 'task', 'list').arg(a.log),
  },
  {
    name: 'jixo_task_lock',
    title: 'Lock a JIXO task',
    commands: ['jixo task lock'],
    paths: ['log'],
    preset: 'all',
    description: 'Lock one pending roadmap task for your runner.',
    shape: (z) => ({ log: z.string(), id: z.string(), runner: z.string() }),
    argv: (a) => cmd('jixo', 'task', 'lock').opt('--runner', a.runner).arg(a.log).arg(a.id),
  },
  {
    name: 'jixo_task_finish',
    title: 'Finish a JIXO task',
    commands: ['jixo task complete', 'jixo task fail', 'jixo task pause'],
    paths: ['log'],
    preset: 'all',
    description: 'Complete, fail or pause your locked task with its Work Log entry.',
    shape: (z) => ({ log: z.string(), id: z.string(), runner: z.string(), outcome: z.enum(['complete', 'fail', 'pause']), summary: z.string() }),
    argv: (a) => cmd('jixo', 'task', String(a.outcome)).opt('--runner', a.runner).opt('--summary', a.summary).arg(a.log).arg(a.id),
  },
  {
    name: 'jixo_task_add',
    title: 'Add a JIXO task',
    commands: ['jixo task add'],
    paths: ['log'],
    preset: 'all',
    description: 'Planner: add a Pending task, or a phase, to the roadmap.',
    shape: (z) => ({
      log: z.string(),
      runner: z.string(),
      title: z.string(),
      id: z.string().optional().describe('e.g. 1.2'),
      parent: z.string().optional(),
      depends_on: z.array(z.string()).optional(),
      phase: z.boolean().optional(),
    }),
    argv: (a) =>
      cmd('jixo', 'task', 'add')
        .opt('--runner', a.runner)
        .opt('--title', a.title)
        .opt('--id', a.id)
        .opt('--parent', a.parent)
        .opt('--depends-on', Array.isArray(a.depends_on) ? a.depends_on.join(',') : undefined)
        .flag('--phase', a.phase)
        .arg(a.log),
  },
  {
    name: 'jixo_task_edit',
    title: 'Edit the JIXO roadmap',
    commands: ['jixo task unblock', 'jixo task edit', 'jixo task depends', 'jixo task remove', 'jixo task retry', 'jixo task cancel', 'jixo title'],
    paths: ['log'],
    preset: 'all',
    description: 'Planner: unblock (summary), edit (title), depends (on), remove, retry or cancel (summary) a task; title: set the log title.',
    shape: (z) => ({
      log: z.string(),
      runner: z.string(),
      action: z.enum(['unblock', 'edit', 'depends', 'remove', 'retry', 'cancel', 'title']),
      id: z.string().optional().describe('every action but title'),
      title: z.string().optional(),
      summary: z.string().optional(),
      on: z.array(z.string()).optional().describe('depends: the new dependencies ([] clears)'),
    }),
    argv: (a) => {
      if (a.action === 'title') return cmd('jixo', 'title').opt('--runner', a.runner).arg(a.log).arg(need(a, 'title'));
      return cmd('jixo', 'task', String(a.action))
        .opt('--runner', a.runner)
        .opt('--title', a.action === 'edit' ? need(a, 'title') : undefined)
        .opt('--summary', a.action === 'unblock' || a.action === 'cancel' ? a.summary : undefined)
        .opt('--on', a.action === 'depends' ? (need(a, 'on') as string[]).join(',') : undefined)
        .arg(a.log)
        .arg(need(a, 'id'));
    },
    destructive: true,
  },
  {
    name: 'jixo_log_add',
    title: 'Planner Work Log entry',
    commands: ['jixo log add'],
    paths: ['log'],
    preset: 'all',
    description: "The Planner's Work Log entry for its round (ends the round).",
    shape: (z) => ({
      log: z.string(),
      runner: z.string(),
      objective: z.string(),
      summary: z.string(),
      result: z.enum(['Succeeded', 'Failed', 'Pending', 'Cancelled']).optional(),
      job: z.string().optional().describe('job name in the heading'),
    }),
    argv: (a) => cmd('jixo', 'log', 'add').opt('--runner', a.runner).opt('--objective', a.objective).opt('--summary', a.summary).opt('--result', a.result).opt('--job', a.job).arg(a.log),
  },
  {
    name: 'jixo_exit',
    title: 'Exit the JIXO job',
    commands: ['jixo exit'],
    paths: ['log'],
    preset: 'all',
    description: 'Record the exit: 0 job done (when triage decides it), 1 error (elected Planner), 2 standby.',
    shape: (z) => ({ log: z.string(), runner: z.string(), code: z.enum(['0', '1', '2']), reason: z.string() }),
    argv: (a) => cmd('jixo', 'exit').opt('--runner', a.runner).opt('--code', a.code).opt('--reason', a.reason).arg(a.log),
  },
  {
    name: 'jixo_clarify',
    title: 'Ask for clarification',
    commands: ['jixo clarify add'],
    paths: ['job'],
    preset: 'all',
    description: 'Append a Clarification Request to the job file (needs a default plan in the log).',
    shape: (z) => ({ job: z.string(), id: z.string(), question: z.string() }),
    argv: (a) => cmd('jixo', 'clarify', 'add').opt('--id', a.id).opt('--question', a.question).arg(a.job),
  },
];
