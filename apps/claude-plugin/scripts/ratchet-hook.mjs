#!/usr/bin/env node
// The plugin's hook entry: find @ratchet/cli (see locate.mjs) and run `ratchet hook <event>` in this
// same process (one node start-up per hook: hooks run on every tool call), as its bin would. All
// decisions live in `ratchet hook`.
//
// Fail closed: in a Ratchet project (a `.ratchet/` directory or a ratchet.config.json at or above
// the project directory), a CLI that cannot be found or run refuses tool calls that may write and
// blocks the stop, telling the model (and through it the user) how to install it or set
// RATCHET_CLI. `"hooks": {"cliMissing": "allow"}` in ratchet.config.json lets them through instead.
// Outside Ratchet projects the plugin stays silent.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI, cliMissingPolicy, locate, ratchetProject } from './locate.mjs';

const note = (message) => process.stderr.write(`ratchet plugin: ${message}\n`);
/** Tools that only read: a missing CLI does not stop the agent from looking. */
const READ_ONLY = new Set(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead', 'WebFetch', 'WebSearch', 'TodoWrite', 'Task', 'Agent', 'BashOutput', 'ExitPlanMode', 'AskUserQuestion']);

function payload() {
  try {
    return JSON.parse(readFileSync(0, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * Claude Code's name for a Ratchet event, as this plugin's hooks/hooks.json declares it (generated
 * from the CLI's one event table): the key whose command ends with the event. Read only on this
 * failure path.
 */
function claudeEventName(event) {
  const { hooks } = JSON.parse(readFileSync(new URL('../hooks/hooks.json', import.meta.url), 'utf8'));
  return Object.keys(hooks).find((name) => hooks[name].some((g) => g.hooks.some((h) => h.command.endsWith(` ${event}`))));
}

/** The answer Ratchet cannot give, given by the plugin: refuse what may write, hold the stop once. */
function refuse(event, why) {
  const project = ratchetProject(process.env.CLAUDE_PROJECT_DIR || process.cwd());
  if (!project) return 0;
  if (cliMissingPolicy(project) === 'allow') {
    note(`${why}; ${event} not checked (hooks.cliMissing is "allow")`);
    return 0;
  }
  const reason =
    `Ratchet: this project uses Ratchet, but its hooks cannot run: ${why}. Nothing that may write is allowed until they can. ` +
    'Ask the user to install it (`npm install -D @ratchet/cli` in the project, or `npm install -g @ratchet/cli`) or to set RATCHET_CLI to its bin ' +
    '(ratchet.js) or to a script that runs it; or to set "hooks": {"cliMissing": "allow"} in ratchet.config.json.';
  if (event === 'pre-tool-use') {
    const input = payload();
    if (READ_ONLY.has(input.tool_name)) return 0;
    process.stdout.write(`${JSON.stringify({ hookSpecificOutput: { hookEventName: claudeEventName(event), permissionDecision: 'deny', permissionDecisionReason: reason } })}\n`);
  } else if (event === 'stop' || event === 'subagent-stop') {
    // Once per stop: a second Stop (stop_hook_active) goes through, so a missing CLI never loops.
    if (payload().stop_hook_active !== true) process.stdout.write(`${JSON.stringify({ decision: 'block', reason })}\n`);
  } else if (event === 'session-start' || event === 'user-prompt-submit') {
    process.stdout.write(`${JSON.stringify({ hookSpecificOutput: { hookEventName: claudeEventName(event), additionalContext: reason } })}\n`);
  } else note(why);
  return 0;
}

const event = process.argv[2];
if (!event) {
  note('usage: ratchet-hook.mjs <event>; nothing checked');
} else {
  const notes = [];
  const cli = locate(CLI, process.env, process.env.CLAUDE_PROJECT_DIR || process.cwd(), notes);
  for (const n of notes) note(n);
  if (!cli) {
    process.exitCode = refuse(event, `${CLI.name} was not found (not in RATCHET_CLI, the project's node_modules, or on PATH)`);
  } else {
    try {
      const args = ['hook', event];
      // The bin's fast path, as bin/ratchet.js takes it: the event's own start-up file (no command
      // tree; dist/hooks/<event>.cjs run with the CLI's code cache, or an ES module
      // dist/hooks/<event>.js, which is all an older CLI has), else the full program.
      const key = event.toLowerCase().replace(/[-_]/g, '');
      const perCall = join(cli, 'dist', 'hooks', `${key}.cjs`);
      const fast = join(cli, 'dist', 'hooks', `${key}.js`);
      let code;
      if (/^[a-z]{1,32}$/.test(key) && existsSync(perCall)) code = await (await import(pathToFileURL(join(cli, 'bin', 'compile-cache.js')).href)).runHook(perCall, key, undefined);
      else if (/^[a-z]{1,32}$/.test(key) && existsSync(fast)) code = await (await import(pathToFileURL(fast).href)).main();
      if (code === undefined) code = await (await import(pathToFileURL(join(cli, 'dist', 'main.js')).href)).run(args);
      // Exit 2 would make Claude Code treat stderr as a refusal: `ratchet hook` never returns it, and a
      // version without `hook` (a usage error) must not block every tool call.
      process.exitCode = code === 2 ? 1 : code;
    } catch (err) {
      process.exitCode = refuse(event, `${cli} failed to run (${err instanceof Error ? err.message : String(err)})`);
    }
  }
}
