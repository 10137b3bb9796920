/**
 * Issue 29, JIXO's gates, every command a real process. Each test performs the shortcut an agent
 * (RATCHET_ACTOR=agent, as `jixo run` starts it) would take and shows it refused: Planner moves by a
 * runner nobody elected, a forged Work Log entry, a hand-edited log that one command reports and
 * another acts on, a garbage write under the log lock, a plan edited outside the Planner's lock, a
 * clarification without a default plan.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet, ratchetInBackground, tempDir } from '../helpers.js';

const LOG = '---\ntitle: "Docs"\nprogress: "0%"\n---\n\n## Roadmap\n\n- [ ] 1. Intro\n  - status: Pending\n- [ ] 2. Tutorial\n  - status: Pending\n- [ ] 3. Reference\n  - status: Pending\n\n## Work Log\n';
const AGENT = { RATCHET_ACTOR: 'agent' };
const USER = { RATCHET_ACTOR: 'user' };
const J = '.jixo/docs.job.md';
const L = '.jixo/docs.log.md';

function project(log = LOG): string {
  const dir = tempDir('ratchet-jixo-gates-');
  mkdirSync(join(dir, '.jixo'));
  writeFileSync(join(dir, J), '---\nname: docs\n---\n\nWrite docs.\n');
  writeFileSync(join(dir, L), log);
  return dir;
}
const read = (dir: string): string => readFileSync(join(dir, L), 'utf8');
const json = (out: string): Record<string, unknown> => JSON.parse(out) as Record<string, unknown>;
const run = (dir: string, args: string[], env: Record<string, string> = USER) => ratchet(args, { cwd: dir, env });

/** Task 1 Failed through the commands: the next triage has a Planner step. */
function withFailedTask(dir: string): void {
  expect(run(dir, ['jixo', 'task', 'lock', L, '1', '--runner', 'worker'], AGENT).status).toBe(0);
  expect(run(dir, ['jixo', 'task', 'fail', L, '1', '--runner', 'worker', '--summary', 'broke'], AGENT).status).toBe(0);
}

describe('Planner moves are the elected Planner\'s or the user\'s', () => {
  const MOVES: [string, string[]][] = [
    ['cancel', ['task', 'cancel', L, '2']],
    ['retry', ['task', 'retry', L, '1']],
    ['add', ['task', 'add', L, '--id', '4', '--title', 'More']],
    ['depends', ['task', 'depends', L, '3', '--on', '2']],
    ['edit', ['task', 'edit', L, '2', '--title', 'Other']],
    ['remove', ['task', 'remove', L, '3']],
    ['title', ['title', L, 'Mine']],
    ['unblock', ['task', 'unblock', L, '2', '--summary', 'fixed']],
  ];

  test.each(MOVES)('%s by a runner triage did not elect is refused (exit 1) and writes nothing', (_name, args) => {
    const dir = project();
    withFailedTask(dir);
    // Another runner is elected Planner (the failed task); "rogue" is not.
    expect(json(run(dir, ['--json', 'jixo', 'triage', J, '--runner', 'planner'], AGENT).stdout)).toMatchObject({ role: 'Planner' });
    const before = read(dir);
    for (const withRunner of [['--runner', 'rogue'], []]) {
      const r = run(dir, ['--json', 'jixo', ...args, ...withRunner], AGENT);
      expect(r.status, `${args.join(' ')} ${withRunner.join(' ')}: ${r.stdout}`).toBe(1);
      expect(json(r.stdout)).toMatchObject({ ok: false, error: { code: 'not-planner' } });
    }
    expect(read(dir)).toBe(before);
  });

  test('six agents triage at once on a log with a Planner step: exactly one is elected, the others are told who', async () => {
    const dir = project();
    withFailedTask(dir);
    const runners = Array.from({ length: 6 }, (_, i) => `agent-${i}`);
    const results = await Promise.all(runners.map((r) => ratchetInBackground(['--json', 'jixo', 'triage', J, '--runner', r], { cwd: dir, env: AGENT }).done));
    const decisions = results.map((r) => {
      expect(r.status, r.stderr).toBe(0);
      return json(r.stdout) as { kind: string; role?: string; reason?: string };
    });
    const planners = runners.filter((_, i) => decisions[i]!.role === 'Planner');
    expect(planners).toHaveLength(1);
    expect(read(dir)).toContain(`planner: {"runner":"${planners[0]!}"`);
    // The others took the executable tasks (2 and 3) or stand by naming the Planner.
    for (const d of decisions.filter((x) => x.role !== 'Planner')) {
      if (d.kind === 'exit') expect(d.reason).toContain(`${planners[0]!} is the one to plan`);
      else expect(d.role).toBe('Runner');
    }
  });

  test('the scenario of the issue: a runner cancels every remaining task, records exit 0, and check says ok — refused at the first step', () => {
    const dir = project();
    expect(run(dir, ['jixo', 'task', 'lock', L, '1', '--runner', 'r1'], AGENT).status).toBe(0);
    expect(run(dir, ['jixo', 'task', 'complete', L, '1', '--runner', 'r1', '--summary', 'done'], AGENT).status).toBe(0);
    for (const id of ['2', '3']) expect(run(dir, ['jixo', 'task', 'cancel', L, id, '--runner', 'r1'], AGENT).status).toBe(1);
    expect(run(dir, ['jixo', 'exit', L, '--runner', 'r1', '--code', '0', '--reason', 'done'], AGENT).status).not.toBe(0);
    expect(read(dir)).not.toContain('exit:');
    expect(read(dir)).not.toContain('Cancelled');
  });

  test('the user cancels from their own terminal: allowed, and the cancel writes its Cancelled entry', () => {
    const dir = project();
    const r = run(dir, ['--json', 'jixo', 'task', 'cancel', L, '2', '--summary', 'not needed any more']);
    expect(r.status, r.stderr).toBe(0);
    const text = read(dir);
    expect(text).toMatch(/- \*\*Objective\*\*: Task 2\. Tutorial\n- \*\*Result\*\*: Cancelled\n- \*\*Summary\*\*: not needed any more/);
    expect(run(dir, ['jixo', 'check', L]).status).toBe(0);
  });

  test('the elected Planner, holding the log lock, cancels with its entry; another agent is still refused', () => {
    const dir = project();
    withFailedTask(dir);
    expect(json(run(dir, ['--json', 'jixo', 'triage', J, '--runner', 'planner'], AGENT).stdout)).toMatchObject({ role: 'Planner', step: 'failed-task' });
    expect(run(dir, ['jixo', 'lock', L, '--runner', 'planner'], AGENT).status).toBe(0);
    const ok = run(dir, ['jixo', 'task', 'cancel', L, '1', '--runner', 'planner', '--summary', 'replaced by 4'], AGENT);
    expect(ok.status, ok.stderr).toBe(0);
    expect(run(dir, ['jixo', 'unlock', L, '--runner', 'planner'], AGENT).status).toBe(0);
    expect(read(dir)).toMatch(/- \*\*Result\*\*: Cancelled\n- \*\*Summary\*\*: replaced by 4\n- \*\*Runner\*\*: planner/);
    expect(run(dir, ['jixo', 'task', 'cancel', L, '2', '--runner', 'other'], AGENT).status).toBe(1);
  });
});

describe('Work Log entries come only with the transitions they record', () => {
  test('log add --role Runner --result Succeeded, the entry a hand-completed task lacks, is refused (agent and user)', () => {
    const dir = project();
    for (const env of [AGENT, USER]) {
      const r = run(dir, ['--json', 'jixo', 'log', 'add', L, '--runner', 'r1', '--role', 'Runner', '--result', 'Succeeded', '--objective', 'Task 1. Intro', '--summary', 'did it'], env);
      expect(r.status, r.stdout).toBe(1);
      expect(json(r.stdout)).toMatchObject({ ok: false });
    }
    // A Planner entry about a task with a result its status would need is refused too.
    expect(run(dir, ['jixo', 'log', 'add', L, '--role', 'Planner', '--result', 'Succeeded', '--objective', 'Task 2', '--summary', 'x']).status).toBe(1);
    expect(read(dir)).toBe(LOG);
  });
});

describe('one audit, used by every command', () => {
  /** A log Ratchet wrote (task 1 completed through the commands), then task 2 ticked off by hand. */
  function handCompleted(): string {
    const dir = project(LOG.replace('- [ ] 3. Reference\n  - status: Pending\n', ''));
    expect(run(dir, ['jixo', 'task', 'lock', L, '1', '--runner', 'r1'], AGENT).status).toBe(0);
    expect(run(dir, ['jixo', 'task', 'complete', L, '1', '--runner', 'r1', '--summary', 'done'], AGENT).status).toBe(0);
    writeFileSync(join(dir, L), read(dir).replace('- [ ] 2. Tutorial\n  - status: Pending', '- [x] 2. Tutorial\n  - status: Completed'));
    return dir;
  }
  const line = (dir: string): number => read(dir).split('\n').indexOf('- [x] 2. Tutorial') + 1;

  test('check, triage and run all refuse a hand-completed log, naming the same line; run starts no agent', () => {
    const dir = handCompleted();
    const at = `${L}:${line(dir)}`;
    const check = run(dir, ['jixo', 'check', L]);
    expect(check.status).toBe(1);
    expect(check.stdout).toContain(at);
    const triage = run(dir, ['jixo', 'triage', J, '--runner', 'r2'], AGENT);
    expect(triage.status).toBe(2);
    expect(triage.stderr).toContain(at);
    const before = read(dir);
    const started = join(dir, 'started');
    const jr = run(dir, ['jixo', 'run', J, '--agent', `touch ${started}`]);
    expect(jr.status).toBe(2);
    expect(jr.stderr).toContain(at);
    expect(read(dir)).toBe(before);
    expect(readdirSync(dir)).not.toContain('started');
  });

  test('ratchet doctor tracks JIXO logs: it lists the log, and reports the hand edit', () => {
    const clean = project();
    expect(run(clean, ['jixo', 'task', 'lock', L, '1', '--runner', 'r1'], AGENT).status).toBe(0);
    const fine = run(clean, ['--json', 'doctor']);
    expect(fine.status, fine.stdout).toBe(0);
    expect((json(fine.stdout).files as { file: string; tracked: boolean }[]).find((f) => f.file === L)).toMatchObject({ tracked: true });
    const dir = handCompleted();
    const d = run(dir, ['doctor']);
    expect(d.status).toBe(1);
    expect(d.stdout).toContain(`${L}:${line(dir)}`);
  });

  test('the decision about a hand edit is a person\'s: accept and restore are refused to an agent; doctor --restore puts the last good version back', () => {
    const dir = handCompleted();
    const edited = read(dir);
    for (const verb of ['accept', 'restore']) {
      const r = run(dir, ['jixo', verb, L], AGENT);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/RATCHET_ACTOR=agent/);
    }
    expect(run(dir, ['doctor', '--restore', L], AGENT).status).toBe(2);
    expect(read(dir)).toBe(edited);
    const restored = run(dir, ['doctor', '--restore', L]);
    expect(restored.status, restored.stderr).toBe(0);
    expect(read(dir)).toContain('- [ ] 2. Tutorial\n  - status: Pending');
    expect(run(dir, ['jixo', 'check', L]).status).toBe(0);
    // The user ticks it by hand again and keeps it: accepted, the audit starts from there.
    writeFileSync(join(dir, L), edited);
    expect(run(dir, ['jixo', 'accept', L]).status).toBe(0);
    expect(run(dir, ['jixo', 'check', L]).status).toBe(0);
    expect(run(dir, ['doctor']).status).toBe(0);
  });

  test('a garbage write made while holding the lock is refused at unlock, and the previous version is back', () => {
    const dir = project();
    expect(run(dir, ['jixo', 'task', 'lock', L, '1', '--runner', 'r1'], AGENT).status).toBe(0);
    const good = read(dir);
    expect(run(dir, ['jixo', 'lock', L, '--runner', 'r1'], AGENT).status).toBe(0);
    writeFileSync(join(dir, L), 'garbage\n- [ ] not a log\n');
    const r = run(dir, ['jixo', 'unlock', L, '--runner', 'r1'], AGENT);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/docs\.log\.md:\d+:1: missing section "## Roadmap"/);
    expect(r.stderr).toMatch(/the edit made under the log lock is refused \(2 problems\): the last good version is back, and the refused text is kept as \S+docs\.log\.md\.rejected-/);
    expect(read(dir)).toBe(good);
    expect(readdirSync(join(dir, '.jixo')).some((f) => f.startsWith('docs.log.md.rejected-'))).toBe(true);
    // The lock is released: another runner can work.
    expect(run(dir, ['jixo', 'task', 'lock', L, '2', '--runner', 'r2'], AGENT).status).toBe(0);
  });
});

describe('a holder killed with SIGKILL after writing the log by hand', () => {
  /** A process standing for the agent: the lock names it as owner, and it dies with kill -9. */
  async function killedHolder(dir: string, write: (text: string) => string): Promise<string> {
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    expect(run(dir, ['jixo', 'lock', L, '--runner', 'victim'], { ...AGENT, RATCHET_JIXO_OWNER_PID: String(owner.pid) }).status).toBe(0);
    const before = read(dir);
    writeFileSync(join(dir, L), write(before));
    owner.kill('SIGKILL');
    await new Promise((r) => owner.on('exit', r));
    return before;
  }

  test('garbage: the next runner takes the lock over, the last good version is back, the garbage kept aside', async () => {
    const dir = project();
    expect(run(dir, ['jixo', 'task', 'lock', L, '1', '--runner', 'r1'], AGENT).status).toBe(0);
    const good = await killedHolder(dir, () => '## Roadmap\n- [ ] half a wri');
    const r = run(dir, ['--json', 'jixo', 'task', 'lock', L, '2', '--runner', 'next'], AGENT);
    expect(r.status, r.stderr).toBe(0);
    // The commit went onto the last good version: r1's lock from before is there, and next's.
    const tasks = (json(run(dir, ['--json', 'jixo', 'task', 'list', L]).stdout).tasks as { id: string; status: string; runner: string | null }[]).map((t) => [t.id, t.status, t.runner]);
    expect(tasks).toEqual([['1', 'Locked', 'r1'], ['2', 'Locked', 'next'], ['3', 'Pending', null]]);
    expect(good).toContain('  - runner: r1');
    const rejected = readdirSync(join(dir, '.jixo')).find((f) => f.startsWith('docs.log.md.rejected-'))!;
    expect(readFileSync(join(dir, '.jixo', rejected), 'utf8')).toBe('## Roadmap\n- [ ] half a wri');
  });

  test('a move the commands would have made for it (its own task, completed with its entry) is kept', async () => {
    const dir = project();
    expect(run(dir, ['jixo', 'task', 'lock', L, '1', '--runner', 'victim'], AGENT).status).toBe(0);
    await killedHolder(dir, (text) =>
      text
        .replace(/- \[ \] 1\. Intro\n {2}- status: Locked\n {2}- runner: victim\n {2}- leaseUntil: \S+/, '- [x] 1. Intro\n  - status: Completed\n  - runner: victim')
        .replace('## Work Log\n', '## Work Log\n\n### Log 1 @docs (2030-01-01T00:00:00.000Z)\n\n- **Role**: Runner\n- **Objective**: Task 1. Intro\n- **Result**: Succeeded\n- **Summary**: written by hand, as the seed allows under the lock\n'),
    );
    const r = run(dir, ['--json', 'jixo', 'triage', J, '--runner', 'next'], AGENT);
    expect(r.status, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ role: 'Runner', taskId: '2' });
    expect(read(dir)).toContain('- [x] 1. Intro\n  - status: Completed');
    expect(readdirSync(join(dir, '.jixo')).some((f) => f.includes('rejected'))).toBe(false);
    expect(run(dir, ['jixo', 'check', L]).status).toBe(0);
  });
});

describe('plans are atomic', () => {
  test('the elected Planner\'s edit outside its log lock is refused: runners never see half a plan', () => {
    const dir = project('---\ntitle: "_待定_"\nprogress: "0%"\n---\n\n## Roadmap\n\n## Work Log\n');
    expect(json(run(dir, ['--json', 'jixo', 'triage', J, '--runner', 'planner'], AGENT).stdout)).toMatchObject({ role: 'Planner', step: 'plan-alignment' });
    const r = run(dir, ['--json', 'jixo', 'task', 'add', L, '--id', '1', '--title', 'Intro', '--runner', 'planner'], AGENT);
    expect(r.status).toBe(1);
    expect(json(r.stdout)).toMatchObject({ error: { code: 'not-planner', message: expect.stringMatching(/ratchet jixo lock/) as string } });
    expect(read(dir)).not.toContain('Intro');
  });
});

describe('Protocol 5: a default plan before asking', () => {
  test('clarify add is refused while the roadmap is empty, and accepted once a plan is committed', () => {
    const dir = project('---\ntitle: "_待定_"\nprogress: "0%"\n---\n\n## Roadmap\n\n## Work Log\n');
    const job = readFileSync(join(dir, J), 'utf8');
    const r = run(dir, ['--json', 'jixo', 'clarify', 'add', J, '--id', 'q1', '--question', 'Which audience?'], AGENT);
    expect(r.status).toBe(1);
    expect(String((json(r.stdout).error as { message: string }).message)).toMatch(/default plan/);
    expect(readFileSync(join(dir, J), 'utf8')).toBe(job);
    expect(run(dir, ['jixo', 'task', 'add', L, '--id', '1', '--title', 'Write a general intro'], USER).status).toBe(0);
    expect(run(dir, ['jixo', 'clarify', 'add', J, '--id', 'q1', '--question', 'Which audience?'], AGENT).status).toBe(0);
  });
});

describe('jixo lock --lease takes a duration, as every other --lease', () => {
  test('--lease 90s is 90 seconds; a bad one exits 2', () => {
    const dir = project();
    const r = run(dir, ['--json', 'jixo', 'lock', L, '--runner', 'r1', '--lease', '90s'], AGENT);
    expect(r.status, r.stderr).toBe(0);
    const until = Date.parse(String((json(r.stdout).holder as { leaseUntil: string }).leaseUntil));
    expect(until - Date.now()).toBeGreaterThan(80_000);
    expect(until - Date.now()).toBeLessThan(95_000);
    expect(run(dir, ['jixo', 'unlock', L, '--runner', 'r1'], AGENT).status).toBe(0);
    const bad = run(dir, ['jixo', 'lock', L, '--runner', 'r1', '--lease', 'soon'], AGENT);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--lease must be a duration/);
  });
});
