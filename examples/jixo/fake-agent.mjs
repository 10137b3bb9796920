#!/usr/bin/env node
// A scripted stand-in for an AI agent, for `ratchet jixo run` demos and tests. It follows the
// shipped protocol using only `ratchet jixo` commands:
//   triage -> (exit | plan the goal's "- " bullets as tasks | lock one task, "work", complete it).
// How it reaches the CLI:
//   RATCHET_JIXO_CLI="node /path/to/ratchet.js"  run each command as a process (the built bin), or
//   RATCHET_CLI_MAIN=/path/to/apps/cli/src/main.ts  call run() in this process (tests, no build).
// FAKE_AGENT_CRASH_ONCE=<file>: crash (exit 1) the first time, creating <file>; retries then work.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const env = process.env;
const R = env.RATCHET_JIXO_RUNNER;
const JOB = env.RATCHET_JIXO_JOB_FILE;
const LOG = env.RATCHET_JIXO_LOG_FILE;
if (!R || !JOB || !LOG) {
  console.error('fake-agent: run me through `ratchet jixo run`');
  process.exit(2);
}
// The system prompt arrives on stdin: read it all, as a real agent would.
let prompt = '';
for await (const chunk of process.stdin) prompt += chunk;
if (!prompt.includes('Task_Runner: ' + R)) {
  console.error('fake-agent: no system prompt on stdin');
  process.exit(3);
}
if (env.FAKE_AGENT_CRASH_ONCE && !existsSync(env.FAKE_AGENT_CRASH_ONCE)) {
  writeFileSync(env.FAKE_AGENT_CRASH_ONCE, R);
  console.error('fake-agent: crashing on purpose');
  process.exit(1);
}

const inProcess = env.RATCHET_CLI_MAIN ? (await import(env.RATCHET_CLI_MAIN)).run : undefined;
async function ratchet(...args) {
  if (inProcess) {
    let out = '';
    let err = '';
    const io = { stdout: (t) => (out += t), stderr: (t) => (err += t), isTTY: false, env, cwd: process.cwd(), readStdin: async () => '' };
    const code = await inProcess(['--json', ...args], io);
    return { code, json: out ? JSON.parse(out) : undefined, err };
  }
  const [cmd, ...pre] = (env.RATCHET_JIXO_CLI ?? 'ratchet').split(' ');
  try {
    const out = execFileSync(cmd, [...pre, '--json', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { code: 0, json: JSON.parse(out) };
  } catch (e) {
    return { code: e.status ?? 1, json: e.stdout ? JSON.parse(e.stdout) : undefined, err: String(e.stderr ?? '') };
  }
}
async function must(...args) {
  const r = await ratchet(...args);
  if (r.code !== 0) throw new Error(`ratchet ${args.join(' ')} -> ${r.code}: ${r.err ?? ''} ${JSON.stringify(r.json)}`);
  return r.json;
}

const d = await must('jixo', 'triage', JOB, '--runner', R, '--active', env.RATCHET_JIXO_ACTIVE ?? '');
if (d.kind === 'exit') {
  await must('jixo', 'exit', LOG, '--runner', R, '--code', String(d.code), '--reason', d.reason);
  console.log(`exit ${d.code}: ${d.reason}`);
} else if (d.role === 'Planner') {
  // Plan: every "- " bullet of the job goal becomes a task under one phase. The elected Planner
  // commits under the log lock, so runners see the whole plan at unlock, as one change.
  const goal = readFileSync(JOB, 'utf8').split(/^---$/m).slice(2).join('---');
  const bullets = goal.split('\n').filter((l) => l.startsWith('- ')).map((l) => l.slice(2).trim());
  const title = goal.split('\n').find((l) => l.trim() !== '' && !l.startsWith('- '))?.trim() ?? 'Job';
  await must('jixo', 'lock', LOG, '--runner', R);
  try {
    await must('jixo', 'title', LOG, title.slice(0, 60), '--runner', R);
    const listed = await must('jixo', 'task', 'list', LOG);
    if (listed.tasks.length === 0) {
      await must('jixo', 'task', 'add', LOG, '--id', '1', '--title', '**Phase 1: Do it**', '--phase', '--runner', R);
      for (const [i, b] of bullets.entries()) await must('jixo', 'task', 'add', LOG, '--id', `1.${i + 1}`, '--title', b, '--parent', '1', '--runner', R);
    }
    await must('jixo', 'log', 'add', LOG, '--runner', R, '--role', 'Planner', '--objective', d.objective.slice(0, 80), '--summary', `Planned ${bullets.length} tasks.`);
  } finally {
    await must('jixo', 'unlock', LOG, '--runner', R);
  }
  console.log(`planned ${bullets.length} tasks`);
} else {
  const lock = await ratchet('jixo', 'task', 'lock', LOG, d.taskId, '--runner', R);
  if (lock.code !== 0) {
    console.log(`task ${d.taskId} taken by someone else`);
  } else {
    const out = join(env.RATCHET_JIXO_CWD ?? process.cwd(), 'out');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, `${d.taskId}.txt`), `${R}\n`);
    await must('jixo', 'task', 'complete', LOG, d.taskId, '--runner', R, '--summary', `Wrote out/${d.taskId}.txt`);
    console.log(`completed ${d.taskId}`);
  }
}
