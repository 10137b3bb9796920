/**
 * `ratchet campaign ...`: a campaign is an objective and a DAG of tasks (FTL's plan.json), kept in
 * .ratchet/campaign.json. Builders ask for ready work (`ready --claim` is atomic across processes),
 * report status changes (only legal ones), and blocked work cascades to everything below it.
 */
import { Argument, Option, type Command } from 'commander';
import type { RegisterArea } from '../../areas.js';

export const registerCampaign: RegisterArea = (program: Command, action) => {
  const campaign = program
    .command('campaign')
    .description('run a multi-task objective as a dependency graph: ready work for parallel builders, atomic claims, cascading blocks, waves, archive');

  campaign
    .command('create')
    .description('start a campaign (one active campaign per project, in .ratchet/campaign.json)')
    .argument('<objective>', 'what the campaign achieves, in a sentence')
    .option('--framework <name>', 'the framework the tasks use (find-similar only compares campaigns of the same framework)')
    .addHelpText('after', '\nExample:\n  ratchet campaign create "Add user authentication"')
    .action(action(() => import('./create.js')));

  campaign
    .command('add-tasks')
    .description(
      'add the tasks of a plan.json (FTL contract: objective, tasks[].seq/delta/verify, type SPEC|BUILD|VERIFY, depends "none"|seq|[seqs]); ' +
        'every problem is reported at once: exit 1 for a cycle (with its path) or unknown/self/duplicate dependencies, 2 for malformed input',
    )
    .argument('[plan]', 'the plan file; nothing reads a piped plan from standard input (refused on a terminal), "-" reads standard input even from a terminal; at most 128 MiB')
    .addHelpText('after', '\nExamples:\n  ratchet campaign add-tasks plan.json\n  cat plan.json | ratchet campaign add-tasks')
    .action(action(() => import('./add-tasks.js')));

  campaign
    .command('ready')
    .description('list pending tasks whose dependencies are all complete; --claim atomically marks the first one in_progress for RUNNER (parallel builders never get the same task, on any machine sharing the store)')
    .option('--claim <runner>', 'claim one ready task for this runner')
    .option('--lease <length>', 'with --claim: the claim expires after this long (30s, 15m, 2h) unless renewed with `campaign heartbeat`; then the task is ready again and the lost attempt is recorded. Without it a claim never expires')
    .addHelpText(
      'after',
      '\nA builder that may crash (or runs on another machine) should claim with a lease and heartbeat\nwell within it; a claim without --lease stays in_progress until someone updates the task.\n\nExamples:\n  ratchet campaign ready\n  ratchet campaign ready --claim builder-1 --json\n  ratchet campaign ready --claim builder-1 --lease 15m',
    )
    .action(action(() => import('./ready.js')));

  campaign
    .command('heartbeat')
    .description('renew every leased claim RUNNER holds (from `ready --claim RUNNER --lease ...`); exit 2 naming the holder when RUNNER lost them all')
    .argument('<runner>', 'the runner name given to ready --claim')
    .option('--lease <length>', 'the new lease, from now (30s, 15m, 2h)', '15m')
    .addHelpText('after', '\nExamples:\n  ratchet campaign heartbeat builder-1\n  ratchet campaign heartbeat builder-1 --lease 5m --json')
    .action(action(() => import('./heartbeat.js')));

  campaign
    .command('update-task')
    .description('change a task\'s status; only legal transitions (pending -> in_progress -> complete|blocked, blocked -> pending to retry: the tasks its cascade blocked go back to pending too)')
    .argument('<seq>', 'the task ("001" and 1 are the same)')
    .addArgument(new Argument('<status>', 'new status').choices(['pending', 'in_progress', 'complete', 'blocked']))
    .option('--reason <text>', 'why (recorded; use it when blocking)')
    .option('--runner <runner>', 'who reports it: a claimed task changes only by its holder (exit 2 naming the holder otherwise, and when RUNNER\'s lease has run out)')
    .addOption(new Option('--as <who>', 'user: the user overrides the claim from their own terminal (refused when RATCHET_ACTOR=agent)').choices(['user']))
    .addHelpText(
      'after',
      '\nA task claimed with `ready --claim R` (in_progress under R) changes only with --runner R. Leaving\n--runner out, or naming another runner, is refused (exit 2) and nothing is written; the user\nreleases or finishes someone else\'s claim with --as user.\n\nExamples:\n  ratchet campaign update-task 001 in_progress\n  ratchet campaign update-task 003 complete --runner builder-1\n  ratchet campaign update-task 002 blocked --runner builder-2 --reason "fixture missing"\n  ratchet campaign update-task 004 pending --as user   # the user takes a claim back',
    )
    .action(action(() => import('./update-task.js')));

  campaign
    .command('cascade-status')
    .description('the campaign state (none|complete|in_progress|stuck|all_blocked) with ready, pending, complete, blocked and transitively unreachable tasks')
    .addHelpText('after', '\nExample:\n  ratchet campaign cascade-status --json')
    .action(action(() => import('./cascade-status.js')));

  campaign
    .command('propagate-blocks')
    .description('block every task below a blocked one (to a fixpoint), recording its direct blockers, the root cause and that it is a cascade')
    .addHelpText('after', '\nExample:\n  ratchet campaign propagate-blocks')
    .action(action(() => import('./propagate-blocks.js')));

  campaign
    .command('waves')
    .description('the parallel layers: every task of a wave can run at once once the earlier waves are done')
    .addHelpText('after', '\nExample:\n  ratchet campaign waves')
    .action(action(() => import('./waves.js')));

  campaign
    .command('graph')
    .description('draw the task graph with statuses as Mermaid or Graphviz DOT')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['mermaid', 'dot']).default('mermaid'))
    .addHelpText('after', '\nExamples:\n  ratchet campaign graph\n  ratchet campaign graph --format dot | dot -Tsvg > campaign.svg')
    .action(action(() => import('./graph.js')));

  campaign
    .command('status')
    .description('the objective, counts by status, and every task with its status, runner and reason')
    .addHelpText('after', '\nExample:\n  ratchet campaign status')
    .action(action(() => import('./status.js')));

  campaign
    .command('complete')
    .description('archive the campaign to .ratchet/archive/<id>.json with a summary (its workspaces move beside it) and free the slot for the next one')
    .option('--force', 'archive even with tasks in progress (the observer is still required)')
    .option('--skip-observe <reason>', 'archive without an observation (`ratchet memory observe`); the reason is recorded in the campaign log')
    .option('--workspace-dir <dir>', 'where the workspaces were created (the --workspace-dir given to `ratchet workspace`), inside the project (default: .ratchet/workspace)')
    .addHelpText(
      'after',
      '\nThe campaign must be in phase OBSERVE: `ratchet memory observe` on it records the observation (FTL: the\nobserver runs before COMPLETE). Refused otherwise (exit 2), unless --skip-observe says why.\n\nExamples:\n  ratchet memory observe && ratchet campaign complete\n  ratchet campaign complete --skip-observe "every task blocked on the same missing credential"\n  ratchet campaign complete --workspace-dir work/ws',
    )
    .action(action(() => import('./complete.js')));

  campaign
    .command('phase')
    .description("the campaign's FTL phase (EXPLORE, PLAN, BUILD, OBSERVE, COMPLETE) and its log; with an event, move it on if the phase machine allows")
    .addArgument(new Argument('[event]', 'explored (EXPLORE -> PLAN); planned, observed and complete are fired by add-tasks, memory observe and campaign complete').choices(['explored']))
    .option('--reason <text>', 'recorded with the event')
    .addHelpText('after', '\nExamples:\n  ratchet campaign phase\n  ratchet campaign phase explored --reason "4 explorers done"')
    .action(action(() => import('./phase.js')));

  campaign
    .command('find-similar')
    .description('past campaigns like the active one: 0.6 objective similarity + 0.3 Jaccard of delta files + 0.1 task-count similarity, same framework, score >= 0.6')
    .option('--objective <text>', 'compare this objective instead of the active campaign (objective similarity only)')
    .option('--framework <name>', 'with --objective: only past campaigns of this framework')
    .option('--threshold <score>', 'minimum score, 0 to 1 (default 0.6)')
    .addHelpText('after', '\nExamples:\n  ratchet campaign find-similar\n  ratchet campaign find-similar --objective "add login" --framework express --threshold 0.3')
    .action(action(() => import('./find-similar.js')));
};
