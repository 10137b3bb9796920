#!/usr/bin/env node
// What Ratchet costs the agent it governs (issue 32), counted on a real session: the compliant
// scripted agent of tests/claude-code/compliant-agent.ts (the same session the test
// claude-code/agent-lifecycle.test.ts asserts) carries one small task from task_start to
// task_submit through Ratchet's MCP tools in the real Claude Code, sandbox on, the default `core` tools.
// The scripted model server records every request Claude Code sends, so the tokens are attributed
// from the request bodies (o200k_base, gpt-tokenizer's bundled ranks):
//   - tools: the `mcp__ratchet__*` entries of the tools array (sent with every request);
//   - hooks: the text Ratchet's hooks put in (SessionStart/UserPromptSubmit context, a PreToolUse
//     refusal, Stop feedback), without the <system-reminder> wrapper Claude Code adds;
//   - results: the tool_result blocks answering `mcp__ratchet__*` tool_use ids (without reminders
//     Claude Code appends);
//   - AGENTS.md: counted when its text reaches the model (Claude Code reads CLAUDE.md, not AGENTS.md).
// Baseline in the same run: everything else in the requests (Claude Code's system prompt and own
// tools, the prompt, the model's turns, other tool results), so Ratchet's share is a ratio.
// A second, short session sends the same prompt without `-b`: the UserPromptSubmit hook then starts
// the reasoning flow (today's default); its context is counted apart.
// Exits 1 when the compliant session did not reach DONE or needed more requests than its script.
// Needs the sandbox (bubblewrap, socat): skipped (exit 0, "skipped" in the result) without it,
// unless RATCHET_REQUIRE_SANDBOX=1.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { register } from 'tsx/esm/api';

register();
const agent = await import('../claude-code/compliant-agent.ts');
const { sandboxAvailable } = await import('../claude-code/sandbox.ts');
const { freshHome } = await import('../claude-code/claude.ts');

const tokens = (text) => encode(text).length;
const MCP = agent.MCP;

if (!sandboxAvailable()) {
  console.log(JSON.stringify({ skipped: "Claude Code's sandbox needs bubblewrap and socat" }));
  process.exit(0);
}

/** Ratchet's text inside a block Claude Code wrapped: the hook's words, not the wrapper. */
const HOOK = /^<system-reminder>\n(\w+) hook (?:additional context|blocking error from command: "[^"]*"): ([\s\S]*?)\n?<\/system-reminder>\s*$/;
const unwrapReminders = (text) => text.replace(/\n*<system-reminder>[\s\S]*?<\/system-reminder>\s*/g, '');
const blockText = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => (b.type === 'text' ? b.text : '')).join('\n') : '');

/** One request's tokens, by who put them there. */
function attribute(request, agentsMd) {
  const ratchetTools = (request.tools ?? []).filter((t) => t.name.startsWith(MCP));
  const otherTools = (request.tools ?? []).filter((t) => !t.name.startsWith(MCP));
  const out = { tools: tokens(JSON.stringify(ratchetTools)), hooks: 0, results: 0, agentsMd: 0, hookTexts: [], resultTexts: [], baseline: 0 };
  out.baseline += tokens(JSON.stringify(request.system ?? '')) + tokens(JSON.stringify(otherTools));
  const ratchetUses = new Map(); // tool_use id -> tool name
  for (const message of request.messages) {
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const b of blocks) {
      if (b.type === 'tool_use') {
        if (b.name.startsWith(MCP)) ratchetUses.set(b.id, b.name.slice(MCP.length));
        out.baseline += tokens(JSON.stringify(b.input ?? {})) + tokens(b.name);
        continue;
      }
      if (b.type === 'tool_result') {
        const text = blockText(b.content);
        const own = unwrapReminders(text);
        if (ratchetUses.has(b.tool_use_id)) {
          out.results += tokens(own);
          out.resultTexts.push({ tool: ratchetUses.get(b.tool_use_id), text: own });
        } else if (own.startsWith('Ratchet:')) {
          out.hooks += tokens(own); // a PreToolUse refusal, as the tool's result
          out.hookTexts.push(own);
        } else out.baseline += tokens(own);
        out.baseline += tokens(text) - tokens(own);
        continue;
      }
      const text = b.text ?? '';
      const hook = HOOK.exec(text);
      if (hook) {
        out.hooks += tokens(hook[2]);
        out.hookTexts.push(`${hook[1]}: ${hook[2]}`);
        out.baseline += tokens(text) - tokens(hook[2]);
      } else if (text.startsWith('Stop hook feedback:')) {
        out.hooks += tokens(text);
        out.hookTexts.push(text);
      } else if (agentsMd !== undefined && text.includes(agentsMd)) {
        out.agentsMd += tokens(text);
      } else out.baseline += tokens(text);
    }
  }
  if (agentsMd !== undefined && JSON.stringify(request.system ?? '').includes(JSON.stringify(agentsMd).slice(1, -1))) out.agentsMd += tokens(agentsMd);
  return out;
}

/** Result tokens per tool, summed over its calls. */
function byTool(results) {
  const out = {};
  for (const r of results) out[r.tool] = (out[r.tool] ?? 0) + tokens(r.text);
  return out;
}

/** Tokens of the fields a result repeats from call to call, in the JSON it is. */
function envelope(text) {
  try {
    const doc = JSON.parse(text);
    const keep = Object.fromEntries(['$schema', 'sessionId', 'legal'].filter((k) => k in doc).map((k) => [k, doc[k]]));
    return Object.keys(keep).length === 0 ? 0 : tokens(JSON.stringify(keep));
  } catch {
    return 0;
  }
}

const started = performance.now();
const run = await agent.compliantSession();
const seconds = (performance.now() - started) / 1000;
const { requests } = run.server;
const agentsMdText = readFileSync(join(run.dir, 'AGENTS.md'), 'utf8');
// A distinctive line of AGENTS.md stands for the whole file when looking for it in a request.
const agentsMdProbe = agentsMdText.split('\n').find((l) => l.length > 60 && !l.startsWith('<!--')) ?? agentsMdText.slice(0, 80);

const per = requests.map((r) => attribute(r, agentsMdProbe));
const last = per.at(-1);
const sum = (key) => per.reduce((a, p) => a + p[key], 0);
const lastRequest = requests.at(-1);
const toolCalls = lastRequest.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_use') : []));
const ratchetCalls = toolCalls.filter((b) => b.name.startsWith(MCP));
const usedNames = new Set(ratchetCalls.map((b) => b.name));
const offered = (lastRequest.tools ?? []).filter((t) => t.name.startsWith(MCP));
const session = JSON.parse(readFileSync(join(run.dir, '.ratchet/session.json'), 'utf8'));

// The same prompt without `-b`: what the reasoning flow's start puts into the context.
const home = freshHome();
const dir = agent.compliantProject(home);
const reasoning = await agent.runSession({ dir, home, moves: [{ label: 'stop', reply: { text: 'Stopping here.' } }], prompt: agent.PROMPT.replace(/^-b /, '') });
const first = attribute(reasoning.server.requests[0], undefined);
const reasoningStops = reasoning.server.requests.at(-1).messages.filter((m) => blockText(m.content).startsWith('Stop hook feedback:')).length;

const inContext = last.tools + last.hooks + last.results + last.agentsMd;
const billed = sum('tools') + sum('hooks') + sum('results') + sum('agentsMd');
const billedBaseline = sum('baseline');
const result = {
  task: { reached: session.state, seconds: Math.round(seconds) },
  modelRequests: requests.length,
  toolCalls: toolCalls.length,
  ratchetToolCalls: ratchetCalls.length,
  otherToolCalls: toolCalls.filter((b) => !b.name.startsWith(MCP)).map((b) => b.name),
  // Tokens Ratchet put into the context by the last request (each thing once).
  ratchetTokensInContext: {
    total: inContext,
    toolDefinitions: last.tools,
    toolDefinitionsOffered: offered.length,
    toolDefinitionsOfTheToolsUsed: tokens(JSON.stringify(offered.filter((t) => usedNames.has(t.name)))),
    toolsUsed: usedNames.size,
    hookText: last.hooks,
    toolResults: last.results,
    toolResultsByTool: byTool(last.resultTexts),
    // The fields every result repeats ($schema, sessionId, legal): what a leaner envelope would save.
    toolResultEnvelope: last.resultTexts.reduce((a, r) => a + envelope(r.text), 0),
    agentsMd: last.agentsMd,
  },
  // Everything else in the last request (Claude Code's system prompt and own tools, the turns).
  baselineTokensInContext: last.baseline,
  ratchetShareOfContext: Math.round((inContext / (inContext + last.baseline)) * 1000) / 1000,
  // Summed over every request, as a client without prompt caching pays for them.
  ratchetTokensAcrossRequests: billed,
  baselineTokensAcrossRequests: billedBaseline,
  agentsMdTokensIfRead: tokens(agentsMdText),
  // The prompt without `-b`: the UserPromptSubmit hook starts the reasoning flow.
  reasoningPrompt: { hookTextTokens: first.hooks, stopBlocks: reasoningStops },
  hookTexts: last.hookTexts.map((t) => t.slice(0, 120)),
};
console.log(JSON.stringify(result));
const scripted = agent.compliantMoves(run.dir).length;
if (session.state !== 'DONE' || requests.length > scripted) {
  console.error(`the compliant session ended in ${session.state} after ${requests.length} requests (script: ${scripted})`);
  process.exitCode = 1;
}
