// `ratchet hook` start-up: Claude Code runs pre-tool-use on every tool call and stop at every turn's
// end, so both are measured side by side with `node -e 0` (fed the same payload on stdin) in one
// interleaved run, as medians and ratios. The project has a task executing a plan, so pre-tool-use
// reads the session, the config and the dialect, and stop finds an obligation and records a block.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { interleavedMedians } from './lib/interleave.mjs';
import { bin, executingProject } from './lib/hook-project.mjs';

const runs = Number(process.env.RATCHET_BENCH_RUNS ?? 40);
const project = executingProject('ratchet-bench-hook-');

const base = { session_id: 'bench-session-0001', transcript_path: join(project, 't.jsonl'), cwd: project, permission_mode: 'acceptEdits' };
const preToolUse = JSON.stringify({ ...base, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(project, 'src/a.js'), content: 'export {};\n' }, tool_use_id: 'toolu_1' });
const stop = JSON.stringify({ ...base, hook_event_name: 'Stop', stop_hook_active: false });

const env = { ...process.env, CLAUDE_PROJECT_DIR: project };
const commands = {
  node: [['-e', '0'], preToolUse],
  preToolUse: [[bin, 'hook', 'pre-tool-use'], preToolUse],
  stop: [[bin, 'hook', 'stop'], stop],
};

const time = ([args, input], check) => {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0 || r.stderr !== '') throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  check?.(r.stdout);
  return ms;
};
const checks = {
  // The Write belongs to the current step: no answer. The stop is blocked (the task is open).
  preToolUse: (out) => {
    if (out !== '') throw new Error(`pre-tool-use answered ${out}`);
  },
  stop: (out) => {
    if (!out.includes('"decision":"block"')) throw new Error(`stop did not block: ${out}`);
  },
};
const med = interleavedMedians(Object.keys(commands), runs, (k) => time(commands[k], checks[k]));
const result = {
  runs,
  medianMs: Object.fromEntries(Object.entries(med).map(([k, v]) => [k, Number(v.toFixed(1))])),
  preToolUseRatio: Number((med.preToolUse / med.node).toFixed(3)),
  stopRatio: Number((med.stop / med.node).toFixed(3)),
  limits: { preToolUseRatio: 1.4, stopRatio: 1.5 },
};
result.pass = Object.entries(result.limits).every(([k, limit]) => result[k] <= limit);
console.log(JSON.stringify(result));
process.exitCode = result.pass ? 0 : 1;
