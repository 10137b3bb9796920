import { createRequire } from 'node:module';
import { copyFile, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const tsx = createRequire(join(repoRoot, 'package.json')).resolve('tsx');

function capture(cwd: string, env: Record<string, string> = {}): { io: Io; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env, cwd, readStdin: () => Promise.resolve('') },
    out: () => out,
    err: () => err,
  };
}

/** The fields of the --json documents these tests look at. */
interface Out {
  ok: boolean;
  error: { code: string; message: string };
  task: unknown;
  tasks: { status: string }[];
  content: string;
  holder: unknown;
  clarifications: unknown[];
}

async function jixo(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; json: Out; err: string }> {
  const c = capture(cwd, env);
  const code = await run(['--json', 'jixo', ...args], c.io);
  return { code, json: (c.out() ? JSON.parse(c.out()) : {}) as Out, err: c.err() };
}

async function project(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'jixo-cli-'));
  await writeFile(join(dir, 'docs.job.md'), '---\nname: docs\n---\n\nWrite docs.\n');
  await writeFile(
    join(dir, 'docs.log.md'),
    '---\ntitle: "Docs"\nprogress: "0%"\n---\n\n## Roadmap\n\n- [ ] 1. Intro\n  - status: Pending\n- [ ] 2. Tutorial\n  - status: Pending\n  - dependsOn: 1\n\n## Work Log\n',
  );
  return dir;
}

describe('ratchet jixo', () => {
  test('front matter with YAML aliases is refused with the place, never rewritten with the aliases expanded', async () => {
    const dir = await project();
    const text = (await readFile(join(dir, 'docs.log.md'), 'utf8')).replace('progress: "0%"\n', 'progress: "0%"\na: &a [1, 2]\nb: &b [*a, *a]\n');
    await writeFile(join(dir, 'docs.log.md'), text);
    const r = await jixo(dir, ['title', 'docs.log.md', 'New title']);
    expect(r.code).toBe(2);
    expect(r.json.error.message).toContain('YAML aliases (*a) are not supported');
    expect(await readFile(join(dir, 'docs.log.md'), 'utf8')).toBe(text);
  });

  test('a job file with YAML aliases is refused the same way: clarify add and remove never rewrite it with the aliases expanded', async () => {
    const dir = await project();
    expect((await jixo(dir, ['clarify', 'add', 'docs.job.md', '--id', 'q1', '--question', 'Audience?'])).code).toBe(0);
    const text = (await readFile(join(dir, 'docs.job.md'), 'utf8')).replace('name: "docs"\n', 'name: "docs"\na: &a [1, 2]\nb: &b [*a, *a]\n');
    await writeFile(join(dir, 'docs.job.md'), text);
    for (const args of [
      ['clarify', 'add', 'docs.job.md', '--id', 'q2', '--question', 'Format?'],
      ['clarify', 'remove', 'docs.job.md', 'q1'],
      ['clarify', 'list', 'docs.job.md'],
      ['triage', 'docs.job.md', '--runner', 'r1'],
    ]) {
      const r = await jixo(dir, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.json.error.message).toContain('YAML aliases (*a) are not supported');
      // The job file's own place: the first alias, on the line of `b:` (line 4).
      expect(r.json.error).toMatchObject({ code: 'parse-error', line: 4 });
    }
    expect(await readFile(join(dir, 'docs.job.md'), 'utf8')).toBe(text);
  });

  test('front matter nested thousands of levels deep is an input error (exit 2), never an internal one', async () => {
    // The yaml library's parser recurses once per nested block mapping: deep inside a command, a
    // couple of thousand overflowed the stack and `jixo check` / `jixo title` exited 70.
    const dir = await project();
    const text = await readFile(join(dir, 'docs.log.md'), 'utf8');
    for (const depth of [1500, 2000, 2500, 3000]) {
      const nested = Array.from({ length: depth }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
      const deep = text.replace('---\n', `---\n${nested} v\n`);
      await writeFile(join(dir, 'docs.log.md'), deep);
      const check = await jixo(dir, ['check', 'docs.log.md']);
      expect(check.code, check.err).toBe(1);
      const title = await jixo(dir, ['title', 'docs.log.md', 'New title']);
      expect(title.code, title.err).toBe(2);
      expect(title.json.error.message).toBe('front matter nests too deeply to read (more than 256 levels is refused)');
      expect(await readFile(join(dir, 'docs.log.md'), 'utf8')).toBe(deep);
    }
  });

  test('a write clears temp files a killed writer left beside the log and the job file, as other state files do', async () => {
    const dir = await project();
    const leftovers = ['.docs.log.md.4242.0123456789ab.tmp', '.docs.job.md.4242.0123456789ab.tmp'];
    for (const name of leftovers) await writeFile(join(dir, name), 'half a write');
    expect((await jixo(dir, ['task', 'lock', 'docs.log.md', '1', '--runner', 'r1'])).code).toBe(0);
    expect((await jixo(dir, ['clarify', 'add', 'docs.job.md', '--id', 'q1', '--question', 'Which audience?'])).code).toBe(0);
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  test('triage -> task lock -> complete -> triage -> ... -> exit 0, with --json documents', async () => {
    const dir = await project();
    let t = await jixo(dir, ['triage', 'docs.job.md', '--runner', 'r1']);
    expect(t.json).toMatchObject({ ok: true, kind: 'role', role: 'Runner', taskId: '1' });
    expect((await jixo(dir, ['task', 'lock', 'docs.log.md', '1', '--runner', 'r1'])).json.task).toMatchObject({ status: 'Locked', runner: 'r1' });
    // the dependency is not Completed: refused (exit 1), file untouched
    const before = await readFile(join(dir, 'docs.log.md'), 'utf8');
    expect((await jixo(dir, ['task', 'lock', 'docs.log.md', '2', '--runner', 'r2'])).code).toBe(2);
    expect(await readFile(join(dir, 'docs.log.md'), 'utf8')).toBe(before);
    // another runner cannot complete r1's task
    const wrong = await jixo(dir, ['task', 'complete', 'docs.log.md', '1', '--runner', 'r2', '--summary', 'x']);
    expect(wrong.code).toBe(1);
    expect(wrong.json.error.code).toBe('wrong-runner');
    const done = await jixo(dir, ['task', 'complete', 'docs.log.md', '1', '--runner', 'r1', '--summary', 'wrote intro']);
    expect(done.json).toMatchObject({ ok: true, progress: 0.5, entry: { number: 1, role: 'Runner', result: 'Succeeded', summary: 'wrote intro' } });
    // r2 sees r1 active? r1 is finished; r2 takes task 2
    t = await jixo(dir, ['triage', 'docs.job.md', '--runner', 'r2']);
    expect(t.json).toMatchObject({ role: 'Runner', taskId: '2' });
    await jixo(dir, ['task', 'lock', 'docs.log.md', '2', '--runner', 'r2']);
    // r3, with r2 active: standby (exit 2)
    expect((await jixo(dir, ['triage', 'docs.job.md', '--runner', 'r3', '--active', 'r2'])).json).toMatchObject({ kind: 'exit', code: 2 });
    // r3, with r2 NOT active: r2's task lock has a live lease (r2 may run on another host), so still standby
    expect((await jixo(dir, ['triage', 'docs.job.md', '--runner', 'r3', '--active', ''])).json).toMatchObject({ kind: 'exit', code: 2, staleLocks: [] });
    // Once the lease has passed (moved into the past here), the lock is stale, released, and r3 is told to run task 2
    const logPath = join(dir, 'docs.log.md');
    await writeFile(logPath, (await readFile(logPath, 'utf8')).replace(/leaseUntil: \S+/, 'leaseUntil: 2000-01-01T00:00:00.000Z'));
    t = await jixo(dir, ['triage', 'docs.job.md', '--runner', 'r3', '--active', '']);
    expect(t.json).toMatchObject({ role: 'Runner', taskId: '2', staleLocks: ['2'] });
    await jixo(dir, ['task', 'lock', 'docs.log.md', '2', '--runner', 'r3']);
    await jixo(dir, ['task', 'complete', 'docs.log.md', '2', '--runner', 'r3', '--summary', 'tutorial']);
    t = await jixo(dir, ['triage', 'docs.job.md', '--runner', 'r4']);
    expect(t.json).toMatchObject({ kind: 'exit', code: 0 });
    expect((await jixo(dir, ['exit', 'docs.log.md', '--runner', 'r4', '--code', '0', '--reason', 'done'])).json).toMatchObject({ progress: 1, exit: { code: 0 } });
    const list = await jixo(dir, ['task', 'list', 'docs.log.md']);
    expect(list.json.tasks.map((x) => x.status)).toEqual(['Completed', 'Completed']);
  });

  test('illegal moves are typed refusals (exit 1), not writes', async () => {
    const dir = await project();
    const r = await jixo(dir, ['task', 'complete', 'docs.log.md', '1', '--runner', 'r1', '--summary', 's']);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ code: 'illegal-transition' });
    expect(r.json.error.message).toContain('Pending -> Completed is not allowed');
  });

  test('lock holds across invocations; unlock by another runner is refused; a second lock waits and times out', async () => {
    const dir = await project();
    const l = await jixo(dir, ['lock', 'docs.log.md', '--runner', 'r1']);
    expect(l.code).toBe(0);
    expect(l.json.content).toContain('## Roadmap');
    expect(l.json.holder).toMatchObject({ runner: 'r1', detached: true });
    const other = await jixo(dir, ['lock', 'docs.log.md', '--runner', 'r2', '--timeout', '1200']);
    expect(other.code).toBe(2); // as every lock timeout
    expect(other.json.error.code).toBe('lock-timeout');
    // The whole wait is reported, not the last polling slice of it.
    expect(other.json.error.message).toMatch(/^timed out after 1200 ms waiting for the lock/);
    expect((await jixo(dir, ['unlock', 'docs.log.md', '--runner', 'r1'])).code).toBe(0);
  }, 20_000);

  test('unlock: refused for a non-holder, accepted for the holder; the holder can write while holding it', async () => {
    const dir = await project();
    await jixo(dir, ['lock', 'docs.log.md', '--runner', 'r1', '--lease', '5000']);
    const refused = await jixo(dir, ['unlock', 'docs.log.md', '--runner', 'r2']);
    expect(refused.code).toBe(1);
    expect(refused.json.error).toMatchObject({ code: 'lock-not-held' });
    expect((await jixo(dir, ['task', 'lock', 'docs.log.md', '1', '--runner', 'r1'])).code).toBe(0);
    expect((await jixo(dir, ['unlock', 'docs.log.md', '--runner', 'r1'])).code).toBe(0);
    expect((await jixo(dir, ['unlock', 'docs.log.md', '--runner', 'r1'])).code).toBe(1);
  });

  test('a log that does not parse: exit 2 with file:line:col, and it is never rewritten', async () => {
    const dir = await project();
    const broken = '---\ntitle: x\n---\n\n## Roadmap\n\n- [ ] 1. a\n  - status: Doing\n\n## Work Log\n';
    await writeFile(join(dir, 'docs.log.md'), broken);
    const c = capture(dir);
    expect(await run(['jixo', 'task', 'lock', 'docs.log.md', '1', '--runner', 'r1'], c.io)).toBe(2);
    expect(c.err()).toMatch(/docs\.log\.md:8:\d+: task 1: unknown status "Doing"/);
    expect(await readFile(join(dir, 'docs.log.md'), 'utf8')).toBe(broken);
    expect((await jixo(dir, ['check', 'docs.log.md'])).code).toBe(1);
    expect((await jixo(dir, ['lock', 'docs.log.md', '--runner', 'r1'])).code).toBe(2);
    expect((await jixo(dir, ['unlock', 'docs.log.md', '--runner', 'r1'])).code).toBe(1); // lock given back
  });

  test('a log with several problems: each on its own line with its place, all in the --json error', async () => {
    const dir = await project();
    const broken = '---\ntitle: x\nprogress: abc\n---\n\n## Roadmap\n\n- [ ] 1. a\n  - status: Doing\n- [ ] 2. b\n  - status: Nope\n\n## Work Log\n';
    await writeFile(join(dir, 'docs.log.md'), broken);
    const c = capture(dir);
    expect(await run(['jixo', 'progress', 'docs.log.md'], c.io)).toBe(2);
    const lines = c.err().trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/docs\.log\.md:3:\d+: front matter "progress"/);
    expect(lines[1]).toMatch(/docs\.log\.md:9:\d+: task 1: unknown status "Doing"/);
    expect(lines[2]).toMatch(/docs\.log\.md:11:\d+: task 2: unknown status "Nope"/);
    const j = capture(dir);
    expect(await run(['--json', '--quiet', 'jixo', 'progress', 'docs.log.md'], j.io)).toBe(2);
    const error = (JSON.parse(j.out()) as { error: { problems: { line: number; message: string }[] } }).error;
    expect(error.problems.map((p) => p.line)).toEqual([3, 9, 11]);
    expect(await readFile(join(dir, 'docs.log.md'), 'utf8')).toBe(broken);
  });

  test('hostile input: binary, __proto__ front matter, traversal in a job name, a bad runner id; CRLF+BOM is fine', async () => {
    const dir = await project();
    await writeFile(join(dir, 'bin.log.md'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0xff, 0xfe]));
    const bin = await jixo(dir, ['task', 'list', 'bin.log.md']);
    expect(bin.code).toBe(2);
    expect(bin.json.error.code).toBe('binary-file');
    await writeFile(join(dir, 'proto.log.md'), '---\ntitle: x\n__proto__: {a: 1}\n---\n\n## Roadmap\n\n## Work Log\n');
    const proto = await jixo(dir, ['title', 'proto.log.md', 'y']);
    expect(proto.code).toBe(2);
    expect(proto.json.error).toMatchObject({ code: 'parse-error', line: 3 });
    await writeFile(join(dir, 'evil.job.md'), '---\nname: ../../outside\n---\n\nGoal\n');
    expect((await jixo(dir, ['triage', 'evil.job.md', '--runner', 'r'])).code).toBe(2);
    expect((await jixo(dir, ['task', 'lock', 'docs.log.md', '1', '--runner', '../r'])).code).toBe(2);
    const crlf = `\ufeff${(await readFile(join(dir, 'docs.log.md'), 'utf8')).replace(/\n/g, '\r\n')}`;
    await writeFile(join(dir, 'docs.log.md'), crlf);
    expect((await jixo(dir, ['task', 'lock', 'docs.log.md', '1', '--runner', 'r1'])).code).toBe(0);
    expect(await readFile(join(dir, 'docs.log.md'), 'utf8')).not.toContain('\r');
  });

  test('clarify add / list (answered) / remove', async () => {
    const dir = await project();
    expect((await jixo(dir, ['clarify', 'add', 'docs.job.md', '--id', 'q1', '--question', 'Audience?'])).code).toBe(0);
    const job = await readFile(join(dir, 'docs.job.md'), 'utf8');
    expect(job).toContain('### JIXO: CLARIFICATION REQUEST\n**ID**: q1');
    expect((await jixo(dir, ['clarify', 'list', 'docs.job.md'])).json.clarifications[0]).toMatchObject({ id: 'q1', answered: false });
    await writeFile(join(dir, 'docs.job.md'), job.replace(/- <!--.*-->/, '- Beginners'));
    expect((await jixo(dir, ['clarify', 'list', 'docs.job.md'])).json.clarifications[0]).toMatchObject({ answered: true, response: 'Beginners' });
    expect((await jixo(dir, ['triage', 'docs.job.md', '--runner', 'p'])).json).toMatchObject({ role: 'Planner', step: 'user-reply', clarificationId: 'q1' });
    await jixo(dir, ['clarify', 'remove', 'docs.job.md', 'q1']);
    expect(await readFile(join(dir, 'docs.job.md'), 'utf8')).toBe('---\nname: "docs"\n---\n\nWrite docs.\n');
  });

  test('jixo run: two fake agents using `ratchet jixo` commands plan, run and finish the job; a crash is retried; a finished job is skipped', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jixo-run-'));
    await copyFile(join(repoRoot, 'examples/jixo/docs.job.md'), join(dir, 'docs.job.md'));
    const agent = `RATCHET_CLI_MAIN=${join(repoRoot, 'apps/cli/src/main.ts')} FAKE_AGENT_CRASH_ONCE=${join(dir, 'crashed')} node --conditions=@ratchet/source --import ${tsx} ${join(repoRoot, 'examples/jixo/fake-agent.mjs')}`;
    const c = capture(dir);
    const code = await run(['--json', 'jixo', 'run', 'docs.job.md', '--agent', agent, '--runners', '2', '--max-loops', '6'], c.io);
    const result = JSON.parse(c.out()) as unknown;
    expect(result, c.err()).toMatchObject({ ok: true, status: 'completed', progress: 1, exit: { code: 0 } });
    expect(code).toBe(0);
    expect(c.err()).toContain('crashed');
    // The crashed agent's slot starts another run (the pool restarts each slot on its own).
    expect(c.err()).toMatch(/slot (\d+): \S+ crashed \(1\)[\s\S]*slot \1: run \d+/);
    expect((await readdir(join(dir, 'out'))).sort(), (await readdir(join(dir, 'out'))).join()).toEqual(['1.1.txt', '1.2.txt', '1.3.txt']);
    const log = await readFile(join(dir, 'docs.log.md'), 'utf8');
    expect(log).toContain('title: "Write the three parts of the guide."');
    expect(log.match(/- \*\*Result\*\*: Succeeded/g)).toHaveLength(4); // 1 plan + 3 tasks
    const again = capture(dir);
    expect(await run(['--json', 'jixo', 'run', 'docs.job.md', '--agent', 'false'], again.io)).toBe(0);
    expect(JSON.parse(again.out())).toMatchObject({ status: 'skipped' });
  }, 120_000);
});

describe('ratchet jixo: the shortcuts an agent would take are refused (issue 15)', () => {
  const agent = { RATCHET_ACTOR: 'agent' };

  test('check: a task ticked Completed by hand, with no Work Log entry, is an error at its line (exit 1)', async () => {
    const dir = await project();
    const path = join(dir, 'docs.log.md');
    // The honest path passes: lock, complete (status and entry in one write).
    expect((await jixo(dir, ['task', 'lock', 'docs.log.md', '1', '--runner', 'r1'])).code).toBe(0);
    expect((await jixo(dir, ['task', 'complete', 'docs.log.md', '1', '--runner', 'r1', '--summary', 'wrote it'])).code).toBe(0);
    expect((await jixo(dir, ['check', 'docs.log.md'])).code).toBe(0);
    // The shortcut: edit task 2 from Pending to Completed by hand.
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('- [ ] 2. Tutorial\n  - status: Pending', '- [x] 2. Tutorial\n  - status: Completed'));
    const r = await jixo(dir, ['check', 'docs.log.md']);
    expect(r.code).toBe(1);
    const line = (await readFile(path, 'utf8')).split('\n').findIndex((l) => l.includes('2. Tutorial')) + 1;
    expect((r.json as unknown as { diagnostics: unknown[] }).diagnostics).toContainEqual(expect.objectContaining({ rule: 'status-without-entry', severity: 'error', line }));
    // Claiming the task for another runner than the one whose entry completed it is caught too.
    await writeFile(path, text.replace('  - runner: r1', '  - runner: someone-else'));
    expect((await jixo(dir, ['check', 'docs.log.md'])).code).toBe(1);
  });

  test('exit 1: a runner with a task to run is refused (the job goes on); the Planner and the user may record it', async () => {
    const dir = await project();
    // Triage makes r1 the Runner of task 1: it may not stop the whole job.
    const refused = await jixo(dir, ['exit', 'docs.log.md', '--runner', 'r1', '--code', '1', '--reason', 'I give up'], agent);
    expect(refused.code).toBe(1);
    expect(refused.json.error.code).toBe('not-planner');
    expect(await readFile(join(dir, 'docs.log.md'), 'utf8')).not.toContain('exit:');
    // Code 2 (standby) stays open to any runner.
    expect((await jixo(dir, ['exit', 'docs.log.md', '--runner', 'r1', '--code', '2', '--reason', 'standby'], agent)).code).toBe(0);
    // The user (no RATCHET_ACTOR=agent) may.
    expect((await jixo(dir, ['exit', 'docs.log.md', '--runner', 'me', '--code', '1', '--reason', 'stop'])).code).toBe(0);
    // The elected Planner may: a Failed task makes the runner that triages next the Planner, and
    // triage records it. Before that election, the same runner is refused.
    const dir2 = await project();
    await jixo(dir2, ['task', 'lock', 'docs.log.md', '1', '--runner', 'r1']);
    await jixo(dir2, ['task', 'fail', 'docs.log.md', '1', '--runner', 'r1', '--summary', 'broken']);
    expect((await jixo(dir2, ['exit', 'docs.log.md', '--runner', 'p1', '--code', '1', '--reason', 'the job cannot be done'], agent)).code).toBe(1);
    expect((await jixo(dir2, ['triage', 'docs.job.md', '--runner', 'p1'], agent)).json).toMatchObject({ role: 'Planner' });
    expect((await jixo(dir2, ['exit', 'docs.log.md', '--runner', 'p2', '--code', '1', '--reason', 'the job cannot be done'], agent)).code).toBe(1);
    expect((await jixo(dir2, ['exit', 'docs.log.md', '--runner', 'p1', '--code', '1', '--reason', 'the job cannot be done'], agent)).code).toBe(0);
  });

  test('blockers: a recorded --blocker makes a Planner whatever the wording; "blocked" in a plain pause does not; unblock clears it', async () => {
    const dir = await project();
    await jixo(dir, ['task', 'lock', 'docs.log.md', '1', '--runner', 'r1']);
    // Wording alone no longer decides: a pause whose summary says "blocked" is a normal pause.
    await jixo(dir, ['task', 'pause', 'docs.log.md', '1', '--runner', 'r1', '--summary', 'blocked by my turn quota, half done']);
    expect((await jixo(dir, ['triage', 'docs.job.md', '--runner', 'r2'])).json).toMatchObject({ role: 'Runner', taskId: '1' });
    await jixo(dir, ['task', 'lock', 'docs.log.md', '1', '--runner', 'r2']);
    const paused = await jixo(dir, ['task', 'pause', 'docs.log.md', '1', '--runner', 'r2', '--summary', 'half done', '--blocker', 'which audience']);
    expect(paused.code).toBe(0);
    const t = await jixo(dir, ['triage', 'docs.job.md', '--runner', 'r3']);
    expect(t.json).toMatchObject({ role: 'Planner', step: 'pending-blocker', taskId: '1' });
    expect((t.json as unknown as { objective: string }).objective).toContain('ratchet jixo task unblock');
    // Only a task whose newest entry records a blocker can be unblocked; then triage hands it to runners again.
    expect((await jixo(dir, ['task', 'unblock', 'docs.log.md', '2', '--summary', 'x'])).code).toBe(1);
    expect((await jixo(dir, ['task', 'unblock', 'docs.log.md', '1', '--runner', 'r3', '--summary', 'the job now says: developers'])).code).toBe(0);
    expect((await jixo(dir, ['triage', 'docs.job.md', '--runner', 'r4'])).json).toMatchObject({ role: 'Runner', taskId: '1' });
    // A blocker on a completed task makes no sense: refused as input.
    await jixo(dir, ['task', 'lock', 'docs.log.md', '1', '--runner', 'r4']);
    expect((await jixo(dir, ['task', 'complete', 'docs.log.md', '1', '--runner', 'r4', '--summary', 'ok', '--blocker', 'x'])).code).toBe(2);
  });

  test('Planner commands write under the Planner\'s own lock; add --phase makes a phase that stays one; edit, depends, remove', async () => {
    const dir = await project();
    expect((await jixo(dir, ['lock', 'docs.log.md', '--runner', 'p1'])).code).toBe(0);
    // Without --runner the command waits for the lock, like anyone else's write would.
    for (const args of [
      ['task', 'add', 'docs.log.md', '--id', '3', '--title', 'Reference', '--phase', '--runner', 'p1'],
      ['task', 'add', 'docs.log.md', '--id', '3.1', '--title', 'Options', '--parent', '3', '--runner', 'p1'],
      ['task', 'add', 'docs.log.md', '--id', '4', '--title', 'Later', '--phase', '--runner', 'p1'],
      ['title', 'docs.log.md', 'Document the CLI', '--runner', 'p1'],
      ['task', 'edit', 'docs.log.md', '2', '--title', 'Tutorial and FAQ', '--runner', 'p1'],
      ['task', 'depends', 'docs.log.md', '3.1', '--on', '2', '--runner', 'p1'],
      ['task', 'add', 'docs.log.md', '--id', '5', '--title', 'Spare', '--runner', 'p1'],
      ['task', 'remove', 'docs.log.md', '5', '--runner', 'p1'],
      ['task', 'cancel', 'docs.log.md', '3.1', '--runner', 'p1'],
    ]) {
      const r = await jixo(dir, args);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(0);
    }
    expect((await jixo(dir, ['unlock', 'docs.log.md', '--runner', 'p1'])).code).toBe(0);
    const text = await readFile(join(dir, 'docs.log.md'), 'utf8');
    expect(text).toContain('title: "Document the CLI"');
    expect(text).toContain('- [ ] 2. Tutorial and FAQ');
    expect(text).not.toContain('5. Spare');
    // The empty phase 4 is still a phase after a round trip: not a Pending task that runners would pick.
    const list = await jixo(dir, ['task', 'list', 'docs.log.md']);
    expect((list.json as unknown as { tasks: { id: string }[] }).tasks.map((t) => t.id)).toEqual(['1', '2', '3.1']);
    // A dependency cycle and removing a task with history are refused.
    expect((await jixo(dir, ['task', 'depends', 'docs.log.md', '1', '--on', '2'])).code).toBe(2);
    await jixo(dir, ['task', 'lock', 'docs.log.md', '1', '--runner', 'r1']);
    await jixo(dir, ['task', 'pause', 'docs.log.md', '1', '--runner', 'r1', '--summary', 'later']);
    expect((await jixo(dir, ['task', 'remove', 'docs.log.md', '1'])).code).toBe(1);
  });

  test('clarify add writes its introduction in the job\'s language', async () => {
    const dir = await project();
    await writeFile(join(dir, 'zh.job.md'), '---\nname: zh\n---\n\n为项目编写中文文档，包括安装指南和使用说明（README）。\n');
    // Protocol 5: a default plan first.
    await writeFile(join(dir, 'zh.log.md'), '---\ntitle: "文档"\n---\n\n## Roadmap\n\n- [ ] 1. 写 README\n  - status: Pending\n\n## Work Log\n');
    expect((await jixo(dir, ['clarify', 'add', 'zh.job.md', '--id', 'q1', '--question', '面向哪些读者？'])).code).toBe(0);
    expect(await readFile(join(dir, 'zh.job.md'), 'utf8')).toContain('**To User**: 为了提供更准确的结果');
    expect((await jixo(dir, ['clarify', 'add', 'docs.job.md', '--id', 'q1', '--question', 'Which audience?'])).code).toBe(0);
    expect(await readFile(join(dir, 'docs.job.md'), 'utf8')).toContain('**To User**: To provide a more accurate result');
  });
});

describe('quickstart steps (in-process; the run step with the in-process fake agent)', () => {
  test('each JIXO step exits as the tour says', async () => {
    const { JIXO_STEPS } = await import('../src/quickstart/jixo-steps.js');
    const dir = await mkdtemp(join(tmpdir(), 'jixo-tour-'));
    const { cp } = await import('node:fs/promises');
    for (const step of JIXO_STEPS) {
      for (const example of step.examples ?? []) await cp(join(repoRoot, 'examples', example), join(dir, 'examples', example));
      const args = step.args.map((a) =>
        a === 'node fake-agent.mjs' ? `RATCHET_CLI_MAIN=${join(repoRoot, 'apps/cli/src/main.ts')} node --conditions=@ratchet/source --import ${tsx} fake-agent.mjs` : a,
      );
      const c = capture(dir);
      expect(await run([...args, '--cwd', dir], c.io), `${step.title}: ${c.err()}`).toBe(step.expectExit);
    }
  }, 120_000);
});
