/**
 * `ratchet hook <event>`: answer one Claude Code hook (the plugin's hooks.json and `ratchet init
 * --claude` call it). The bin answers `ratchet hook <event>` on a fast path (src/hook-main.ts);
 * this definition gives it help text and serves every other form (`--cwd`, `--help`).
 */
import { Argument, Option } from 'commander';
import type { RegisterArea } from '../../areas.js';
import { HARNESSES } from '../../hook/events.js';
import { HOOK_EVENTS } from '../../hook/payload.js';

export const registerHook: RegisterArea = (program, action) => {
  program
    .command('hook')
    .description('answer an agent CLI\'s hook (Claude Code by default): reads its JSON payload on stdin, prints the answer (deny a tool, block a stop, add context); errors fail open')
    .addArgument(new Argument('<event>', 'the hook event').choices([...HOOK_EVENTS]))
    .addOption(new Option('--harness <name>', 'the agent CLI that calls: its payload is read and the answer written in its format').choices([...HARNESSES]).default('claude'))
    .addHelpText(
      'after',
      `
What each event does:
  session-start       context: the task's state and next command, open flows, claims, locks, turn assess, pending lessons
  user-prompt-submit  with hooks.reasoningFlow set (ratchet init --reasoning-flow): starts that flow for the prompt
                      (a prompt starting with "-b " skips it); otherwise adds nothing
  pre-tool-use        denies writes to Ratchet's state, file writes before a plan is accepted, tools outside the plan step
  post-tool-use       appends the tool call to logs/activity.log.jsonl
  stop, subagent-stop blocks stopping while a task, flow, claim or JIXO lock of this session is open

Harnesses (--harness): claude (default), codex, gemini, copilot, opencode. Each names these events its own way
(Gemini: BeforeTool, AfterAgent, ...; Copilot: preToolUse, agentStop, ...); its configuration calls
\`ratchet hook <event> --harness <name>\` with Ratchet's names, and gets the answer in its own format.

Settings: ratchet.config.json, section "hooks" (strictness off|warn|enforce, maxStopBlocks, reasoningFlow,
bypassPrefix, planningWrites). Wire it with the Claude Code plugin, \`ratchet init --claude\`, or
\`ratchet init --harness <name>\` for the other agent CLIs.

Examples:
  echo '{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":".ratchet/session.json"},"cwd":"."}' | ratchet hook pre-tool-use
  echo '{"toolName":"bash","toolArgs":{"command":"rm -rf .ratchet"},"cwd":"."}' | ratchet hook pre-tool-use --harness copilot`,
    )
    .action(action(() => import('./run.js')));
};
