// CLI start-up, measured side by side with `node -e 0` in one run: the commands are interleaved
// round by round so machine noise hits them alike, and we compare medians as ratios.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'apps/cli/bin/ratchet.js');
const fdc = join(root, 'protocols/fdc.fsm.json');
const runs = Number(process.env.RATCHET_BENCH_RUNS ?? 40);

const commands = {
  node: [process.execPath, ['-e', '0']],
  version: [process.execPath, [bin, '--version']],
  accept: [process.execPath, [bin, 'fsm', 'accept', fdc, 'plan_op', 'step_op', 'read_op', 'write_op', 'tool_exec', 'close_op']],
};

const time = ([cmd, args]) => {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const samples = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
for (const k of Object.keys(commands)) time(commands[k]); // warm the file cache
for (let i = 0; i < runs; i++) {
  const order = Object.keys(commands);
  for (let j = 0; j < i % order.length; j++) order.push(order.shift());
  for (const k of order) samples[k].push(time(commands[k]));
}
const med = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
const result = {
  runs,
  medianMs: Object.fromEntries(Object.entries(med).map(([k, v]) => [k, Number(v.toFixed(1))])),
  versionRatio: Number((med.version / med.node).toFixed(3)),
  acceptRatio: Number((med.accept / med.node).toFixed(3)),
  limits: { versionRatio: 1.3, acceptRatio: 1.6 },
};
result.pass = result.versionRatio <= 1.3 && result.acceptRatio <= 1.6;
console.log(JSON.stringify(result));
process.exitCode = result.pass ? 0 : 1;
