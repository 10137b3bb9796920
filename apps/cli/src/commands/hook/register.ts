/**
 * `ratchet hook <event>`: answer one Claude Code hook (the plugin's hooks.json and `ratchet init
 * --claude` call it). The bin answers `ratchet hook <event>` on a fast path (src/hook-main.ts);
 * this definition gives it help text and serves every other form (`--cwd`, `--help`).
 */
import { Argument } from 'commander';
import type { RegisterArea } from '../../areas.js';
import { HOOK_EVENTS } from '../../hook/payload.js';

export const registerHook: RegisterArea = (program, action) => {
  program
    .command('hook')
    .description('answer a Claude Code hook: reads its JSON payload on stdin, prints the answer (deny a tool, block a stop, add context); errors fail open')
    .addArgument(new Argument('<event>', 'the hook event').choices([...HOOK_EVENTS]))
    .addHelpText(
      'after',
      `
What each event does:
  session-start       context: the task's state and next command, open flows, claims, locks, turn assess, pending lessons
  user-prompt-submit  starts the reasoning flow for the prompt (a prompt starting with "-b " skips it)
  pre-tool-use        denies writes to Ratchet's state, file writes before a plan is accepted, tools outside the plan step
  post-tool-use       appends the tool call to logs/activity.log.jsonl
  stop, subagent-stop blocks stopping while a task, flow, claim or JIXO lock of this session is open

Settings: ratchet.config.json, section "hooks" (strictness off|warn|enforce, maxStopBlocks, reasoningFlow,
bypassPrefix, planningWrites). Wire it into Claude Code with the Ratchet plugin or \`ratchet init --claude\`.

Example:
  echo '{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":".ratchet/session.json"},"cwd":"."}' | ratchet hook pre-tool-use`,
    )
    .action(action(() => import('./run.js')));
};
