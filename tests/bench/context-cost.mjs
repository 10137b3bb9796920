#!/usr/bin/env node
// What Ratchet puts into the context of the agent it governs, on a fresh project (`git init`,
// `ratchet init`, `ratchet protocol compile`), in o200k tokens (gpt-tokenizer's bundled ranks), run
// after `pnpm build`:
// 1. AGENTS.md, read at the start of every session: the compact block (the default) against the full
//    one (`--detail full`, the whole text as before compact existed), measured in the same run.
// 2. The hooks' context: `ratchet hook session-start` plus the first `user-prompt-submit` (their
//    whole stdout, the JSON Claude Code reads), by default and with `ratchet init --reasoning-flow`.
// 3. With the reasoning flow on, what one prompt costs until its work may start: the prompt's
//    directive plus the output of every `ratchet flow advance` through the nine steps, and the calls.
// Exits 1 when AGENTS.md passes 4,000 tokens or the default hook context passes 1,000.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'apps/cli/bin/ratchet.js');
const AGENTS_LIMIT = 4000;
const HOOK_LIMIT = 1000;
const SESSION = '0badc0de-0000-4000-8000-000000000001';

function ratchet(args, cwd, input) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', input, env: { ...process.env, CLAUDE_PROJECT_DIR: cwd, RATCHET_RUNNER: '', NO_COLOR: '1' } });
  if (r.status !== 0) throw new Error(`ratchet ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r.stdout;
}

function fresh(initArgs) {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-context-'));
  spawnSync('git', ['init', '-q'], { cwd: dir });
  ratchet(['init', '--quiet', ...initArgs], dir);
  ratchet(['protocol', 'compile', '--quiet'], dir);
  return dir;
}

const tokens = (text) => o200k(text).length;
const hook = (dir, event, payload) => ratchet(['hook', event], dir, JSON.stringify({ session_id: SESSION, transcript_path: join(dir, 't.jsonl'), cwd: dir, ...payload }));
const round = (x) => Math.round(x * 1000) / 1000;

const dirs = [];
try {
  const plain = fresh([]);
  dirs.push(plain);
  const compact = tokens(readFileSync(join(plain, 'AGENTS.md'), 'utf8'));
  ratchet(['protocol', 'compile', '--detail', 'full', '--quiet'], plain);
  const full = tokens(readFileSync(join(plain, 'AGENTS.md'), 'utf8'));
  const start = tokens(hook(plain, 'session-start', { hook_event_name: 'SessionStart', source: 'startup' }));
  const prompt = tokens(hook(plain, 'user-prompt-submit', { hook_event_name: 'UserPromptSubmit', prompt: 'add a login page' }));

  const reasoning = fresh(['--reasoning-flow']);
  dirs.push(reasoning);
  const startOn = tokens(hook(reasoning, 'session-start', { hook_event_name: 'SessionStart', source: 'startup' }));
  const promptOn = tokens(hook(reasoning, 'user-prompt-submit', { hook_event_name: 'UserPromptSubmit', prompt: 'add a login page' }));
  // Advance the prompt's reasoning session step by step, as a compliant agent does, and count.
  const flow = JSON.parse(readFileSync(join(root, 'protocols/flows/reasoning.flow.json'), 'utf8'));
  const session = `cc-${SESSION.replace(/[^A-Za-z0-9]/g, '').slice(0, 8)}-1`;
  mkdirSync(join(reasoning, 'plans'), { recursive: true });
  let advanceTokens = 0;
  let calls = 0;
  for (let i = 0; i < 30; i++) {
    const state = JSON.parse(readFileSync(join(reasoning, `.ratchet/flows/${session}.json`), 'utf8'));
    if (state.status !== 'EXECUTING') break;
    const step = flow.steps.find((s) => s.id === state.current);
    const file = join(reasoning, `plans/step-${i}.md`);
    writeFileSync(file, step.output.headings.map((h) => `${h}\n\n${'What this step worked out for the login page, in enough words to count. '.repeat(4)}(${i})\n`).join('\n'));
    const extra = step.id === '4' ? ['--set', 'route=develop-feature', '--set', 'confidence=HIGH'] : [];
    advanceTokens += tokens(ratchet(['flow', 'advance', '--session', session, '--output', file, ...extra], reasoning));
    calls++;
  }

  const defaultHook = start + prompt;
  const result = {
    agentsMdCompactTokens: compact,
    agentsMdFullTokens: full,
    agentsMdRatio: round(compact / full),
    hookDefaultTokens: defaultHook,
    hookSessionStartTokens: start,
    hookFirstPromptTokens: prompt,
    hookWithReasoningTokens: startOn + promptOn,
    reasoningPromptTokens: promptOn,
    reasoningAdvanceCalls: calls,
    reasoningAdvanceTokens: advanceTokens,
    reasoningPerPromptTokens: promptOn + advanceTokens,
    hookRatioDefaultToReasoning: round(defaultHook / (startOn + promptOn)),
    pass: compact <= AGENTS_LIMIT && defaultHook <= HOOK_LIMIT,
  };
  console.log(JSON.stringify(result));
  if (!result.pass) process.exitCode = 1;
} finally {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
