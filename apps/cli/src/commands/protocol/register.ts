/**
 * `ratchet protocol ...`: compile protocol sources into AGENTS.md (and other targets), check they are
 * up to date, and edit sources programmatically. Definitions only; implementations load lazily.
 */
import { Option, type Command } from 'commander';
import type { RegisterArea } from '../../areas.js';

const DETAILS = ['compact', 'full'];

// No defaults on flags: commander would print "(default: false)" into the compiled docs.
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export const registerProtocol: RegisterArea = (program: Command, action) => {
  const protocol = program
    .command('protocol')
    .description('compile protocols/*.protocol.json (+ prose) into the managed block of AGENTS.md, and edit protocol sources');

  protocol
    .command('compile')
    .description(
      'render every protocol into the block between the ratchet:protocols markers of each target; text outside the block is kept. ' +
        'compact (a new target): every rule by id with its first sentence; full: prose, rules with their enforcement, JSON, command usage',
    )
    .option('--protocols <dir>', 'directory of *.protocol.json, *.protocol.md, VERSION and protocol.schema.json', 'protocols')
    .option('--out <file>', 'target file; repeat for several (default: the targets of <protocols>/compile.json, else AGENTS.md)', collect)
    .addOption(new Option('--detail <level>', 'compact or full (default: the detail the target was written with; compact for a new one)').choices(DETAILS))
    .option('--check', 'write nothing; exit 1 and show the difference when a target is stale (at the detail it was written with)')
    .option('--timestamp', 'add a "Compiled at" line (off by default: same sources, same bytes)')
    .addHelpText(
      'after',
      '\nTargets once for every command (compile, --check, lessons apply): protocols/compile.json\n  {"targets": ["AGENTS.md", "CLAUDE.md"]}\n\nExamples:\n  ratchet protocol compile\n  ratchet protocol compile --detail full   # the whole text, as before compact existed\n  ratchet protocol compile --out AGENTS.md --out CLAUDE.md\n  ratchet protocol compile --check        # in CI: exit 1 when a target is stale',
    )
    .action(action(() => import('./compile.js')));

  protocol
    .command('show')
    .description("print a protocol in full: its prose, every rule with how it is enforced, its JSON and the usage of the ratchet commands it names")
    .argument('[id]', 'a protocol_id (or the name of a prose file of its own, e.g. 00-introduction)')
    .option('--all', 'print every protocol in full, with the plan vocabulary and command usage (what `compile --detail full` writes)')
    .option('--protocols <dir>', 'the protocols directory', 'protocols')
    .addHelpText('after', '\nExamples:\n  ratchet protocol show fdc\n  ratchet protocol show --all')
    .action(action(() => import('./show.js')));

  const update = protocol
    .command('update')
    .description('edit a protocol source in place: validated against the schema, written atomically, key order and formatting kept');
  const updateOptions = (cmd: Command): Command =>
    cmd
      .option('--protocols <dir>', 'the protocols directory', 'protocols')
      .option('--dry-run', 'show the diff, write nothing');

  updateOptions(
    update
      .command('add-tool')
      .description("add a tool to a protocol's associated_tools (un-deprecates it if it was deprecated)")
      .argument('<protocol_id>', 'the protocol to edit')
      .argument('<tool>', "the tool, e.g. 'ratchet plan lint'"),
  )
    .addHelpText('after', "\nExample:\n  ratchet protocol update add-tool fdc 'ratchet plan analyze'")
    .action(action(() => import('./update.js'), 'add-tool'));

  updateOptions(
    update
      .command('update-rule')
      .description("replace a rule's description")
      .argument('<protocol_id>', 'the protocol to edit')
      .argument('<rule_id>', 'the rule to change')
      .argument('<description>', 'the new description'),
  )
    .addHelpText('after', "\nExample:\n  ratchet protocol update update-rule fdc phase2-planning 'Lint every plan before running it.'")
    .action(action(() => import('./update.js'), 'update-rule'));

  updateOptions(
    update
      .command('deprecate-tool')
      .description('move a tool from associated_tools to deprecated_tools (shown as "do not use")')
      .argument('<protocol_id>', 'the protocol to edit')
      .argument('<tool>', 'the tool to retire'),
  )
    .addHelpText('after', "\nExample:\n  ratchet protocol update deprecate-tool fdc 'tooling/fdc_cli.py'")
    .action(action(() => import('./update.js'), 'deprecate-tool'));
};
