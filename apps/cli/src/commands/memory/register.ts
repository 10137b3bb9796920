/**
 * `ratchet memory ...`: failure and pattern memory (@ratchet/memory). Definitions only; each action
 * loads its implementation lazily, so registering the area costs nothing at start-up.
 */
import { Option, type Command } from 'commander';
import type { RegisterArea } from '../../areas.js';

const fileOption = (cmd: Command): Command => cmd.option('--file <path>', 'the memory file, relative to --cwd (with a shared store, RATCHET_STORE=postgres://..., the key of memory in the database)', '.ratchet/memory.json');

export const registerMemory: RegisterArea = (program, action) => {
  const memory = program
    .command('memory')
    .description('remember what failed and what worked, and recall it by topic: ranked by relevance, cost, feedback and age')
    .addHelpText(
      'after',
      '\nThe memory file is .ratchet/memory.json (change it with --file); with a shared store (RATCHET_STORE=postgres://... or ratchet.config.json "store") memory is that key in the database, shared by every machine. Queries never write unless you pass --record.\n\nExamples:\n  ratchet memory add-failure --trigger "ModuleNotFoundError: No module named requests" --fix "install it in the venv" --cost 2000\n  ratchet memory query "pytest fails with No module named requests"\n  ratchet memory feedback module-not-found-requests --helped',
    );

  fileOption(
    memory
      .command('add-failure')
      .description('remember a failure and how to avoid it; refused (exit 1) when a quality gate fails, merged when a near-duplicate exists')
      .requiredOption('--trigger <text>', 'what it looks like: the error message or symptom (at least 10 characters, specific)')
      .requiredOption('--fix <text>', 'how to avoid or repair it')
      .requiredOption('--cost <n>', 'what it cost (at least 100; FTL uses budget x 1000)')
      .option('--name <name>', 'a unique name (default: derived from the trigger)')
      .option('--match <regex>', 'a regular expression that, when it matches a query topic, makes this failure fully relevant (unsafe patterns are refused)')
      .option('--source <source...>', 'where it was learned (campaign, workspace, person)')
      .option('--tag <tag...>', 'labels to filter queries by'),
  )
    .addHelpText('after', '\nExample:\n  ratchet memory add-failure --trigger "EADDRINUSE: port 3000 already in use" --fix "kill the old dev server" --cost 1500 --match "EADDRINUSE.*:3000"')
    .action(action(() => import('./add.js'), 'failure'));

  fileOption(
    memory
      .command('add-pattern')
      .description('remember something that worked; refused (exit 1) when a quality gate fails, merged when a near-duplicate exists')
      .requiredOption('--trigger <text>', 'when it applies (at least 10 characters, specific)')
      .requiredOption('--insight <text>', 'what worked')
      .requiredOption('--saved <n>', 'what applying it saves (at least 100; FTL uses budget x 500)')
      .option('--name <name>', 'a unique name (default: derived from the trigger)')
      .option('--source <source...>', 'where it was learned')
      .option('--tag <tag...>', 'labels to filter queries by'),
  )
    .addHelpText('after', '\nExample:\n  ratchet memory add-pattern --trigger "mocking httpx in unit tests" --insight "use respx routes, not monkeypatch" --saved 1000')
    .action(action(() => import('./add.js'), 'pattern'));

  const queryOptions = (cmd: Command): Command =>
    fileOption(
      cmd
        .argument('<topic...>', 'what you are about to do, or the error you see')
        .option('--failures <n>', 'how many failures to return', '5')
        .option('--patterns <n>', 'how many patterns to return', '3')
        .option('--threshold <x>', 'minimum relevance, 0 to 1', '0.25')
        .option('--tag <tag...>', 'only entries with all these tags')
        .option('--retrieval <mode>', 'hybrid: BM25 fused with the semantic signal (built-in concepts, or the embedder of ratchet.config.json); bm25: lexical only', 'hybrid'),
    );

  queryOptions(memory.command('query').description('the failures and patterns relevant to a topic, tiered critical / productive / exploration, best first'))
    .option('--record', 'count this retrieval (access_count, last_accessed) in the memory file', false)
    .addHelpText('after', '\nExamples:\n  ratchet memory query "add token refresh to the auth middleware"\n  ratchet --json memory query "Error: listen EADDRINUSE 127.0.0.1:3000"')
    .action(action(() => import('./query.js'), 'query'));

  queryOptions(memory.command('explain').description("why entries rank as they do: each retrieval signal (BM25 per term, semantic per word, fused) and each factor (match, cost, help ratio, decay), and the product"))
    .option('--name <name>', 'explain this entry even if it was not returned')
    .addHelpText('after', '\nExample:\n  ratchet memory explain "pytest No module named requests" --name module-not-found-requests')
    .action(action(() => import('./query.js'), 'explain'));

  const outcome = new Option('--helped', 'it helped').conflicts('failed');
  fileOption(
    memory
      .command('feedback')
      .description('report whether a remembered entry helped or not; ranking uses (helped + 1) / (helped + failed + 2)')
      .argument('<name>', 'the entry')
      .addOption(outcome)
      .addOption(new Option('--failed', 'it did not help (or misled)').conflicts('helped')),
  )
    .addHelpText('after', '\nExamples:\n  ratchet memory feedback module-not-found-requests --helped\n  ratchet memory feedback flaky-redis-timeout --failed')
    .action(action(() => import('./feedback.js')));

  fileOption(
    memory
      .command('link')
      .description('relate two entries with a typed edge (its inverse is stored at the other end)')
      .argument('<from>', 'entry name')
      .argument('<to>', 'entry name')
      .addOption(new Option('--type <type>', 'relation').choices(['co_occurs', 'causes', 'caused_by', 'solves', 'solved_by', 'prerequisite', 'requires', 'variant']).makeOptionMandatory()),
  )
    .addHelpText('after', '\nExample:\n  ratchet memory link respx-mocking httpx-real-network --type solves')
    .action(action(() => import('./link.js')));

  fileOption(
    memory
      .command('related')
      .description('entries related to one, breadth first; path weight = product of edge weights (co_occurs 0.8, causes 1, solves 1.5, prerequisite 1, variant 0.7)')
      .argument('<name>', 'entry name')
      .option('--depth <n>', 'longest path', '3')
      .option('--min-weight <x>', 'drop paths whose weight product falls below this', '0.5'),
  )
    .addHelpText('after', '\nExample:\n  ratchet memory related httpx-real-network')
    .action(action(() => import('./related.js')));

  fileOption(
    memory
      .command('prune')
      .description('forget entries whose importance (value, age, access, feedback) fell below a threshold, and enforce the caps (500 failures, 200 patterns)')
      .option('--min-importance <x>', 'prune below this', '0.1')
      .option('--dry-run', 'list what would be removed without writing', false),
  )
    .addHelpText('after', '\nExample:\n  ratchet memory prune --dry-run')
    .action(action(() => import('./prune.js')));

  fileOption(
    memory
      .command('import')
      .description("merge an FTL memory.json into this memory: every entry through the quality gates and near-duplicate merging (exit 1 if some were refused)")
      .argument('<file>', "FTL's memory.json (no schemaVersion, FTL field names)"),
  )
    .addHelpText('after', '\nExample:\n  ratchet memory import ~/.ftl/memory.json')
    .action(action(() => import('./import.js')));

  fileOption(memory.command('stats').description('counts, caps, feedback totals, relations, what prune would remove, the most important entries'))
    .addHelpText('after', '\nExample:\n  ratchet --json memory stats')
    .action(action(() => import('./stats.js')));

  fileOption(
    memory
      .command('observe')
      .description("learn from a campaign's finished workspaces: blocked ones become failures, completed ones patterns (when they score enough), used entries get feedback")
      .argument('[campaign]', 'an archived campaign id (default: the active campaign)')
      .option('--verify', "re-run a blocked workspace's verify command first (a child process with a timeout): one that passes now is a false positive and is not learned")
      .option('--timeout-ms <ms>', 'per verify command (default 60000)')
      .option('--workspace-dir <dir>', "the active campaign's workspace directory, if `ratchet workspace` was given one (inside the project; default .ratchet/workspace)"),
  )
    .addHelpText('after', '\nExamples:\n  ratchet memory observe\n  ratchet memory observe auth-2026-11-22 --verify\n  ratchet memory observe --workspace-dir work/ws')
    .action(action(() => import('./observe.js')));
};
