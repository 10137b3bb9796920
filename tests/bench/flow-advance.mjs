// `ratchet flow advance` with its freshness checks, side by side with `node -e 0` in one interleaved
// run (medians, ratios). Agents run it after every phase, so its cost is start-up plus the work that
// makes a gate mean something: reading and digesting each artifact, comparing it with the step's
// baseline, claiming it in the ledger, and digesting the next step's artifacts for its baseline.
// Every sample advances the same session from phase 0 of the built-in skill (two gates, both fresh):
// the session and the ledger are put back between samples, outside the timed part.
// RATCHET_BENCH_BASELINE=<another checkout>/apps/cli/bin/ratchet.js times that build's status and
// advance in the same rounds (`baseline.*`; `vsBaseline`: this build's advance over that one's).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleavedMedians } from './lib/interleave.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'apps/cli/bin/ratchet.js');
const runs = Number(process.env.RATCHET_BENCH_RUNS ?? 40);

const project = mkdtempSync(join(tmpdir(), 'ratchet-bench-flow-'));
const ratchet = (...args) => {
  const r = spawnSync(process.execPath, [bin, ...args, '--cwd', project], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ratchet ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r;
};
ratchet('flow', 'start', 'develop-feature', '--session', 'b', '--input', 'task=T', '--quiet');
// Written after the start, so they are new for this step: the advance accepts them.
const sections = ['## Section 0: Context Loaded', '## Section 1: Step Overview', '## Section 2: Johari Summary', '## Section 3: Downstream Directives'];
const memory = (who) => `${sections.map((h) => `${h}\n\n${`What ${who} found and passes on to the next phase. `.repeat(20)}\n`).join('\n')}`;
mkdirSync(join(project, '.claude/memory'), { recursive: true });
writeFileSync(join(project, '.claude/memory/T-clarification-agent-memory.md'), memory('the clarification agent'));
writeFileSync(join(project, '.claude/memory/T-memory-phase-0-to-1-memory.md'), memory('the memory agent'));

const state = join(project, '.ratchet');
const saved = mkdtempSync(join(tmpdir(), 'ratchet-bench-flow-state-'));
cpSync(state, saved, { recursive: true });
const restore = () => {
  rmSync(state, { recursive: true, force: true });
  cpSync(saved, state, { recursive: true });
};

const time = (args, before) => {
  before?.();
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return ms;
};
// `flow status` (read-only: start-up, the session and the flow, no gates) shows how much of the
// advance is start-up; it has no limit of its own here (cli-start.mjs holds start-up to account).
const commands = {
  node: () => time(['-e', '0']),
  status: () => time([bin, 'flow', 'status', '--session', 'b', '--cwd', project, '--quiet'], restore),
  advance: () => time([bin, 'flow', 'advance', '--session', 'b', '--cwd', project, '--quiet'], restore),
};
const baseline = process.env.RATCHET_BENCH_BASELINE;
if (baseline !== undefined && baseline !== '') {
  commands['baseline.status'] = () => time([baseline, 'flow', 'status', '--session', 'b', '--cwd', project, '--quiet'], restore);
  commands['baseline.advance'] = () => time([baseline, 'flow', 'advance', '--session', 'b', '--cwd', project, '--quiet'], restore);
}

// The advance must really have left phase 0 (every gate checked and passed), not been refused.
restore();
const check = ratchet('--json', 'flow', 'advance', '--session', 'b');
const outcome = JSON.parse(check.stdout);
if (outcome.outcome !== 'advanced' || outcome.session.current !== '1') throw new Error(`the benchmark's advance did not advance: ${check.stdout}`);

const med = interleavedMedians(Object.keys(commands), runs, (k) => commands[k]());
const result = {
  runs,
  medianMs: Object.fromEntries(Object.entries(med).map(([k, v]) => [k, Number(v.toFixed(1))])),
  advanceRatio: Number((med.advance / med.node).toFixed(3)),
  statusRatio: Number((med.status / med.node).toFixed(3)),
  ...(med['baseline.advance'] === undefined
    ? {}
    : { vsBaseline: { status: Number((med.status / med['baseline.status']).toFixed(3)), advance: Number((med.advance / med['baseline.advance']).toFixed(3)) } }),
  limits: { advanceRatio: 1.6 },
};
result.pass = Object.entries(result.limits).every(([k, limit]) => result[k] <= limit);
rmSync(project, { recursive: true, force: true });
rmSync(saved, { recursive: true, force: true });
console.log(JSON.stringify(result));
process.exitCode = result.pass ? 0 : 1;
