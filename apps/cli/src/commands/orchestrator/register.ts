/**
 * The orchestrator's commands (master control): `task` starts, closes and submits a task, `run`
 * drives its plan one step at a time, `research` enters the L4 research cycle. One command per
 * agent step; every one ends by printing the next command.
 */
import { Option, type Command } from 'commander';
import type { RegisterArea } from '../../areas.js';

const sessionOption = (cmd: Command): Command => cmd.option('--session <file>', 'the task session file', '.ratchet/session.json');

export const registerOrchestrator: RegisterArea = (program, action) => {
  const task = program
    .command('task')
    .description('start, close and submit a task: the lifecycle master control drives (orientation, planning, execution, post-mortem)')
    .addHelpText(
      'after',
      `
The cycle:
  ratchet task start --task-id T-1       orientation cascade, then PLANNING
  ratchet run plan plan.txt              lint gate; a clean plan goes on the stack
  ratchet run next | ratchet run done    one step at a time
  ratchet task close --task-id T-1       TASK_END and a post-mortem template
  ratchet lessons extract postmortems/T-1.md; ratchet lessons apply   self-correction
  ratchet task submit --task-id T-1      once self-correction is done`,
    );

  sessionOption(
    task
      .command('start')
      .description('begin a task (or re-orient after a failure): L1 agent_meta, L2 knowledge_core, L3 environment probe; logs TASK_START')
      .requiredOption('--task-id <id>', 'task id (letters, digits, . _ -)')
      .option('--no-network', 'skip the network reachability probe')
      .option('--network-target <host:port>', 'what the network probe connects to', 'registry.npmjs.org:443')
      .option('--network-timeout <ms>', 'give up on the network probe after this long', '1500'),
  )
    .addHelpText('after', '\nExample:\n  ratchet task start --task-id add-greeting --no-network')
    .action(action(() => import('./task-start.js')));

  sessionOption(
    task
      .command('close')
      .description('after the plan completes (or to abandon a failed task, or with --abandon one still in PLANNING): move to POST_MORTEM, write postmortems/<id>.md, log TASK_END; if a step fails, run it again: it finishes only what is missing')
      .requiredOption('--task-id <id>', 'the task being closed')
      .option('--abandon', 'give up a task in PLANNING: close it as a FAILURE (needs --reason)')
      .option('--reason <text>', 'why the task is abandoned (written into the post-mortem, the history and TASK_END)'),
  )
    .addHelpText('after', '\nExamples:\n  ratchet task close --task-id add-greeting\n  ratchet task close --task-id add-greeting --abandon --reason "the API it needs does not exist"')
    .action(action(() => import('./task-close.js')));

  sessionOption(
    task
      .command('submit')
      .description('finish a closed task once self-correction is done: every post-mortem section written, its lessons extracted and applied (or manual), AGENTS.md current; refused (exit 1) with the list of what is missing')
      .requiredOption('--task-id <id>', 'the task being submitted'),
  )
    .addHelpText('after', '\nExample:\n  ratchet task submit --task-id add-greeting')
    .action(action(() => import('./task-submit.js')));

  sessionOption(
    task
      .command('reset')
      .description("a person's way out of a state no command leaves (a hand-edited session accepted with doctor --accept): move the task to ERROR (then re-orient or abandon it), PLANNING or START, recorded with the reason; refused where RATCHET_ACTOR=agent")
      .requiredOption('--task-id <id>', 'the task being reset')
      .option('--reason <text>', 'why (required: recorded in the history and the activity log)')
      .addOption(new Option('--to <state>', 'where the task goes').choices(['ERROR', 'PLANNING', 'START']).default('ERROR')),
  )
    .addHelpText('after', '\nExample:\n  ratchet task reset --task-id add-greeting --reason "the session was edited by hand"')
    .action(action(() => import('./task-reset.js')));

  const run = program.command('run').description("execute the task's plan one step at a time: submit it, ask for the next step, report it done");

  sessionOption(
    run
      .command('plan')
      .description('submit a plan: lint errors keep the task in PLANNING (exit 1, findings printed); a clean plan starts executing, each for_each_file over the files lint saw at that point (those the plan creates first included, none added later)')
      .argument('<plan>', 'the plan file')
      .option('--dialect <file>', "command -> FSM symbol mapping; refused unless it (and its FSM) says the same as the project's protocols/fdc.dialect.json (else the bundled one)")
      .option('--registry <file>', 'plan registry for call_plan names, kept for the whole run (default: knowledge_core/plan_registry.json)'),
  )
    .addHelpText('after', '\nExample:\n  ratchet run plan plans/add-greeting.txt')
    .action(action(() => import('./run-plan.js')));

  sessionOption(run.command('next').description('print the step to execute now (with --json: the step, its plan chain and the commands that follow)'))
    .addHelpText('after', '\nExamples:\n  ratchet run next\n  ratchet --json run next')
    .action(action(() => import('./run-next.js')));

  sessionOption(
    run
      .command('done')
      .description('report the current step done (or failed): moves to the next step, into sub-plans and out of finished ones')
      .option('--failed', 'the step failed: the task moves to ERROR', false)
      .option('-m, --message <text>', 'what happened (recorded in the session history and the activity log)'),
  )
    .addHelpText('after', '\nExamples:\n  ratchet run done\n  ratchet run done --failed --message "tests fail: missing export"')
    .action(action(() => import('./run-done.js')));

  sessionOption(run.command('status').description('lifecycle state, legal moves, the plan stack, the current step and recent history'))
    .addHelpText('after', '\nExample:\n  ratchet run status')
    .action(action(() => import('./run-status.js')));

  const research = program.command('research').description('the L4 deep-research cycle: a generated research plan, entered from PLANNING or EXECUTING, its steps run with run next/run done, left with research done');

  sessionOption(
    research
      .command('plan')
      .description('write research/<id>/plan.txt for a topic (lint-clean in the research and the default plan language); in PLANNING or EXECUTING (pausing the plan), enter the research cycle')
      .argument('<topic...>', 'what to research'),
  )
    .addHelpText('after', '\nExample:\n  ratchet research plan "how does the store lock survive kill -9"')
    .action(action(() => import('./research-plan.js')));

  sessionOption(
    research
      .command('done')
      .description('leave the research cycle once its steps are done and the report holds findings: back to PLANNING, or to the paused plan; to ERROR with --failed')
      .option('--failed', 'the research failed', false)
      .option('-m, --message <text>', 'a note for the history and the activity log'),
  )
    .addHelpText('after', '\nExample:\n  ratchet research done -m "report in research/x/report.md"')
    .action(action(() => import('./research-done.js')));
};
