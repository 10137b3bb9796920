#!/usr/bin/env node
// Benchmark for @ratchet/protocol-compiler (run after `pnpm --filter @ratchet/protocol-compiler... build`):
// compiles 1,000 generated protocols (with prose, tools and a usage provider) into AGENTS.md in process:
// read + ajv validation + render + locked atomic write (median of 3 after a warm-up), and the render
// alone. Prints one JSON line; exits 1 when the full compile takes more than 500 ms or two runs do not
// produce byte-identical output. The limit applies to the compile's CPU time (user + system) as well as
// wall time, and passes if either is within it: on a shared, oversubscribed CI machine wall time mostly
// measures waiting for a core. Both are printed.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compileProtocols, compileSet, loadProtocolSet } from '../../packages/protocol-compiler/dist/index.js';

const COUNT = 1000;
const dir = mkdtempSync(join(tmpdir(), 'bench-protocols-'));
const protocols = join(dir, 'protocols');
mkdirSync(protocols);
writeFileSync(join(protocols, 'VERSION'), '1.0.0\n');
for (let i = 0; i < COUNT; i++) {
  const id = `p${String(i).padStart(4, '0')}`;
  const protocol = {
    protocol_id: id,
    description: `Generated protocol ${i}: keeps the benchmark honest with a few rules and tools.`,
    rules: Array.from({ length: 4 }, (_, r) => ({ rule_id: `${id}-r${r}`, description: `Rule ${r} of ${id} says what to do.`, enforcement: `Checked by \`ratchet plan lint\` (${r}).` })),
    associated_tools: ['ratchet plan lint', `tool-${i % 17}`],
    associated_artifacts: [`knowledge_core/${id}.json`],
  };
  writeFileSync(join(protocols, `${id}.protocol.json`), `${JSON.stringify(protocol, null, 2)}\n`);
  if (i % 3 === 0) writeFileSync(join(protocols, `${id}.protocol.md`), `## Protocol ${id}\n\nWhy ${id} exists, in prose.\n`);
}
const usageFor = (tool) => (tool.startsWith('ratchet ') ? `Usage: ${tool} [options]\n\nA usage text.` : undefined);
const target = join(dir, 'AGENTS.md');

async function timeCompile() {
  rmSync(target, { force: true });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await compileProtocols({ protocolsDir: protocols, targets: [target], usageFor, sourceLabel: 'protocols/' });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (result.protocols.length !== COUNT) throw new Error(`compiled ${result.protocols.length} protocols`);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, bytes: readFileSync(target, 'utf8') };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 10) / 10;

const warm = await timeCompile();
const runs = [await timeCompile(), await timeCompile(), await timeCompile()];
const compile1000Ms = median(runs.map((r) => r.ms));
const compile1000CpuMs = median(runs.map((r) => r.cpuMs));
const identical = runs.every((r) => r.bytes === warm.bytes);

const set = await loadProtocolSet(protocols);
const t0 = performance.now();
const rendered = compileSet(set, { usageFor, sourceLabel: 'protocols/' });
const render1000Ms = performance.now() - t0;

rmSync(dir, { recursive: true, force: true });
const pass = Math.min(compile1000Ms, compile1000CpuMs) <= 500 && identical;
console.log(JSON.stringify({ compile1000Ms: round(compile1000Ms), compile1000CpuMs: round(compile1000CpuMs), render1000Ms: round(render1000Ms), outputBytes: rendered.length, identical, pass }));
if (!pass) process.exitCode = 1;
