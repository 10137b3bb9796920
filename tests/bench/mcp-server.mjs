#!/usr/bin/env node
// Benchmark for @ratchet/mcp-server (run after `pnpm build`). Two things an MCP client pays for:
// 1. tools/list of the default preset: tokens (o200k and cl100k BPE, gpt-tokenizer's bundled ranks)
//    and bytes of the compact JSON, for Ratchet's `core` and, in the same run, task-master-ai
//    0.43.1's `core` (TASK_MASTER_TOOLS=core), both spawned and listed through the SDK's own client
//    over stdio. Two measures: `model`, what travels with every model request (each tool's name,
//    description and input schema, as a client hands them to the model), limited to 1,100 o200k
//    tokens for core; and the whole tools/list (with titles, annotations and output schemas, which
//    the client keeps), read once per session.
// 2. tools/call of `run_next` in process (SDK client and server linked in memory, the command run
//    by the CLI's command layer), median of 300 calls after a warm-up. Exits 1 above 5 ms, or
//    when the core preset's model-facing definitions pass 1,100 o200k tokens.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { encode as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { createServer, selectTools, TOOLS } from '../../apps/mcp-server/dist/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ratchetBin = join(root, 'apps/cli/bin/ratchet.js');
const mcpBin = join(root, 'apps/mcp-server/bin/ratchet-mcp.js');
const taskMasterBin = join(root, 'tests/node_modules/task-master-ai/dist/mcp-server.js');
const TOKEN_LIMIT = 1100;
const CALL_LIMIT_MS = 5;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const round = (x) => Math.round(x * 100) / 100;

function ratchet(args, cwd) {
  const r = spawnSync(process.execPath, [ratchetBin, ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ratchet ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
}

/** Spawns an MCP server over stdio, lists its tools through the SDK client, and sizes the result. */
async function listedSize(command, args, env, cwd) {
  const transport = new StdioClientTransport({ command, args, env: { ...process.env, ...env }, cwd, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += String(d)));
  const client = new Client({ name: 'ratchet-bench', version: '0.0.0' });
  const t0 = performance.now();
  try {
    await client.connect(transport);
    const startMs = performance.now() - t0;
    const result = await client.listTools();
    const json = JSON.stringify(result);
    const model = JSON.stringify(result.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })));
    return {
      tools: result.tools.length,
      model: { o200k: o200k(model).length, cl100k: cl100k(model).length, bytes: Buffer.byteLength(model) },
      o200k: o200k(json).length,
      cl100k: cl100k(json).length,
      bytes: Buffer.byteLength(json),
      startMs: Math.round(startMs),
    };
  } catch (err) {
    return { error: `${err instanceof Error ? err.message : String(err)}; stderr: ${stderr.slice(-500)}` };
  } finally {
    await client.close().catch(() => undefined);
  }
}

const empty = mkdtempSync(join(tmpdir(), 'ratchet-mcp-bench-'));
const ratchetCore = await listedSize(process.execPath, [mcpBin], { RATCHET_MCP_TOOLS: 'core' }, empty);
const ratchetStandard = await listedSize(process.execPath, [mcpBin], { RATCHET_MCP_TOOLS: 'standard' }, empty);
const ratchetAll = await listedSize(process.execPath, [mcpBin], { RATCHET_MCP_TOOLS: 'all' }, empty);
const tmDir = mkdtempSync(join(tmpdir(), 'task-master-bench-'));
const taskMasterCore = await listedSize(process.execPath, [taskMasterBin], { TASK_MASTER_TOOLS: 'core' }, tmDir);

// run_next in process: a task executing a 20-line plan, as in the CLI start-up benchmark.
const project = mkdtempSync(join(tmpdir(), 'ratchet-mcp-bench-task-'));
ratchet(['init', '--quiet'], project);
mkdirSync(join(project, 'plans'));
const body = Array.from({ length: 17 }, (_, i) => `list_files step-${i}`).join('\n');
writeFileSync(join(project, 'plans/main.txt'), `set_plan main\nplan_step_complete go\n${body}\nrun_in_bash_session close\n`);
ratchet(['task', 'start', '--task-id', 'bench', '--no-network'], project);
ratchet(['run', 'plan', 'plans/main.txt'], project);

const server = await createServer({ project, env: process.env, tools: selectTools('core', TOOLS) });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'ratchet-bench', version: '0.0.0' });
await client.connect(clientSide);
const callNext = async () => {
  const t0 = performance.now();
  const r = await client.callTool({ name: 'run_next', arguments: {} });
  const ms = performance.now() - t0;
  if (r.isError || r.structuredContent?.state !== 'EXECUTING') throw new Error(`run_next: ${JSON.stringify(r).slice(0, 500)}`);
  return ms;
};
for (let i = 0; i < 50; i++) await callNext();
const times = [];
const cpu0 = process.cpuUsage();
for (let i = 0; i < 300; i++) times.push(await callNext());
const cpu = process.cpuUsage(cpu0);
await client.close();

const runNextMs = median(times);
const pass = runNextMs <= CALL_LIMIT_MS && typeof ratchetCore.model?.o200k === 'number' && ratchetCore.model.o200k <= TOKEN_LIMIT;
console.log(
  JSON.stringify({
    ratchetCore,
    ratchetStandard,
    ratchetAll,
    taskMasterCore,
    coreModelTokensVsTaskMaster: typeof taskMasterCore.model?.o200k === 'number' ? round(ratchetCore.model.o200k / taskMasterCore.model.o200k) : null,
    coreTokensVsTaskMaster: typeof taskMasterCore.o200k === 'number' ? round(ratchetCore.o200k / taskMasterCore.o200k) : null,
    runNextMs: round(runNextMs),
    runNextP95Ms: round(pct(times, 0.95)),
    runNextCpuMs: round((cpu.user + cpu.system) / 1000 / times.length),
    loadAverage: round(loadavg()[0]),
    limits: { coreModelO200k: TOKEN_LIMIT, runNextMs: CALL_LIMIT_MS },
    pass,
  }),
);
process.exitCode = pass ? 0 : 1;
