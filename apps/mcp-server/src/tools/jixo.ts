/**
 * JIXO job/log files with an inter-process lock (`ratchet jixo`): typed operations of the CLI's
 * JIXO area (src/operations/jixo*.ts), called with the tool's arguments as their input.
 */
import type { JIXO_PLAN_ACTIONS, JIXO_RESULTS } from '@ratchet/cli';
import { requiredFrom } from '../tool-args.js';
import { operationTool, type ToolSpec } from '../tool-spec.js';

// The CLI's lists, checked at compile time: the tool table loads no CLI code.
const PLAN_ACTIONS: typeof JIXO_PLAN_ACTIONS = ['unblock', 'edit', 'depends', 'remove', 'retry', 'cancel'];
const RESULTS: typeof JIXO_RESULTS = ['Succeeded', 'Failed', 'Pending', 'Cancelled'];

export const jixoTools: ToolSpec[] = [
  operationTool({
    name: 'jixo_check',
    title: 'Check a JIXO file',
    commands: ['jixo check'],
    paths: ['file'],
    preset: 'standard',
    description: 'Parse a *.log.md or *.job.md file and report every problem.',
    shape: (z) => ({ file: z.string() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).jixoOperations.check(ctx, { file: a.file }),
    findings: true,
  }),
  operationTool({
    name: 'jixo_triage',
    title: 'JIXO triage',
    commands: ['jixo triage'],
    paths: ['job', 'log'],
    preset: 'standard',
    description: 'Protocol 0: release stale locks, then your role and objective.',
    shape: (z) => ({ job: z.string(), runner: z.string(), active: z.array(z.string()).optional(), log: z.string().optional(), dry_run: z.boolean().optional() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).jixoOperations.triage(ctx, { job: a.job, runner: a.runner, active: a.active, log: a.log, dryRun: a.dry_run === true }),
  }),
  operationTool({
    name: 'jixo_lock',
    title: 'Lock a JIXO log',
    commands: ['jixo lock'],
    paths: ['log'],
    preset: 'standard',
    description: 'Take the log lock for your runner and return the fresh content.',
    shape: (z) => ({ log: z.string(), runner: z.string(), timeout_ms: z.number().int().positive().optional() }),
    // The operation records the lock in .ratchet/hooks/opened.json: the Stop hook holds the agent to its release.
    operation: async (ctx, a) => (await import('@ratchet/cli')).jixoOperations.lock(ctx, { log: a.log, runner: a.runner, timeoutMs: a.timeout_ms }),
  }),
  operationTool({
    name: 'jixo_unlock',
    title: 'Unlock a JIXO log',
    commands: ['jixo unlock'],
    paths: ['log'],
    preset: 'standard',
    description: 'Release the log lock your runner holds.',
    shape: (z) => ({ log: z.string(), runner: z.string() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).jixoOperations.unlock(ctx, { log: a.log, runner: a.runner }),
  }),
  operationTool({
    name: 'jixo_task_list',
    title: 'JIXO roadmap',
    commands: ['jixo task list'],
    paths: ['log'],
    preset: 'all',
    description: 'Roadmap tasks with status and runner.',
    shape: (z) => ({ log: z.string() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).jixoOperations.taskList(ctx, { log: a.log }),
  }),
  operationTool({
    name: 'jixo_task_lock',
    title: 'Lock a JIXO task',
    commands: ['jixo task lock'],
    paths: ['log'],
    preset: 'all',
    description: 'Lock one pending roadmap task for your runner.',
    shape: (z) => ({ log: z.string(), id: z.string(), runner: z.string() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).jixoOperations.task(ctx, { verb: 'lock', log: a.log, id: a.id, runner: a.runner }),
  }),
  operationTool({
    name: 'jixo_task_finish',
    title: 'Finish a JIXO task',
    commands: ['jixo task complete', 'jixo task fail', 'jixo task pause'],
    paths: ['log'],
    preset: 'all',
    description: 'Complete, fail or pause your locked task with its Work Log entry.',
    shape: (z) => ({ log: z.string(), id: z.string(), runner: z.string(), outcome: z.enum(['complete', 'fail', 'pause']), summary: z.string() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).jixoOperations.task(ctx, { verb: a.outcome, log: a.log, id: a.id, runner: a.runner, summary: a.summary }),
    // Which of `commands` this call is: the trust boundary checks that one.
    command: (a) => `jixo task ${a.outcome}`,
  }),
  operationTool({
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
    operation: async (ctx, a) =>
      (await import('@ratchet/cli')).jixoOperations.task(ctx, { verb: 'add', log: a.log, runner: a.runner, title: a.title, id: a.id, parent: a.parent, dependsOn: a.depends_on, phase: a.phase === true }),
  }),
  operationTool({
    name: 'jixo_task_edit',
    title: 'Edit the JIXO roadmap',
    commands: ['jixo task unblock', 'jixo task edit', 'jixo task depends', 'jixo task remove', 'jixo task retry', 'jixo task cancel', 'jixo title'],
    paths: ['log'],
    preset: 'all',
    description: 'Planner: unblock (summary), edit (title), depends (on), remove, retry or cancel (summary) a task; title: set the log title.',
    shape: (z) => ({
      log: z.string(),
      runner: z.string(),
      action: z.enum([...PLAN_ACTIONS, 'title']),
      id: z.string().optional().describe('every action but title'),
      title: z.string().optional(),
      summary: z.string().optional(),
      on: z.array(z.string()).optional().describe('depends: the new dependencies ([] clears)'),
    }),
    operation: async (ctx, a) => {
      const cli = await import('@ratchet/cli');
      const { log, runner, action } = a;
      if (action === 'title') return cli.jixoOperations.log(ctx, { verb: 'title', log, runner, title: requiredFrom(cli, a, 'title', a.title) });
      const id = requiredFrom(cli, a, 'id', a.id);
      switch (action) {
        case 'edit':
          return cli.jixoOperations.task(ctx, { verb: action, log, runner, id, title: requiredFrom(cli, a, 'title', a.title) });
        case 'depends':
          return cli.jixoOperations.task(ctx, { verb: action, log, runner, id, on: requiredFrom(cli, a, 'on', a.on) });
        case 'unblock':
          // The CLI requires --summary; the argv this tool built before left it to that check.
          return cli.jixoOperations.task(ctx, { verb: action, log, runner, id, summary: requiredFrom(cli, a, 'summary', a.summary) });
        case 'cancel':
          return cli.jixoOperations.task(ctx, { verb: action, log, runner, id, summary: a.summary });
        default:
          return cli.jixoOperations.task(ctx, { verb: action, log, runner, id });
      }
    },
    command: (a) => (a.action === 'title' ? 'jixo title' : `jixo task ${a.action}`),
    destructive: true,
  }),
  operationTool({
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
      result: z.enum(RESULTS).optional(),
      job: z.string().optional().describe('job name in the heading'),
    }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).jixoOperations.log(ctx, { verb: 'add', log: a.log, runner: a.runner, objective: a.objective, summary: a.summary, result: a.result, job: a.job }),
  }),
  operationTool({
    name: 'jixo_exit',
    title: 'Exit the JIXO job',
    commands: ['jixo exit'],
    paths: ['log'],
    preset: 'all',
    description: 'Record the exit: 0 job done (when triage decides it), 1 error (elected Planner), 2 standby.',
    shape: (z) => ({ log: z.string(), runner: z.string(), code: z.enum(['0', '1', '2']), reason: z.string() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).jixoOperations.log(ctx, { verb: 'exit', log: a.log, runner: a.runner, code: a.code === '0' ? 0 : a.code === '1' ? 1 : 2, reason: a.reason }),
  }),
  operationTool({
    name: 'jixo_clarify',
    title: 'Ask for clarification',
    commands: ['jixo clarify add'],
    paths: ['job'],
    preset: 'all',
    description: 'Append a Clarification Request to the job file (needs a default plan in the log).',
    shape: (z) => ({ job: z.string(), id: z.string(), question: z.string() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).jixoOperations.clarify(ctx, { verb: 'add', job: a.job, id: a.id, question: a.question }),
  }),
];
