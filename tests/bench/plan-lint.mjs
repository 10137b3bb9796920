#!/usr/bin/env node
// Benchmark for @ratchet/plan-lint (run after `pnpm --filter @ratchet/plan-lint... build`):
// lints a generated 100,000-line plan (median of 3) and a 1,000,000-line plan in process, plus a
// depth-10 call_plan chain of 1,000-line plans. Prints one JSON line; exits 1 when lint100kMs > 1000
// or the 1M/100k ratio > 11 (linear scaling).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadDefinition } from '../../packages/fsm-core/dist/index.js';
import { lintPlan, loadDialect } from '../../packages/plan-lint/dist/index.js';

const protocols = new URL('../../protocols/', import.meta.url);
const { machine } = loadDefinition(JSON.parse(readFileSync(new URL('fdc.fsm.json', protocols), 'utf8')));
const { dialect, problems } = loadDialect(JSON.parse(readFileSync(new URL('fdc.dialect.json', protocols), 'utf8')), machine);
if (!dialect) throw new Error(`fdc.dialect.json: ${JSON.stringify(problems)}`);

/** set_plan, plan_step_complete, create/read/edit on distinct generated files, close: `lines` lines in all. */
function generatePlan(lines, prefix = 'gen') {
  const out = ['set_plan benchmark', 'plan_step_complete start'];
  let i = 0;
  while (out.length < lines - 1) {
    const f = `${prefix}/d${i % 100}/f${i}.ts`;
    out.push(`create_file_with_block ${f}`);
    if (out.length < lines - 1) out.push(`read_file ${f}`);
    if (out.length < lines - 1) out.push(`replace_with_git_merge_diff ${f}`);
    i++;
  }
  out.push('run_in_bash_session close');
  return `${out.join('\n')}\n`;
}

function timeLint(plans, entry = 'main.plan') {
  const host = { readPlan: (rel) => plans.get(rel) };
  const t0 = performance.now();
  const { findings } = lintPlan({ entry, root: process.cwd(), host, files: [], machine, dialect });
  const ms = performance.now() - t0;
  if (findings.length > 0) throw new Error(`unexpected findings: ${JSON.stringify(findings.slice(0, 3))}`);
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 10) / 10;

const plan100k = new Map([['main.plan', generatePlan(100_000)]]);
timeLint(plan100k); // warm-up
const lint100kMs = median([timeLint(plan100k), timeLint(plan100k), timeLint(plan100k)]);

const plan1M = new Map([['main.plan', generatePlan(1_000_000)]]);
const lint1MMs = timeLint(plan1M);

const chain = new Map();
for (let d = 0; d < 10; d++) {
  const name = d === 0 ? 'main.plan' : `p${d}.plan`;
  const body = generatePlan(1_000, `chain${d}`).split('\n');
  if (d < 9) body.splice(body.length - 2, 0, `call_plan p${d + 1}.plan`);
  chain.set(name, body.join('\n'));
}
const chainDepth10Ms = timeLint(chain);

const ratio = lint1MMs / lint100kMs;
const pass = lint100kMs <= 1000 && ratio <= 11;
console.log(JSON.stringify({ lint100kMs: round(lint100kMs), lint1MMs: round(lint1MMs), ratio: Math.round(ratio * 100) / 100, chainDepth10Ms: round(chainDepth10Ms), pass }));
if (!pass) process.exitCode = 1;
