// `ratchet hook` start-up: Claude Code runs pre-tool-use on every tool call and stop at every turn's
// end, so both are measured side by side with `node -e 0` (fed the same payload on stdin) in one
// interleaved run, as medians and ratios. The project has a task executing a plan, so pre-tool-use
// reads the session, the config and the dialect, and stop finds an obligation and records a block;
// a second project has this session's reasoning flows (the reasoning gate reads them on every write).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleavedMedians } from './lib/interleave.mjs';
import { bin, executingProject, root } from './lib/hook-project.mjs';

const runs = Number(process.env.RATCHET_BENCH_RUNS ?? 40);
const project = executingProject('ratchet-bench-hook-');

// A second project for the reasoning gate: this Claude Code session's earlier prompts each reasoned and
// started their routed skill (three reasoning and three skill sessions remembered), and the newest
// prompt's reasoning is open, so a Write reads the hook memory and seven flow sessions and is denied.
const gated = mkdtempSync(join(tmpdir(), 'ratchet-bench-gate-'));
const inGated = (...args) => {
  const r = spawnSync(process.execPath, [bin, ...args, '--quiet', '--cwd', gated], { encoding: 'utf8', env: { ...process.env, CLAUDE_PROJECT_DIR: gated } });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
};
inGated('init');
const gateBase = { session_id: 'bench-session-0002', transcript_path: join(gated, 't.jsonl'), cwd: gated };
const remember = (command, session = gateBase.session_id) => {
  const r = spawnSync(process.execPath, [bin, 'hook', 'post-tool-use'], { input: JSON.stringify({ ...gateBase, session_id: session, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command }, tool_response: { exitCode: 0 } }), encoding: 'utf8', env: { ...process.env, CLAUDE_PROJECT_DIR: gated } });
  if (r.status !== 0) throw new Error(`post-tool-use exited ${r.status}: ${r.stderr}`);
};
const reasoning = JSON.parse(readFileSync(join(root, 'protocols/flows/reasoning.flow.json'), 'utf8'));
for (const n of [1, 2, 3, 4]) {
  const id = `r${n}`;
  inGated('flow', 'start', 'reasoning', '--session', id, '--input', `query=request ${n}`);
  remember(`ratchet flow start reasoning --session ${id}`);
  if (n === 4) break;
  for (const [i, step] of reasoning.steps.entries()) {
    const out = join(gated, `out-${n}-${i}.md`);
    writeFileSync(out, step.output.headings.map((h) => `${h}\n\n${'What this step worked out for the request, in full. '.repeat(4)}(${n}.${i})\n`).join('\n'));
    inGated('flow', 'advance', '--session', id, '--output', out, ...(step.id === '4' ? ['--set', 'route=develop-feature', '--set', 'confidence=HIGH'] : []));
  }
  inGated('flow', 'start', 'develop-feature', '--session', `${id}-develop-feature`, '--input', `task=${id}`);
  remember(`ratchet flow start develop-feature --session ${id}-develop-feature`);
  // Another Claude Code session whose prompts all reasoned and started their skills: nothing holds, every session is read.
  remember(`ratchet flow start reasoning --session ${id}`, 'bench-session-0003');
  remember(`ratchet flow start develop-feature --session ${id}-develop-feature`, 'bench-session-0003');
}
const gatedWrite = JSON.stringify({ ...gateBase, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(gated, 'src/a.js'), content: 'export {};\n' }, tool_use_id: 'toolu_2' });
const releasedWrite = JSON.stringify({ ...gateBase, session_id: 'bench-session-0003', hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(gated, 'src/a.js'), content: 'export {};\n' }, tool_use_id: 'toolu_3' });

const base = { session_id: 'bench-session-0001', transcript_path: join(project, 't.jsonl'), cwd: project, permission_mode: 'acceptEdits' };
const preToolUse = JSON.stringify({ ...base, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(project, 'src/a.js'), content: 'export {};\n' }, tool_use_id: 'toolu_1' });
const stop = JSON.stringify({ ...base, hook_event_name: 'Stop', stop_hook_active: false });

const env = { ...process.env, CLAUDE_PROJECT_DIR: project };
const commands = {
  node: [['-e', '0'], preToolUse],
  preToolUse: [[bin, 'hook', 'pre-tool-use'], preToolUse],
  stop: [[bin, 'hook', 'stop'], stop],
  preToolUseReasoning: [[bin, 'hook', 'pre-tool-use'], gatedWrite, { ...process.env, CLAUDE_PROJECT_DIR: gated }],
  preToolUseReleased: [[bin, 'hook', 'pre-tool-use'], releasedWrite, { ...process.env, CLAUDE_PROJECT_DIR: gated }],
};

const time = ([args, input, ownEnv], check) => {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, env: ownEnv ?? env, encoding: 'utf8' });
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
  // The newest reasoning session is open: the Write is denied, naming it.
  preToolUseReasoning: (out) => {
    if (!out.includes('reasoning flow session r4 is EXECUTING')) throw new Error(`pre-tool-use did not deny for the reasoning: ${out}`);
  },
  // Every route was started: the Write goes through, after reading six flow sessions and three routes.
  preToolUseReleased: (out) => {
    if (out !== '') throw new Error(`pre-tool-use answered ${out}`);
  },
};
const med = interleavedMedians(Object.keys(commands), runs, (k) => time(commands[k], checks[k]));
const result = {
  runs,
  medianMs: Object.fromEntries(Object.entries(med).map(([k, v]) => [k, Number(v.toFixed(1))])),
  preToolUseRatio: Number((med.preToolUse / med.node).toFixed(3)),
  stopRatio: Number((med.stop / med.node).toFixed(3)),
  preToolUseReasoningRatio: Number((med.preToolUseReasoning / med.node).toFixed(3)),
  preToolUseReleasedRatio: Number((med.preToolUseReleased / med.node).toFixed(3)),
  limits: { preToolUseRatio: 1.4, stopRatio: 1.5, preToolUseReasoningRatio: 1.4, preToolUseReleasedRatio: 1.4 },
};
result.pass = Object.entries(result.limits).every(([k, limit]) => result[k] <= limit);
console.log(JSON.stringify(result));
process.exitCode = result.pass ? 0 : 1;
