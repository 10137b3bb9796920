// `ratchet hook pre-tool-use` on Bash commands of 10, 100 and 300 KB, each shaped to hit one of the
// analyser's former worst cases, against `node -e 0` fed the same payload in the same interleaved
// rounds. What matters is the growth: the time each added KB costs (the slope) must stay flat from
// 100 to 300 KB (a quadratic step triples it; 160 KB of wrapper options took 20 s before), and a
// 300 KB command must be answered well under a second above start-up. Also reported: the time above
// `node -e 0` per KB of command, and the ratio to `node -e 0`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleavedMedians } from './lib/interleave.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'apps/cli/bin/ratchet.js');
const runs = Number(process.env.RATCHET_BENCH_RUNS ?? 9);
const sizesKb = [10, 100, 300];

const project = mkdtempSync(join(tmpdir(), 'ratchet-bench-bash-'));
const init = spawnSync(process.execPath, [bin, 'init', '--quiet', '--cwd', project], { encoding: 'utf8' });
if (init.status !== 0) throw new Error(`init exited ${init.status}: ${init.stderr}`);
mkdirSync(join(project, 'src'));

/** Commands of `bytes` bytes (about) that write no state: the hook must answer nothing. */
const fill = (unit, bytes) => unit.repeat(Math.ceil(bytes / unit.length));
const shapes = {
  wrapperOptions: (bytes) => `sudo ${fill('-E ', bytes)} echo done`,
  tildeInlineCode: (bytes) => `python3 -c "print(1) #${fill('~', bytes)}"`,
  distinctFiles: (bytes) => `rm ${Array.from({ length: Math.ceil(bytes / 10) }, (_, i) => `src/f${String(i).padStart(5, '0')}`).join(' ')}`,
  oneLongWord: (bytes) => `echo ${fill('a', bytes)} > src/out.txt`,
};

const LONG_WORDS = ['wrapperOptions', 'tildeInlineCode', 'oneLongWord'];

const env = { ...process.env, CLAUDE_PROJECT_DIR: project };
const payloadOf = (command) => JSON.stringify({ session_id: 'bench-bash-0001', transcript_path: join(project, 't.jsonl'), cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });

const time = (args, input, isHook) => {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0 || r.stderr !== '') throw new Error(`${args.slice(0, 3).join(' ')} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  if (isHook && r.stdout !== '') throw new Error(`the hook answered ${r.stdout.slice(0, 300)}`);
  return ms;
};

const result = { runs, sizesKb, medianMs: {}, overNodeMsPerKb: {}, ratioToNode: {} };
for (const kb of sizesKb) {
  const payloads = Object.fromEntries(Object.entries(shapes).map(([name, make]) => [name, payloadOf(make(kb * 1024))]));
  // `node -e 0` reads nothing: it gets the largest payload of the round, so the pipe costs it no less.
  const largest = Object.values(payloads).reduce((a, b) => (a.length >= b.length ? a : b));
  const med = interleavedMedians(['node', ...Object.keys(shapes)], runs, (k) => (k === 'node' ? time(['-e', '0'], largest, false) : time([bin, 'hook', 'pre-tool-use'], payloads[k], true)));
  result.medianMs[`${kb}KB`] = Object.fromEntries(Object.entries(med).map(([k, v]) => [k, Number(v.toFixed(1))]));
  for (const name of Object.keys(shapes)) {
    (result.overNodeMsPerKb[name] ??= {})[`${kb}KB`] = Number(((med[name] - med.node) / kb).toFixed(3));
    (result.ratioToNode[name] ??= {})[`${kb}KB`] = Number((med[name] / med.node).toFixed(2));
  }
}

// Linear: the marginal cost per KB (the slope) from 100 to 300 KB at most twice that from 10 to
// 100 KB, with 0.5 ms/KB of slack for a shared machine's noise (quadratic growth would triple it);
// and a 300 KB command under a second above `node -e 0`.
const at = (name, kb) => result.medianMs[`${kb}KB`][name];
result.slopeMsPerKb = Object.fromEntries(
  Object.keys(shapes).map((name) => [name, { '10-100KB': Number(((at(name, 100) - at(name, 10)) / 90).toFixed(3)), '100-300KB': Number(((at(name, 300) - at(name, 100)) / 200).toFixed(3)) }]),
);
// The second limit is for the long-word shapes; 300 KB of distinct file names (30,000 of them) costs
// one lstat and a path check each, linear but more than a second on a loaded machine.
result.limits = { slopeGrowth: 2, slopeSlackMsPerKb: 0.5, overNodeAt300KbMs: 1000, overNodeLimitFor: LONG_WORDS };
result.pass = Object.keys(shapes).every((name) => {
  const slope = result.slopeMsPerKb[name];
  const linear = slope['100-300KB'] <= Math.max(slope['10-100KB'], 0) * result.limits.slopeGrowth + result.limits.slopeSlackMsPerKb;
  return linear && (!LONG_WORDS.includes(name) || result.overNodeMsPerKb[name]['300KB'] * 300 <= result.limits.overNodeAt300KbMs);
});
console.log(JSON.stringify(result));
process.exitCode = result.pass ? 0 : 1;
