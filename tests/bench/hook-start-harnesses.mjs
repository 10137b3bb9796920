// `ratchet hook <event> --harness <name>` start-up for every agent CLI Ratchet binds: the same
// fast path as Claude Code's hooks plus the harness's adapter (its payload read, its answer
// written). Each harness's pre-tool-use (every tool call) and stop (every turn's end) run side by
// side with `node -e 0` (fed the same payload) in one interleaved run, as medians and ratios. The
// project has a task executing a plan, so pre-tool-use reads the session, the config and the
// dialect and lets the step's own write through; stop finds the open task and blocks.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { interleavedMedians } from './lib/interleave.mjs';
import { bin, executingProject } from './lib/hook-project.mjs';

const runs = Number(process.env.RATCHET_BENCH_RUNS ?? 30);
const project = executingProject('ratchet-bench-harness-hook-');

const file = join(project, 'src/a.js');
/** Each harness's own payloads (the shapes captured from the real CLIs), writing the step's file. */
const payloads = {
  claude: {
    pre: { session_id: 'bench-claude', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: file, content: 'export {};\n' } },
    stop: { session_id: 'bench-claude', cwd: project, hook_event_name: 'Stop', stop_hook_active: false },
  },
  codex: {
    pre: { session_id: 'bench-codex', turn_id: 't', cwd: project, hook_event_name: 'PreToolUse', model: 'gpt-5.5', permission_mode: 'default', tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch\n*** Add File: src/a.js\n+export {};\n*** End Patch\n' }, tool_use_id: 'call_1' },
    stop: { session_id: 'bench-codex', turn_id: 't', cwd: project, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' },
  },
  gemini: {
    pre: { session_id: 'bench-gemini', cwd: project, hook_event_name: 'BeforeTool', timestamp: '2026-01-01T00:00:00.000Z', tool_name: 'write_file', tool_input: { file_path: file, content: 'export {};\n' } },
    stop: { session_id: 'bench-gemini', cwd: project, hook_event_name: 'AfterAgent', prompt: 'go', prompt_response: 'done', stop_hook_active: false },
  },
  copilot: {
    pre: { sessionId: 'bench-copilot', timestamp: 1, cwd: project, toolName: 'create', toolArgs: { path: file, file_text: 'export {};\n' } },
    stop: { sessionId: 'bench-copilot', timestamp: 1, cwd: project, stopReason: 'end_turn', stop_hook_active: false },
  },
  opencode: {
    pre: { event: 'pre-tool-use', directory: project, tool: 'write', sessionID: 'bench-opencode', callID: 'c1', args: { filePath: file, content: 'export {};\n' } },
    stop: { event: 'stop', directory: project, sessionID: 'bench-opencode', stopHookActive: false },
  },
};

const time = ([args, input], check) => {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0 || r.stderr !== '') throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  check?.(r.stdout);
  return ms;
};
// The step's write goes through (no answer); the stop is blocked, in the harness's own format.
const check = (name) => (out) => {
  if (name.endsWith('.preToolUse') && out !== '') throw new Error(`${name} answered ${out}`);
  if (name.endsWith('.stop') && !/"decision":"(block|deny)"/.test(out)) throw new Error(`${name} did not block: ${out}`);
};

// Two interleaved runs, each with its own `node -e 0`: the stops write their block record with
// fsync, whose writeback slows whichever process follows, so pre-tool-use never runs beside them.
const flag = (harness) => (harness === 'claude' ? [] : ['--harness', harness]);
const limits = { preToolUse: 1.4, stop: 1.5 };
const ratios = {};
const medianMs = {};
for (const [event, hook] of [['preToolUse', 'pre-tool-use'], ['stop', 'stop']]) {
  const commands = { node: [['-e', '0'], JSON.stringify(payloads.claude[event === 'stop' ? 'stop' : 'pre'])] };
  for (const [harness, p] of Object.entries(payloads)) commands[`${harness}.${event}`] = [[bin, 'hook', hook, ...flag(harness)], JSON.stringify(event === 'stop' ? p.stop : p.pre)];
  const med = interleavedMedians(Object.keys(commands), runs, (k) => time(commands[k], check(k)));
  for (const [k, v] of Object.entries(med)) medianMs[k === 'node' ? `node (${event} run)` : k] = Number(v.toFixed(1));
  for (const harness of Object.keys(payloads)) ratios[`${harness}.${event}`] = Number((med[`${harness}.${event}`] / med.node).toFixed(3));
}
const result = { runs, medianMs, ratios, limits };
result.pass = Object.entries(ratios).every(([k, ratio]) => ratio <= limits[k.split('.')[1]]);
console.log(JSON.stringify(result));
process.exitCode = result.pass ? 0 : 1;
