/**
 * `ratchet workspace ...`: FTL's XML workspaces, one per task, `.ratchet/workspace/{seq}_{slug}_{status}.xml`.
 * Created once the task's parents are complete (their deliveries become <lineage>, blocked siblings
 * become prior knowledge); completing or blocking renames the file atomically.
 */
import type { Command } from 'commander';
import type { RegisterArea } from '../../areas.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export const registerWorkspace: RegisterArea = (program: Command, action) => {
  const workspace = program
    .command('workspace')
    .description("a task's working brief as XML: objective, delta, verify, lineage from its parents, prior knowledge, and what was delivered");
  const dir = (cmd: Command): Command => cmd.option('--workspace-dir <dir>', 'workspace directory inside the project (default: .ratchet/workspace)');

  dir(
    workspace
      .command('create')
      .description(
        'create the active workspace of a task whose dependencies are complete, with lineage, prior knowledge and sibling failures; ' +
          "for a retried task (blocked, then update-task SEQ pending) the blocked workspace is kept as {seq}_{slug}_blocked.{n}.xml and the new one carries the task's earlier failures",
      )
      .argument('<seq>', 'the task')
      .option('--prior-knowledge <file>', 'JSON {"failures": [...], "patterns": [...]} to inject as <prior_knowledge> instead of querying memory')
      .option('--memory <file>', 'the memory file queried for <prior_knowledge> (default: .ratchet/memory.json, when it exists)')
      .option('--no-memory', 'inject no memory entries (sibling failures are still injected)')
      .option('--runner <runner>', 'who asks: refused (exit 2) when another runner holds the task'),
  )
    .addHelpText(
      'after',
      "\nA task that changed hands (its lease ran out and another runner took it over, or the claim was given\nback and claimed again): the lost builder's workspace is kept as {seq}_{slug}_lost.{n}.xml and the new\nholder's is attempt n+1, told where the lost attempt is.\n\nExamples:\n  ratchet workspace create 002 --runner builder-1\n  ratchet campaign update-task 002 pending && ratchet workspace create 002   # retry: attempt 2",
    )
    .action(action(() => import('./create.js')));

  dir(
    workspace
      .command('complete')
      .description('mark the workspace complete with what was delivered (renamed to _complete.xml)')
      .argument('<seq>', 'the task')
      .option('--delivered <text>', 'what was delivered')
      .option('--from-file <file>', 'read the delivery from a file ("-" for stdin)')
      .option('--utilized <name:type>', 'a prior-knowledge entry the builder used (type failure or pattern); repeat for several', collect)
      .option('--runner <runner>', 'who finishes it: refused (exit 2) when the workspace was made for another runner'),
  )
    .addHelpText('after', '\nExample:\n  ratchet workspace complete 002 --delivered "login endpoint and tests" --utilized import-cycle:failure')
    .action(action(() => import('./finish.js'), 'complete'));

  dir(
    workspace
      .command('block')
      .description('mark the workspace blocked with the reason (renamed to _blocked.xml; later workspaces of the campaign see it as a sibling failure)')
      .argument('<seq>', 'the task')
      .requiredOption('--reason <text>', 'why the task cannot be done (first line becomes the sibling failure trigger)')
      .option('--utilized <name:type>', 'a prior-knowledge entry the builder used; repeat for several', collect)
      .option('--runner <runner>', 'who blocks it: refused (exit 2) when the workspace was made for another runner'),
  )
    .addHelpText('after', '\nExample:\n  ratchet workspace block 003 --reason "sphinx is not installed"')
    .action(action(() => import('./finish.js'), 'block'));

  dir(
    workspace
      .command('show')
      .description('show a workspace (parsed), or its XML with --xml')
      .argument('<seq>', 'the task')
      .option('--xml', 'print the file as it is'),
  )
    .addHelpText('after', '\nExample:\n  ratchet workspace show 002 --xml')
    .action(action(() => import('./show.js')));

  dir(workspace.command('list').description("list the workspaces of the active campaign with their status, retried tasks' failed earlier attempts, and lost attempts"))
    .addHelpText('after', '\nExample:\n  ratchet workspace list')
    .action(action(() => import('./list.js')));
};
