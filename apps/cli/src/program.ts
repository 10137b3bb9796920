/**
 * The command tree. Definitions are cheap (names, options, help text); every action imports its
 * implementation lazily so `ratchet --version` and friends never load code they do not use.
 * This module is also the single source of each command's usage text (protocol docs embed it).
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Argument, Command, Option } from 'commander';
import { CliError } from './errors.js';
import { makeContext, type CommandAction, type GlobalOptions, type Io } from './context.js';
import { readVersion } from './version.js';
import { closeStorage } from './storage.js';
import { areasFor, notBundled } from './areas.js';
import { checkBoundary } from './boundary.js';

// Defined beside Context, so the public types (index.ts) need not reach this module and commander.
export type { CommandAction } from './context.js';
export type Loader = () => Promise<{ default: CommandAction }>;
/**
 * Wraps a lazily loaded command implementation as a commander action. `leading` positionals are
 * passed before the user's (one module can serve several subcommands).
 */
export type ActionFactory = (load: Loader, ...leading: string[]) => (...params: unknown[]) => Promise<void>;

export interface ProgramState {
  exitCode: number;
  /** The command's directory (--cwd), once resolved: error reports show paths relative to it. */
  cwd?: string | undefined;
}

/**
 * The command tree. With `argv`, only the command area that call needs is registered (faster
 * start-up); without it, every command is (help, protocol docs).
 */
export async function buildProgram(io: Io, state: ProgramState, argv?: readonly string[]): Promise<Command> {
  const program = new Command('ratchet');
  // Set before any subcommand is added: commander copies these settings into each subcommand then.
  program.exitOverride();
  program.configureOutput({ writeOut: (text) => io.stdout(text), writeErr: (text) => io.stderr(text) });
  program
    .description(
      'Keep AI coding agents on rails: state machines they cannot skip, plans checked before they run,\n' +
        'state files that concurrent runners share without losing an update.',
    )
    .version(readVersion(), '-V, --version', 'print the ratchet version')
    .option('--json', 'print one JSON document on stdout instead of human output', false)
    .option('--cwd <dir>', 'run as if started in <dir> (relative paths resolve against it)')
    .option('-q, --quiet', 'print nothing but errors; rely on the exit code', false)
    .option('--no-color', 'never colour the output (colour is only used on a terminal anyway)')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText(
      'after',
      `
Exit codes: 0 ok, 1 the check found problems, 2 usage or input error.

Start here:
  ratchet quickstart            a guided tour in a fresh directory
  ratchet init                  add Ratchet's protocol files to this repository
  ratchet fsm check protocols/*.fsm.json`,
    );

  const action: ActionFactory =
    (load, ...leading) =>
    async (...params: unknown[]): Promise<void> => {
      const command = params[params.length - 1] as Command;
      const options = command.optsWithGlobals<Record<string, unknown> & { json?: boolean; quiet?: boolean; cwd?: string; color?: boolean }>();
      const globals: GlobalOptions = {
        json: options.json === true,
        quiet: options.quiet === true,
        cwd: await resolveCwd(io, options.cwd),
        color: options.color !== false && io.isTTY && io.env.NO_COLOR === undefined && options.json !== true,
      };
      const ctx = makeContext(io, globals);
      state.cwd = ctx.cwd;
      checkBoundary(ctx, commandPath(command), options);
      const impl = await load();
      try {
        state.exitCode = await impl.default(ctx, [...leading, ...flattenArgs(params.slice(0, -2))], options);
      } finally {
        await closeStorage(ctx);
      }
    };

  const fsm = program
    .command('fsm')
    .description('check, render and run finite-state machine definitions (JSON, map or list style)');

  fsm
    .command('check')
    .description('report every problem in one or more FSM definition files, each with file:line:col')
    .argument('<file...>', 'FSM definition files (JSON)')
    .option('--strict', 'treat warnings (unreachable or dead states, unused symbols) as problems', false)
    .addHelpText('after', '\nExample:\n  ratchet fsm check protocols/fdc.fsm.json examples/fsm/broken.fsm.json')
    .action(action(() => import('./commands/fsm-check.js')));

  fsm
    .command('render')
    .description('draw an FSM as a Mermaid stateDiagram-v2 or a Graphviz DOT graph')
    .argument('<file>', 'FSM definition file (JSON)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['mermaid', 'dot']).default('mermaid'))
    .addHelpText('after', '\nExample:\n  ratchet fsm render protocols/orchestrator.fsm.json --format dot | dot -Tsvg > lifecycle.svg')
    .action(action(() => import('./commands/fsm-render.js')));

  fsm
    .command('accept')
    .description('run a sequence of symbols through an FSM; exit 0 if it is accepted, 1 if not (saying where and what was legal)')
    .argument('<file>', 'FSM definition file (JSON)')
    .argument('[symbol...]', 'the symbols, in order')
    .option('--from-file <path>', 'read the symbols from a file (whitespace or newline separated; "-" for stdin)')
    .addHelpText(
      'after',
      '\nExamples:\n  ratchet fsm accept protocols/fdc.fsm.json plan_op step_op write_op close_op\n  ratchet fsm accept protocols/fdc.fsm.json --from-file symbols.txt',
    )
    .action(action(() => import('./commands/fsm-accept.js')));

  const plan = program
    .command('plan')
    .description('lint, analyze and register plans: one command per line, checked before anything runs');
  const planOptions = (cmd: Command): Command =>
    cmd
      .option('--root <dir>', 'project root: seeds the simulated file system, confines call_plan paths (default: --cwd)')
      .option('--dialect <file>', 'command -> FSM symbol mapping (default: protocols/fdc.dialect.json, else the bundled one)')
      .option('--registry <file>', 'plan registry, relative to the root', 'knowledge_core/plan_registry.json');

  planOptions(
    plan
      .command('lint')
      .description('report every problem in a plan and its sub-plans: FSM order, closure, files, call_plan (exit 1 on errors)')
      .argument('<plan>', 'the plan file')
      .option('--fsm <file>', "check against this plan FSM instead of the dialect's (it may know fewer commands; one whose alphabet is whole plan lines, like the original's first fdc_fsm.json, is read line by line)")
      .addOption(new Option('-f, --format <format>', 'output format').choices(['stylish', 'json', 'sarif']).default('stylish')),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  ratchet plan lint plan.txt\n  ratchet plan lint plan.txt --format sarif > plan-lint.sarif   # GitHub code scanning',
    )
    .action(action(() => import('./commands/plan-lint.js')));

  planOptions(
    plan
      .command('analyze')
      .description('complexity class by loop nesting (Constant / Polynomial / Exponential) and modality (Read-Only / Read-Write)')
      .argument('<plan>', 'the plan file'),
  )
    .addHelpText('after', '\nExample:\n  ratchet plan analyze plan.txt')
    .action(action(() => import('./commands/plan-analyze.js')));

  plan
    .command('fmt')
    .description('print a plan in the one canonical grammar (one command per line), also when written in the block grammar (--- separators); --write rewrites the file')
    .argument('<plan>', 'the plan file')
    .option('--write', 'rewrite the file in place (atomically; only when it changes)', false)
    .addHelpText(
      'after',
      '\nA plan with a syntax error is refused with its line and column (exit 2) and never rewritten.\n\nExamples:\n  ratchet plan fmt plan.txt            # print the one-line form\n  ratchet plan fmt plan.txt --write    # convert a plan_parser.py block plan in place',
    )
    .action(action(() => import('./commands/plan-fmt.js')));

  const registry = plan.command('registry').description('logical names for plans, resolved first by call_plan');
  registry
    .command('register')
    .description('add a plan under a name (the plan must exist inside the project); --force replaces')
    .argument('<name>', 'logical name, e.g. deep-research')
    .argument('<path>', 'the plan file, inside the project')
    .option('--force', 'replace an existing entry of the same name', false)
    .option('--registry <file>', 'plan registry, relative to --cwd', 'knowledge_core/plan_registry.json')
    .action(action(() => import('./commands/plan-registry.js'), 'register'));
  registry
    .command('deregister')
    .description('remove a plan name')
    .argument('<name>', 'logical name')
    .option('--registry <file>', 'plan registry, relative to --cwd', 'knowledge_core/plan_registry.json')
    .action(action(() => import('./commands/plan-registry.js'), 'deregister'));
  registry
    .command('list')
    .description('list registered plans')
    .option('--registry <file>', 'plan registry, relative to --cwd', 'knowledge_core/plan_registry.json')
    .action(action(() => import('./commands/plan-registry.js'), 'list'));

  program
    .command('init')
    .description("add Ratchet's files (protocol FSMs and dialects, the protocol set `ratchet protocol compile` turns into AGENTS.md, state directory) to an existing repository; never overwrites")
    .option('--dry-run', 'list what would be created without writing', false)
    .option(
      '--claude',
      "also set up Claude Code (merged into .claude/settings.json and .mcp.json, never overwriting a value you set): the sandbox keeps Ratchet's files read-only to the agent's shell, Claude Code's file tools are denied them, the agent acts through Ratchet's MCP tools, and the hooks call `ratchet hook <event>` (hooks and MCP server come from the plugin instead when it is enabled)",
      false,
    )
    .option(
      '--reasoning-flow [flow]',
      'run a flow before every prompt the agent gets (the seed\'s reasoning protocol, nine steps, by default; a prompt starting with "-b " skips it): ' +
        'the prompt hook starts it and Stop waits until it is advanced. Off unless chosen; it costs context on every prompt (see the README). Written as hooks.reasoningFlow in ratchet.config.json',
    )
    .option('--no-reasoning-flow', 'write hooks.reasoningFlow: false (prompts start no flow; the default)')
    .addOption(
      new Option('--harness <name>', "also write that agent CLI's repository configuration for Ratchet's hooks (merged, idempotent; repeatable): claude, codex, gemini, copilot, opencode")
        .argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), ...value.split(',').map((v) => v.trim()).filter((v) => v !== '')])
        .default(undefined),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  cd my-repo && ratchet init && ratchet protocol compile\n  ratchet init --claude --dry-run   # what it would add to .claude/settings.json and .mcp.json\n  ratchet init --claude             # then start `claude` in the repository\n' +
        '  ratchet init --harness codex --harness gemini   # .codex/ and .gemini/ hooks, each CLI\'s sandbox over Ratchet\'s state\n' +
        '  ratchet init --claude --reasoning-flow          # every prompt first runs the reasoning protocol (the seed\'s behaviour)\n\n' +
        'Each agent CLI runs repository hooks only after a trust step of its own (init says which, once); `ratchet doctor` warns\nwhen it can see hooks configured but not trusted.',
    )
    .action(action(() => import('./commands/init.js')));

  program
    .command('quickstart')
    .description('show what Ratchet does end to end, in a fresh directory, on the bundled examples')
    .option('--dir <dir>', 'directory to use (must be empty or absent; default: a new temporary directory)')
    .addHelpText('after', '\nExample:\n  ratchet quickstart --dir /tmp/ratchet-tour')
    // The tour runs every area's commands in process: only the full bundle has them (areas.ts).
    .action(action(process.env.RATCHET_BUNDLE_AREA === undefined ? () => import('./commands/quickstart.js') : notBundled('quickstart')));

  program
    .command('completion')
    .description('print a shell completion script for ratchet (subcommands, options and their values at every level), generated from the command tree')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .addHelpText(
      'after',
      '\nExamples:\n  source <(ratchet completion bash)                     # this shell; add the line to ~/.bashrc to keep it\n' +
        '  ratchet completion zsh > "${fpath[1]}/_ratchet"      # zsh, then restart it (compinit)\n' +
        '  ratchet completion fish > ~/.config/fish/completions/ratchet.fish',
    )
    // The script describes every area's commands: the full program builds it (whole-program.ts).
    .action(action(() => import('./commands/completion.js')));

  const core = new Set(program.commands.map((c) => c.name()));
  const registers = await Promise.all(areasFor(argv, core).map((area) => area.load()));
  for (const register of registers) register(program, action);

  return program;
}

/** The command's words below the program (`campaign ready`). */
function commandPath(command: Command): string {
  const words: string[] = [];
  for (let c: Command | null = command; c !== null && c.parent !== null; c = c.parent) words.unshift(c.name());
  return words.join(' ');
}

/** commander passes variadic arguments as arrays; commands receive one flat list of positionals. */
function flattenArgs(values: unknown[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    if (Array.isArray(value)) out.push(...value.map(String));
    else if (typeof value === 'string') out.push(value);
  }
  return out;
}

async function resolveCwd(io: Io, dir: string | undefined): Promise<string> {
  if (dir === undefined) return io.cwd;
  const target = resolve(io.cwd, dir);
  const isDirectory = await stat(target).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDirectory) throw new CliError(`--cwd ${dir}: not a directory`, { code: 'bad-cwd' });
  return target;
}
