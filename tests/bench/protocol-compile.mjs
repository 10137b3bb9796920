#!/usr/bin/env node
// Benchmark for @ratchet/protocol-compiler (run after `pnpm --filter @ratchet/protocol-compiler... build`):
// compiles 1,000 generated protocols (with prose, tools and a usage provider) into AGENTS.md: read +
// ajv validation + render + locked atomic write.
//
// Measured the way `ratchet protocol compile` runs: each sample is a fresh process (cold: the
// protocol schema is compiled, nothing is JIT-warm), timed inside the process from the call to its
// return (process start and module loading are the CLI start-up benchmark's business). Median of 5.
// The peer, in the same fresh processes: reading and JSON.parse-ing the same 1,000 files and writing
// one file of the output's size, the least any compiler must do; the ratio to it is printed.
// Output must be byte-identical across the processes and for a copy of the sources written in the
// reverse order (directory order must not leak into the output).
//
// Prints one JSON line; exits 1 when the median cold compile takes more than 500 ms or the outputs
// differ. The limit applies to wall time or, on a shared and oversubscribed machine where wall time
// mostly measures waiting for a core, to the compile's CPU time (user + system, all threads): the
// run passes if either is within it. Both are printed, with the warm in-process figure for reference.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const LIB = new URL('../../packages/protocol-compiler/dist/index.js', import.meta.url).href;
const COUNT = 1000;
const SAMPLES = 5;
const usageFor = (tool) => (tool.startsWith('ratchet ') ? `Usage: ${tool} [options]\n\nA usage text.` : undefined);

async function child(mode, protocols, target) {
  const { compileProtocols } = await import(LIB);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  if (mode === 'compile') {
    const result = await compileProtocols({ protocolsDir: protocols, targets: [target], usageFor, sourceLabel: 'protocols/' });
    if (result.protocols.length !== COUNT) throw new Error(`compiled ${result.protocols.length} protocols`);
  } else {
    // The peer: read and parse every source, write one file as large as the output.
    let bytes = 0;
    for (const name of readdirSync(protocols).sort()) {
      const text = readFileSync(join(protocols, name), 'utf8');
      bytes += text.length;
      if (name.endsWith('.json')) JSON.parse(text);
    }
    writeFileSync(target, 'x'.repeat(bytes));
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const sha = mode === 'compile' ? createHash('sha256').update(readFileSync(target)).digest('hex') : '';
  console.log(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, sha }));
}

function generate(dir, order) {
  mkdirSync(dir);
  writeFileSync(join(dir, 'VERSION'), '1.0.0\n');
  const indices = Array.from({ length: COUNT }, (_, i) => i);
  if (order === 'reverse') indices.reverse();
  for (const i of indices) {
    const id = `p${String(i).padStart(4, '0')}`;
    const protocol = {
      protocol_id: id,
      description: `Generated protocol ${i}: keeps the benchmark honest with a few rules and tools.`,
      rules: Array.from({ length: 4 }, (_, r) => ({ rule_id: `${id}-r${r}`, description: `Rule ${r} of ${id} says what to do.`, enforcement: `Checked by \`ratchet plan lint\` (${r}).` })),
      associated_tools: ['ratchet plan lint', `tool-${i % 17}`],
      associated_artifacts: [`knowledge_core/${id}.json`],
    };
    writeFileSync(join(dir, `${id}.protocol.json`), `${JSON.stringify(protocol, null, 2)}\n`);
    if (i % 3 === 0) writeFileSync(join(dir, `${id}.protocol.md`), `## Protocol ${id}\n\nWhy ${id} exists, in prose.\n`);
  }
}

function sample(mode, protocols, target) {
  rmSync(target, { force: true });
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', mode, protocols, target], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${mode} sample failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 10) / 10;

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4], process.argv[5]);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'bench-protocols-'));
  try {
    const protocols = join(dir, 'protocols');
    const reversed = join(dir, 'protocols-reversed');
    generate(protocols, 'forward');
    generate(reversed, 'reverse');
    const target = join(dir, 'AGENTS.md');
    const compiles = [];
    const peers = [];
    // Interleaved, so load on the machine hits both alike.
    for (let i = 0; i < SAMPLES; i++) {
      compiles.push(sample('compile', protocols, target));
      peers.push(sample('peer', protocols, join(dir, 'peer.out')));
    }
    const other = sample('compile', reversed, join(dir, 'AGENTS-reversed.md'));
    const identical = compiles.every((c) => c.sha === compiles[0].sha) && other.sha === compiles[0].sha;

    // For reference: warm, in this process (schema compiled and code JIT-compiled by a first run).
    const { compileProtocols, compileSet, loadProtocolSet } = await import(LIB);
    const warmTarget = join(dir, 'AGENTS-warm.md');
    await compileProtocols({ protocolsDir: protocols, targets: [warmTarget], usageFor, sourceLabel: 'protocols/' });
    const warm = [];
    for (let i = 0; i < 3; i++) {
      rmSync(warmTarget, { force: true });
      const t0 = performance.now();
      await compileProtocols({ protocolsDir: protocols, targets: [warmTarget], usageFor, sourceLabel: 'protocols/' });
      warm.push(performance.now() - t0);
    }
    const set = await loadProtocolSet(protocols);
    const t0 = performance.now();
    const rendered = compileSet(set, { usageFor, sourceLabel: 'protocols/' });
    const render1000Ms = performance.now() - t0;

    const compile1000Ms = median(compiles.map((c) => c.ms));
    const compile1000CpuMs = median(compiles.map((c) => c.cpuMs));
    const peerMs = median(peers.map((p) => p.ms));
    const pass = Math.min(compile1000Ms, compile1000CpuMs) <= 500 && identical;
    console.log(
      JSON.stringify({
        compile1000Ms: round(compile1000Ms),
        compile1000CpuMs: round(compile1000CpuMs),
        peerReadParseWriteMs: round(peerMs),
        ratioToPeer: round(compile1000Ms / peerMs),
        warmCompile1000Ms: round(median(warm)),
        render1000Ms: round(render1000Ms),
        outputBytes: rendered.length,
        identical,
        pass,
      }),
    );
    if (!pass) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
