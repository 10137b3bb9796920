#!/usr/bin/env node
// One whole task, start to submit, through Ratchet's MCP tools against the same task through
// `ratchet` processes, in one interleaved run (issue 28: inside the agent's sandbox the MCP tools are
// the agent's only hands, so their cost is what a governed task pays). The lifecycle: task start,
// run plan (a plan that calls a sub-plan), run next and run done through its six steps, task close,
// the post-mortem filled in (a file write, the same on both sides), lessons extract, task submit:
// 17 commands. MCP: one `ratchet-mcp` process (the server is started once per agent session; the
// figure with its start-up and initialize, and the calls alone); CLI: one process per command.
// Medians of RATCHET_BENCH_RUNS rounds (default 5), alternating which side goes first.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { register } from 'tsx/esm/api';

register();
const { fillPostMortem } = await import('../helpers.ts');

const root = fileURLToPath(new URL('../../', import.meta.url));
const ratchetBin = join(root, 'apps/cli/bin/ratchet.js');
const mcpBin = join(root, 'apps/mcp-server/bin/ratchet-mcp.js');
const runs = Number(process.env.RATCHET_BENCH_RUNS ?? 5);
// Each run's journal of digests in a directory of its own, not the user's.
const env = { ...process.env, NO_COLOR: '1', RATCHET_JOURNAL_DIR: mkdtempSync(join(tmpdir(), 'ratchet-bench-journal-')), RATCHET_MCP_TOOLS: 'core' };
const TASK = 'T-1';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

function cli(args, cwd) {
  const r = spawnSync(process.execPath, [ratchetBin, ...args], { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ratchet ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r.stdout;
}

function project() {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-bench-lifecycle-'));
  cli(['init', '--quiet'], dir);
  mkdirSync(join(dir, 'plans'));
  writeFileSync(join(dir, 'plans/main.txt'), 'set_plan main\nplan_step_complete go\ncall_plan sub\nrun_in_bash_session close\n');
  writeFileSync(join(dir, 'plans/sub.txt'), 'set_plan sub\nplan_step_complete go\nrun_in_bash_session close\n');
  cli(['plan', 'registry', 'register', 'sub', 'plans/sub.txt'], dir);
  return dir;
}

/** The agent's own work between close and submit: the suite's own filler (tests/helpers.ts), one lesson. */
function writePostMortem(dir) {
  const path = join(dir, `postmortems/${TASK}.md`);
  writeFileSync(path, fillPostMortem(readFileSync(path, 'utf8')));
}

/** The same 17 moves, each as [MCP tool, its arguments, the equivalent argv]. */
const STEPS = 6;
const moves = [
  ['task_start', { task_id: TASK, network: false }, ['task', 'start', '--task-id', TASK, '--no-network']],
  ['run_plan', { plan: 'plans/main.txt' }, ['run', 'plan', 'plans/main.txt']],
  ...Array.from({ length: STEPS }, (_, i) => [
    ['run_next', {}, ['--json', 'run', 'next']],
    ['run_done', { message: `step ${i + 1}` }, ['run', 'done', '--message', `step ${i + 1}`]],
  ]).flat(),
  ['task_close', { task_id: TASK }, ['task', 'close', '--task-id', TASK]],
  'post-mortem',
  ['lessons_extract', { postmortem: `postmortems/${TASK}.md` }, ['lessons', 'extract', `postmortems/${TASK}.md`]],
  ['task_submit', { task_id: TASK }, ['task', 'submit', '--task-id', TASK]],
];

function state(dir) {
  return JSON.parse(readFileSync(join(dir, '.ratchet/session.json'), 'utf8')).state;
}

function viaCli() {
  const dir = project();
  const t0 = performance.now();
  for (const move of moves) {
    if (move === 'post-mortem') writePostMortem(dir);
    else cli(move[2], dir);
  }
  const ms = performance.now() - t0;
  if (state(dir) !== 'DONE') throw new Error(`CLI lifecycle ended in ${state(dir)}`);
  return { total: ms };
}

async function viaMcp() {
  const dir = project();
  const t0 = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [mcpBin], cwd: dir, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += String(d)));
  const client = new Client({ name: 'ratchet-bench', version: '0.0.0' });
  await client.connect(transport);
  const t1 = performance.now();
  try {
    for (const move of moves) {
      if (move === 'post-mortem') {
        writePostMortem(dir);
        continue;
      }
      const result = await client.callTool({ name: move[0], arguments: move[1] });
      if (result.isError) throw new Error(`${move[0]}: ${JSON.stringify(result.content).slice(0, 500)} ${stderr.slice(-500)}`);
    }
  } finally {
    await client.close();
  }
  const t2 = performance.now();
  if (state(dir) !== 'DONE') throw new Error(`MCP lifecycle ended in ${state(dir)}`);
  return { total: t2 - t0, calls: t2 - t1 };
}

const nodeBaseline = () => {
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  return performance.now() - t0;
};

const cliTimes = [];
const mcpTotals = [];
const mcpCalls = [];
const nodeTimes = [];
// A warm-up of each side (file caches, the CLI's compile cache), not counted.
viaCli();
await viaMcp();
for (let i = 0; i < runs; i++) {
  const order = i % 2 === 0 ? ['cli', 'mcp'] : ['mcp', 'cli'];
  for (const side of order) {
    if (side === 'cli') cliTimes.push(viaCli().total);
    else {
      const m = await viaMcp();
      mcpTotals.push(m.total);
      mcpCalls.push(m.calls);
    }
  }
  nodeTimes.push(nodeBaseline());
}

const moveCount = moves.filter((m) => m !== 'post-mortem').length;
const result = {
  bench: 'lifecycle-mcp',
  commands: moveCount,
  runs,
  loadavg: loadavg().map((x) => round(x, 1)),
  nodeMs: round(median(nodeTimes), 1),
  cliMs: round(median(cliTimes), 0),
  mcpWithStartMs: round(median(mcpTotals), 0),
  mcpCallsMs: round(median(mcpCalls), 0),
  mcpVsCli: round(median(mcpTotals) / median(cliTimes)),
  mcpCallsVsCli: round(median(mcpCalls) / median(cliTimes)),
  cliPerCommandVsNode: round(median(cliTimes) / moveCount / median(nodeTimes)),
};
console.error(`lifecycle (${moveCount} commands): CLI processes ${result.cliMs} ms, MCP ${result.mcpWithStartMs} ms with the server's start (${result.mcpVsCli}x), ${result.mcpCallsMs} ms of calls (${result.mcpCallsVsCli}x); node -e 0 ${result.nodeMs} ms`);
console.log(JSON.stringify(result));
// The point of the MCP channel is that it is not slower than the processes it replaces.
process.exitCode = result.mcpVsCli <= 1 ? 0 : 1;
