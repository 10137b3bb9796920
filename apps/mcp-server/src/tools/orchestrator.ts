/** The task lifecycle and plan execution (`ratchet task|run|research`). */
import { cmd } from '../argv.js';
import type { ToolSpec, Zod } from '../tool-spec.js';

const session = (z: Zod) => z.string().optional().describe('session file (default .ratchet/session.json)');

export const orchestratorTools: ToolSpec[] = [
  {
    name: 'task_start',
    paths: ['session'],
    preset: 'core',
    description: 'Begin a task: orientation, then PLANNING.',
    shape: (z) => ({ task_id: z.string(), network: z.boolean().optional().describe('probe the network (default true)'), session: session(z) }),
    argv: (a) => cmd('task', 'start').opt('--task-id', a.task_id).flag('--no-network', a.network === false).opt('--session', a.session),
  },
  {
    name: 'run_plan',
    paths: ['plan', 'dialect', 'registry', 'session'],
    preset: 'core',
    description: 'Submit a plan file: lint errors keep the task in PLANNING; a clean plan starts executing.',
    shape: (z) => ({ plan: z.string(), dialect: z.string().optional(), registry: z.string().optional(), session: session(z) }),
    argv: (a) => cmd('run', 'plan').opt('--dialect', a.dialect).opt('--registry', a.registry).opt('--session', a.session).arg(a.plan),
  },
  {
    name: 'run_next',
    paths: ['session'],
    preset: 'core',
    // Exit 1 is "no step in this state": the answer (what to do instead) is still the result.
    findings: true,
    description: 'The step to execute now and the commands that follow.',
    shape: (z) => ({ session: session(z) }),
    argv: (a) => cmd('run', 'next').opt('--session', a.session),
  },
  {
    name: 'run_done',
    paths: ['session'],
    preset: 'core',
    description: 'Report the current step done (or failed); moves to the next step.',
    shape: (z) => ({ failed: z.boolean().optional(), message: z.string().optional(), session: session(z) }),
    argv: (a) => cmd('run', 'done').flag('--failed', a.failed).opt('--message', a.message).opt('--session', a.session),
  },
  {
    name: 'run_status',
    paths: ['session'],
    preset: 'core',
    description: 'Lifecycle state, legal moves, plan stack, current step.',
    shape: (z) => ({ session: session(z) }),
    argv: (a) => cmd('run', 'status').opt('--session', a.session),
  },
  {
    name: 'task_close',
    paths: ['session'],
    preset: 'core',
    description: 'Close the task (POST_MORTEM) and write postmortems/<id>.md to fill in.',
    shape: (z) => ({ task_id: z.string(), session: session(z) }),
    argv: (a) => cmd('task', 'close').opt('--task-id', a.task_id).opt('--session', a.session),
  },
  {
    name: 'task_submit',
    paths: ['session'],
    preset: 'core',
    description: 'Finish a closed task once its post-mortem is filled in.',
    shape: (z) => ({ task_id: z.string(), session: session(z) }),
    argv: (a) => cmd('task', 'submit').opt('--task-id', a.task_id).opt('--session', a.session),
  },
  {
    name: 'research_plan',
    paths: ['session'],
    preset: 'all',
    description: 'Write a research plan for a topic; in PLANNING, enter the research cycle.',
    shape: (z) => ({ topic: z.string(), session: session(z) }),
    argv: (a) => cmd('research', 'plan').opt('--session', a.session).arg(a.topic),
  },
  {
    name: 'research_done',
    paths: ['session'],
    preset: 'all',
    description: 'Leave the research cycle (report must exist), or fail it.',
    shape: (z) => ({ failed: z.boolean().optional(), message: z.string().optional(), session: session(z) }),
    argv: (a) => cmd('research', 'done').flag('--failed', a.failed).opt('--message', a.message).opt('--session', a.session),
  },
];
