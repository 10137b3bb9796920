/**
 * `ratchet jixo ...`: JIXO job/log files with a real inter-process lock, Protocol 0 triage, atomic
 * task commits and the outer loop. Definitions only; implementations load lazily.
 */
import { Option, type Command } from 'commander';
import type { RegisterArea } from '../../areas.js';

export const registerJixo: RegisterArea = (program: Command, action) => {
  const jixo = program
    .command('jixo')
    .description('JIXO jobs: shared *.log.md files that concurrent agent runners lock, triage and commit to without losing a line');
  const runnerOpt = (cmd: Command): Command => cmd.requiredOption('--runner <id>', 'your runner id (RATCHET_JIXO_RUNNER)');
  // Planner commands: a Planner holding the log lock (`jixo lock`) passes its runner to write under it.
  const plannerOpt = (cmd: Command): Command => cmd.option('--runner <id>', "your runner id (RATCHET_JIXO_RUNNER): an agent's Planner move must come from the elected Planner, holding the log lock (jixo lock), and writes under it; a person may leave it out");

  jixo
    .command('check')
    .description('parse a *.log.md or *.job.md file and report every problem with its line (exit 1 on errors)')
    .argument('<file>', 'a *.log.md or *.job.md file')
    .addHelpText('after', '\nExamples:\n  ratchet jixo check .jixo/docs.log.md\n  ratchet --json jixo check .jixo/docs.job.md')
    .action(action(() => import('./check.js')));

  runnerOpt(
    jixo
      .command('lock')
      .description('take the log lock for your runner (held across commands until unlock) and print the fresh content')
      .argument('<log>', 'the *.log.md file')
      .option('--timeout <ms>', 'wait this long for another holder', '10000')
      .option('--lease <duration>', 'the lock expires after this long if never unlocked (15m, 90s, 500ms; a bare number is ms)', '10m')
      .option('--stale-after <ms>', 'presume a holder on another host dead after this long'),
  )
    .addHelpText('after', '\nExamples:\n  ratchet jixo lock .jixo/docs.log.md --runner "$RATCHET_JIXO_RUNNER"\n  ratchet jixo unlock .jixo/docs.log.md --runner "$RATCHET_JIXO_RUNNER"\n\nWhile you hold the lock you may write the file yourself; unlock judges that edit (it must parse, and each status must change with its Work Log entry, as the commands do it). A refused edit is put back to the last good version, and the refused text kept as <log>.rejected-<time>.')
    .action(action(() => import('./lock.js'), 'lock'));
  runnerOpt(jixo.command('unlock').description('release the log lock, after judging what you wrote by hand while holding it; refused unless your runner holds it').argument('<log>', 'the *.log.md file'))
    .addHelpText('after', '\nExample:\n  ratchet jixo unlock .jixo/docs.log.md --runner "$RATCHET_JIXO_RUNNER"\n\nExit 1 when your edit was refused: each problem is printed with its line, and the last good version is back.')
    .action(action(() => import('./lock.js'), 'unlock'));
  jixo
    .command('accept')
    .description('for a person: keep a log changed outside Ratchet as it is (it must parse); the audit starts again from it, as from a log first seen. Refused where RATCHET_ACTOR=agent')
    .argument('<log>', 'the *.log.md file')
    .addHelpText('after', '\nExample:\n  ratchet jixo accept .jixo/docs.log.md')
    .action(action(() => import('./lock.js'), 'accept'));
  jixo
    .command('restore')
    .description('for a person: put back the last good version of a log (<log>.prev, the one Ratchet last wrote); the text it replaces is kept as <log>.rejected-<time>. Refused where RATCHET_ACTOR=agent')
    .argument('<log>', 'the *.log.md file')
    .addHelpText('after', '\nExample:\n  ratchet jixo restore .jixo/docs.log.md')
    .action(action(() => import('./lock.js'), 'restore'));

  runnerOpt(
    jixo
      .command('triage')
      .description('Protocol 0: release stale locks, then say your role (Planner/Runner) and objective, or the exit to record')
      .argument('<job>', 'the *.job.md file (the log is {dir}/{useLog or name}.log.md)')
      .option('--active <list>', 'the other active runners, comma separated (RATCHET_JIXO_ACTIVE); Locked tasks and log locks of runners not listed are stale', '')
      .option('--log <file>', 'the log file, if not the default next to the job')
      .option('--lease <duration>', 'when you are made the Planner: how long the round is yours unless you end it (your Planner entry, log add, ends it)', '10m')
      .option('--dry-run', 'decide without releasing stale locks or recording an election', false),
  )
    .addHelpText('after', '\nExample:\n  ratchet jixo triage .jixo/docs.job.md --runner "$RATCHET_JIXO_RUNNER" --active "$RATCHET_JIXO_ACTIVE"\n\nWhen a Planner step applies and nobody holds a Planner round, you are elected and it is recorded in the log: only the elected Planner (or the user) changes the plan. A log lock another runner holds is waited for, never taken from it (--active speaks of task locks only).')
    .action(action(() => import('./triage.js')));

  const task = jixo.command('task').description('roadmap tasks: lock one, complete/fail/pause it with its Work Log entry, add, retry, cancel, list');
  const finish = (name: string, what: string): void => {
    runnerOpt(task.command(name).description(what).argument('<log>', 'the *.log.md file').argument('<id>', 'task id, e.g. 1.2'))
      .requiredOption('--summary <text>', 'what happened, for the next runner')
      .option('--objective <text>', 'Work Log objective (default: "Task <text>")')
      .addHelpText('after', `\nExample:\n  ratchet jixo task ${name} .jixo/docs.log.md 1.2 --runner "$RATCHET_JIXO_RUNNER" --summary "..."`)
      .action(action(() => import('./task.js'), name));
  };
  runnerOpt(task.command('lock').description('Protocol 1: lock one Pending task (dependencies Completed) for your runner, with a lease (leaseUntil)').argument('<log>', 'the *.log.md file').argument('<id>', 'task id'))
    .option('--lease <duration>', 'the task lock expires after this long unless renewed (15m, 90s, 500ms; jixo run renews its agents\' leases): then any runner, on any host, may take the task over, and the lost attempt is logged', '10m')
    .addHelpText('after', '\nExample:\n  ratchet jixo task lock .jixo/docs.log.md 1.2 --runner "$RATCHET_JIXO_RUNNER" --lease 15m\n\nA task Locked by another runner is refused until its lease has expired. Locks in logs written before leases (no leaseUntil) never expire by time.')
    .action(action(() => import('./task.js'), 'lock'));
  finish('complete', 'Protocol 3: mark your Locked task Completed and add its Work Log entry, in one write');
  finish('fail', 'Protocol 3: mark your Locked task Failed and add its Work Log entry, in one write');
  runnerOpt(task.command('pause').description('hand your Locked task back (Pending) with a Pending Work Log entry: out of turns (a pause the next runner continues), or --blocker (a Planner must act first)').argument('<log>', 'the *.log.md file').argument('<id>', 'task id, e.g. 1.2'))
    .requiredOption('--summary <text>', 'what happened, for the next runner')
    .option('--objective <text>', 'Work Log objective (default: "Task <text>")')
    .option('--blocker <what>', 'the task cannot go on without a Planner: what is missing (recorded as the entry\'s Blocker; triage reads it)')
    .addHelpText('after', '\nExamples:\n  ratchet jixo task pause .jixo/docs.log.md 1.2 --runner "$RATCHET_JIXO_RUNNER" --summary "half the pages done"\n  ratchet jixo task pause .jixo/docs.log.md 1.2 --runner "$RATCHET_JIXO_RUNNER" --summary "..." --blocker "which API version to document"')
    .action(action(() => import('./task.js'), 'pause'));
  plannerOpt(task.command('unblock').description('Planner: clear the blocker a runner recorded on a task, saying how it was resolved (the task runs again)').argument('<log>', 'the *.log.md file').argument('<id>', 'task id'))
    .requiredOption('--summary <text>', 'how the blocker was resolved')
    .addHelpText('after', '\nExample:\n  ratchet jixo task unblock .jixo/docs.log.md 1.2 --runner "$RATCHET_JIXO_RUNNER" --summary "the job now says: document v2"')
    .action(action(() => import('./task.js'), 'unblock'));
  plannerOpt(task.command('edit').description('Planner: rename a phase or task (its number, dependencies and Work Log stay)').argument('<log>', 'the *.log.md file').argument('<id>', 'item id'))
    .requiredOption('--title <text>', 'the new title')
    .addHelpText('after', '\nExample:\n  ratchet jixo task edit .jixo/docs.log.md 1.2 --title "Write the README and the FAQ"')
    .action(action(() => import('./task.js'), 'edit'));
  plannerOpt(task.command('depends').description('Planner: replace a task\'s dependencies (refused if they make a cycle)').argument('<log>', 'the *.log.md file').argument('<id>', 'task id'))
    .requiredOption('--on <ids>', 'comma-separated task ids ("" to clear)')
    .addHelpText('after', '\nExample:\n  ratchet jixo task depends .jixo/docs.log.md 2.1 --on 1.1,1.2')
    .action(action(() => import('./task.js'), 'depends'));
  plannerOpt(task.command('remove').description('Planner: remove a Pending task that never ran, or an empty phase (tasks with history are cancelled instead)').argument('<log>', 'the *.log.md file').argument('<id>', 'item id'))
    .addHelpText('after', '\nExample:\n  ratchet jixo task remove .jixo/docs.log.md 1.3')
    .action(action(() => import('./task.js'), 'remove'));
  plannerOpt(task.command('add'))
    .description('Planner: add a Pending task (or a phase) to the roadmap')
    .argument('<log>', 'the *.log.md file')
    .requiredOption('--title <text>', 'what the task does')
    .option('--id <id>', 'numbered id, e.g. 1.2 (written as "1.2. <title>")')
    .option('--parent <id>', 'nest under this phase or task')
    .option('--depends-on <ids>', 'comma-separated task ids that must be Completed first')
    .option('--phase', 'a phase (holds tasks, no status)', false)
    .addHelpText('after', '\nExamples:\n  ratchet jixo task add .jixo/docs.log.md --id 1 --title "Phase 1: Docs" --phase\n  ratchet jixo task add .jixo/docs.log.md --id 1.1 --title "Write the README" --parent 1')
    .action(action(() => import('./task.js'), 'add'));
  plannerOpt(task.command('retry').description('Planner: a Failed task back to Pending').argument('<log>', 'the *.log.md file').argument('<id>', 'task id'))
    .addHelpText('after', '\nExample:\n  ratchet jixo task retry .jixo/docs.log.md 1.2 --runner "$RATCHET_JIXO_RUNNER"')
    .action(action(() => import('./task.js'), 'retry'));
  plannerOpt(task.command('cancel').description('Planner: a Pending or Failed task to Cancelled (it no longer counts for progress), with its Work Log entry (Result Cancelled)').argument('<log>', 'the *.log.md file').argument('<id>', 'task id'))
    .option('--summary <text>', 'why the task is no longer needed (the entry\'s summary)')
    .addHelpText('after', '\nExample:\n  ratchet jixo task cancel .jixo/docs.log.md 1.2 --runner "$RATCHET_JIXO_RUNNER" --summary "merged into 1.3"')
    .action(action(() => import('./task.js'), 'cancel'));
  task.command('list').description('list the tasks with status and runner').argument('<log>', 'the *.log.md file').addHelpText('after', '\nExample:\n  ratchet --json jixo task list .jixo/docs.log.md').action(action(() => import('./task.js'), 'list'));

  const log = jixo.command('log').description('the Work Log');
  plannerOpt(log.command('add').description("the Planner's Work Log entry for its round (it ends the round); entries about a task come only with its transition (task complete|fail|pause|cancel|unblock)").argument('<log>', 'the *.log.md file'))
    .addOption(new Option('--role <role>', 'Planner (a Runner\'s entries come with task complete|fail|pause, and are refused here)').choices(['Planner', 'Runner']).default('Planner'))
    .requiredOption('--objective <text>', 'what this lifecycle set out to do')
    .addOption(new Option('--result <result>', 'the outcome').choices(['Succeeded', 'Failed', 'Pending', 'Cancelled']).default('Succeeded'))
    .requiredOption('--summary <text>', 'what happened')
    .option('--job <name>', 'job name in the heading (default: RATCHET_JIXO_JOB or the log file name)')
    .addHelpText('after', '\nExample:\n  ratchet jixo log add .jixo/docs.log.md --runner "$RATCHET_JIXO_RUNNER" --objective "Create the plan" --summary "3 tasks"')
    .action(action(() => import('./log.js'), 'add'));
  plannerOpt(jixo.command('title'))
    .description('Planner: set the log title (replacing the placeholder)')
    .argument('<log>', 'the *.log.md file')
    .argument('<title>', 'the new title')
    .addHelpText('after', '\nExample:\n  ratchet jixo title .jixo/docs.log.md "Document the CLI"')
    .action(action(() => import('./log.js'), 'title'));
  jixo
    .command('progress')
    .description('recompute progress over effective (non-Cancelled) tasks, write it, and print it')
    .argument('<log>', 'the *.log.md file')
    .addHelpText('after', '\nExample:\n  ratchet jixo progress .jixo/docs.log.md')
    .action(action(() => import('./log.js'), 'progress'));
  runnerOpt(
    jixo
      .command('exit')
      .description('jixo_tasks_exit: record 0 (job done, stops the outer loop: from an agent only when triage decides it), 1 (error, stops the job: the elected Planner or the user only) or 2 (standby) with a reason')
      .argument('<log>', 'the *.log.md file')
      .addOption(new Option('--code <code>', 'exit code').choices(['0', '1', '2']).makeOptionMandatory())
      .requiredOption('--reason <text>', 'why'),
  )
    .addHelpText('after', '\nExample:\n  ratchet jixo exit .jixo/docs.log.md --runner "$RATCHET_JIXO_RUNNER" --code 0 --reason "Job completed successfully."')
    .action(action(() => import('./log.js'), 'exit'));

  const clarify = jixo.command('clarify').description('clarification requests in the job file (Protocols 4 and 5)');
  clarify
    .command('add')
    .description('append a Clarification Request block to the job file (Protocol 5: refused until the log has a default plan to follow meanwhile)')
    .argument('<job>', 'the *.job.md file')
    .requiredOption('--id <id>', 'a unique id')
    .requiredOption('--question <text>', 'the question, in the job file language')
    .addHelpText('after', '\nExample:\n  ratchet jixo clarify add .jixo/docs.job.md --id q1 --question "Which audience?"')
    .action(action(() => import('./clarify.js'), 'add'));
  clarify.command('list').description('list requests and whether each is answered').argument('<job>', 'the *.job.md file').addHelpText('after', '\nExample:\n  ratchet jixo clarify list .jixo/docs.job.md').action(action(() => import('./clarify.js'), 'list'));
  clarify.command('remove').description('remove a processed request').argument('<job>', 'the *.job.md file').argument('<id>', 'the request id').addHelpText('after', '\nExample:\n  ratchet jixo clarify remove .jixo/docs.job.md q1').action(action(() => import('./clarify.js'), 'remove'));

  jixo
    .command('run')
    .description('the outer loop: a pool of N runner slots; each assigns a distinct task (locked for the new runner) or the Planner round, starts an agent (runner id, job, other runners, quota, paths, system prompt via env and stdin), and restarts as soon as that agent exits, until a tasks-exit 0')
    .argument('<job>', 'the *.job.md file')
    .requiredOption('--agent <command>', 'shell command that starts one agent (it reads the system prompt on stdin; RATCHET_JIXO_TASK names its task)')
    .option('--runners <n>', 'runner slots: agents running at once, each restarted on its own', '1')
    .option('--max-loops <m>', 'agents each slot may start', '20')
    .option('--max-runs <n>', "the job's quota of agent runs, every start counted (crash restarts too); default runners x max-loops")
    .option('--agent-timeout <duration>', 'kill an agent running longer than this (e.g. 90s, 10m, 1h): its process group gets SIGTERM, then SIGKILL 2 s later; its task goes back to Pending with a Work Log entry')
    .option('--max-turns <n>', 'turn quota given to each agent', '40')
    .option('--lease <duration>', "lease of each agent's task lock, log lock and Planner round (15m, 90s), renewed every third of it while the agent runs: if this loop dies, another runner (any host) may take the task one lease later", '10m')
    .option('--max-wait <duration>', 'when only a runner elsewhere holds what is left (a task, the Planner round), wait for its lease if it ends within this long, else stop (exit 1, saying when it ends); default: the --lease')
    .option('--once', 'each slot runs until one agent finishes', false)
    .option('--force', 'run a job that is already finished', false)
    .addHelpText('after', '\nExamples:\n  ratchet jixo run .jixo/docs.job.md --agent "claude -p" --runners 3 --agent-timeout 20m\n  ratchet jixo run .jixo/docs.job.md --agent "node my-agent.mjs" --once\n\nThe job stops on a tasks-exit 0 (recorded by the loop itself once every task is Completed), an exit 1 of one of its runners, when --max-runs is used up, or (status held) when what is left is held elsewhere past --max-wait. No agent is started with nothing to do.\n\nWith RATCHET_STORE=postgres://... (or the config\'s store.url) the log is a document in that database, shared by every machine running jixo on it; the job file stays here.')
    .action(action(() => import('./run.js')));
};
