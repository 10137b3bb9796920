import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { inspectLock, LockTimeoutError } from '@ratchet/store';
import { JixoParseError, lockLog, readFileAndParse, unlockLog, updateLogFile, updateJobFile, addClarification, setTitle } from './support.js';

async function logFile(text = '---\ntitle: "t"\nprogress: "0%"\n---\n\n## Roadmap\n\n- [ ] 1. a\n  - status: Pending\n\n## Work Log\n'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'jixo-files-'));
  const path = join(dir, 'x.log.md');
  await writeFile(path, text);
  return path;
}

const ctx = { now: '2030-01-01T00:00:00.000Z' };

describe('the log lock', () => {
  test('a holder on another host is never presumed dead before the TTL, and is taken over after it', async () => {
    const path = await logFile();
    const old = new Date(Date.now() - 60_000).toISOString();
    await writeFile(`${path}.lock`, JSON.stringify({ pid: 1, host: 'some-other-host', time: old, token: 'abcdef0123456789', runner: 'far' }));
    await expect(lockLog(path, { runner: 'me', timeoutMs: 300 })).rejects.toBeInstanceOf(LockTimeoutError);
    await expect(lockLog(path, { runner: 'me', timeoutMs: 300, staleAfterMs: 120_000 })).rejects.toBeInstanceOf(LockTimeoutError);
    const got = await lockLog(path, { runner: 'me', timeoutMs: 2_000, staleAfterMs: 30_000 });
    expect(got.holder).toMatchObject({ runner: 'me', detached: true });
    await unlockLog(path, 'me');
  });

  test('a detached lock of an inactive runner is stale for a caller that knows the active runners', async () => {
    const path = await logFile();
    await lockLog(path, { runner: 'ghost', leaseMs: 600_000 });
    await expect(updateLogFile(path, (l) => setTitle(l, 'x', ctx), { timeoutMs: 300, active: ['ghost'] })).rejects.toBeInstanceOf(LockTimeoutError);
    const { log } = await updateLogFile(path, (l) => setTitle(l, 'x', ctx), { timeoutMs: 2_000, active: [] });
    expect(log.frontMatter.title).toBe('x');
    expect(await inspectLock(path)).toBeUndefined();
  });

  test('a log that does not parse is never rewritten, and the lock is not left behind', async () => {
    const bad = '---\ntitle: "t"\n---\n\n## Roadmap\n\n- [ ] 1. a\n  - status: Nope\n\n## Work Log\n';
    const path = await logFile(bad);
    await expect(updateLogFile(path, (l) => setTitle(l, 'x', ctx))).rejects.toBeInstanceOf(JixoParseError);
    expect(await readFile(path, 'utf8')).toBe(bad);
    await expect(lockLog(path, { runner: 'r' })).rejects.toBeInstanceOf(JixoParseError);
    expect(await inspectLock(path)).toBeUndefined();
  });

  test('the same process: concurrent updates lose nothing', async () => {
    const path = await logFile();
    await Promise.all(Array.from({ length: 20 }, (_, i) => updateLogFile(path, (l) => ({ ...l, sections: [...l.sections, { title: `S${i}`, body: 'b' }] }))));
    expect((await readFileAndParse(path)).sections).toHaveLength(20);
  });

  test('job files: clarification add goes through the lock and the canonical template', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jixo-job-'));
    const path = join(dir, 'a.job.md');
    await writeFile(path, 'Goal.\n');
    await updateJobFile(path, (j) => addClarification(j, { id: 'q1', question: 'Why?' }));
    expect(await readFile(path, 'utf8')).toContain('\n---\n### JIXO: CLARIFICATION REQUEST\n**ID**: q1\n');
  });
});

describe('runJob (injected spawner)', () => {
  test('N runner slots get runner id, distinct assigned tasks, job, other runners, quota, paths and the system prompt; a crash restarts the slot on the released task; exit 0 stops; a finished job is skipped', async () => {
    const { runJob, finishTask, SYSTEM_PROMPT } = await import('../src/index.js');
    const dir = await mkdtemp(join(tmpdir(), 'jixo-runjob-'));
    await writeFile(join(dir, 'docs.job.md'), '---\nname: docs\ndirs: ["src"]\n---\n\nGoal.\n');
    const complete = (req: { env: Record<string, string>; runner: string }) =>
      updateLogFile(req.env.RATCHET_JIXO_LOG_FILE!, (l) => finishTask(l, { id: req.env.RATCHET_JIXO_TASK!, runner: req.runner, job: 'docs', outcome: 'Completed', summary: 'ok' }, ctx));
    // progress 100% (as a finished job records it) with work left: skipped unless forced
    await writeFile(join(dir, 'docs.log.md'), '---\ntitle: "t"\nprogress: "100%"\n---\n\n## Roadmap\n\n- [ ] 1. a\n  - status: Pending\n- [ ] 2. b\n  - status: Pending\n\n## Work Log\n');
    const seen: { env: Record<string, string>; stdin: string }[] = [];
    let retried!: () => void;
    const retryStarted = new Promise<void>((r) => (retried = r));
    const spawn = async (req: { env: Record<string, string>; stdin: string; runner: string }) => {
      seen.push(req);
      if (seen.length === 1) return { code: 1, signal: null }; // a crash: the slot restarts as a new runner
      if (seen.length === 2) {
        await retryStarted; // the crashed slot restarted without waiting for this one
        await complete(req);
        return { code: 0, signal: null };
      }
      retried();
      await complete(req);
      return { code: 0, signal: null };
    };
    expect((await runJob({ jobPath: join(dir, 'docs.job.md'), agent: 'x', spawn })).status).toBe('skipped');
    const result = await runJob({ jobPath: join(dir, 'docs.job.md'), agent: 'agent --x', runners: 2, force: true, spawn, maxTurns: 7 });
    // every task Completed: the outer loop records the exit itself (no agent is started to say so)
    expect(result).toMatchObject({ status: 'completed', loops: 2, runs: 3, progress: 1, exit: { code: 0, reason: 'Job completed successfully.' } });
    expect(seen).toHaveLength(3);
    const [a, b, retry] = seen as [(typeof seen)[0], (typeof seen)[0], (typeof seen)[0]];
    expect(a.env.RATCHET_JIXO_RUNNER).toMatch(/^docs-[0-9a-f-]{36}-001$/);
    expect(retry.env.RATCHET_JIXO_RUNNER).toMatch(/^docs-[0-9a-f-]{36}-002$/);
    // Each agent is told of the others running when it started (never of itself, nor of a runner that had not started).
    const order = seen.map((x) => x.env.RATCHET_JIXO_RUNNER);
    seen.forEach((x, i) => {
      for (const other of x.env.RATCHET_JIXO_ACTIVE!.split(',').filter(Boolean)) expect(order.slice(0, i)).toContain(other);
    });
    expect(retry.env.RATCHET_JIXO_RUNNER).not.toBe(a.env.RATCHET_JIXO_RUNNER);
    // distinct tasks, locked for each runner before it starts; the crashed runner's task is given out again
    expect([a.env.RATCHET_JIXO_TASK, b.env.RATCHET_JIXO_TASK].sort()).toEqual(['1', '2']);
    expect(retry.env.RATCHET_JIXO_TASK).toBe(a.env.RATCHET_JIXO_TASK);
    expect(a.stdin).toContain(`Assigned_Task: ${a.env.RATCHET_JIXO_TASK} (locked for you: Task `);
    expect(a.env).toMatchObject({ RATCHET_JIXO_JOB: 'docs', RATCHET_JIXO_ROLE: 'Runner', RATCHET_JIXO_MAX_TURNS: '7', RATCHET_JIXO_DIRS: 'src', RATCHET_JIXO_JOB_FILE: join(dir, 'docs.job.md'), RATCHET_JIXO_LOG_FILE: join(dir, 'docs.log.md'), RATCHET_JIXO_OWNER_PID: String(process.pid), RATCHET_ACTOR: 'agent' });
    expect(a.stdin.startsWith(SYSTEM_PROMPT)).toBe(true);
    expect(a.stdin).toContain(`Task_Runner: ${a.env.RATCHET_JIXO_RUNNER}`);
  });

  test('an exit 1 stops the run only when one of its own runners recorded it (an old one does not)', async () => {
    const { runJob, recordExit } = await import('../src/index.js');
    const dir = await mkdtemp(join(tmpdir(), 'jixo-runjob-'));
    await writeFile(join(dir, 'docs.job.md'), '---\nname: docs\n---\n\nGoal.\n');
    const old = { code: 1, reason: 'dead end last week', runner: 'docs-old-001', time: ctx.now };
    await writeFile(join(dir, 'docs.log.md'), `---\ntitle: "t"\nprogress: "0%"\nexit: ${JSON.stringify(old)}\n---\n\n## Roadmap\n\n- [ ] 1. a\n  - status: Pending\n\n## Work Log\n`);
    let loops = 0;
    const spawn = async (req: { env: Record<string, string>; runner: string }) => {
      if (req.env.RATCHET_JIXO_LOOP === '2') await updateLogFile(req.env.RATCHET_JIXO_LOG_FILE!, (l) => recordExit(l, { code: 1, reason: 'stuck now', runner: req.runner, time: ctx.now }, ctx));
      loops = Number(req.env.RATCHET_JIXO_LOOP);
      return { code: 0, signal: null };
    };
    const ends: unknown[] = [];
    const result = await runJob({ jobPath: join(dir, 'docs.job.md'), agent: 'x', spawn, maxLoops: 5, onEvent: (e) => e.type === 'agent-exit' && ends.push({ loop: e.loop, progress: e.progress, exit: e.exit }) });
    expect(result).toMatchObject({ status: 'error', loops: 2, reason: 'stuck now' });
    // progress reports show the exit an agent recorded, not the old one
    expect(ends).toEqual([
      { loop: 1, progress: 0, exit: undefined },
      { loop: 2, progress: 0, exit: expect.objectContaining({ code: 1, reason: 'stuck now' }) as unknown },
    ]);
    expect(loops).toBe(2);
  });
});
