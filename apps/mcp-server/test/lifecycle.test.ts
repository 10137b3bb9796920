import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { fillPostMortem } from '../../../tests/helpers.js';
import { call, connect, errorText, ok, taskProject, type Connected } from './helpers.js';

interface Next {
  state: string;
  next: { step?: { line: string; chain: string[] } };
}

const session = (dir: string): { taskId: string; state: string } => JSON.parse(readFileSync(join(dir, '.ratchet/session.json'), 'utf8')) as never;

let server: Connected | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a whole task through tools/call (the server is its own process, the project its cwd)', () => {
  test('task start, run plan, run next/done through every step, task close, post-mortem, lessons, task submit: all with the default core preset', { timeout: 120_000 }, async () => {
    const dir = taskProject();
    // The default selection (core): it alone must carry a task from task_start to task_submit.
    server = await connect(dir);

    const started = await ok(server, 'task_start', { task_id: 'T-1', network: false });
    expect(started).toMatchObject({ ok: true, taskId: 'T-1', state: 'PLANNING' });
    expect(session(dir)).toMatchObject({ taskId: 'T-1', state: 'PLANNING' });
    expect(existsSync(join(dir, '.ratchet/orientation.json'))).toBe(true);

    const planned = await ok(server, 'run_plan', { plan: 'plans/main.txt' });
    expect(planned).toMatchObject({ ok: true, state: 'EXECUTING', plan: 'plans/main.txt' });

    const lines: string[] = [];
    const chains: string[][] = [];
    for (let i = 0; i < 20; i++) {
      const next = (await ok(server, 'run_next')) as unknown as Next;
      if (next.state !== 'EXECUTING') break;
      lines.push(next.next.step!.line);
      chains.push(next.next.step!.chain);
      const done = await ok(server, 'run_done', { message: `step ${i + 1}` });
      expect(done.ok).toBe(true);
    }
    // The sub-plan's steps run between main's second and last, with the call chain to show it.
    expect(lines).toEqual(['set_plan main', 'plan_step_complete go', 'set_plan sub', 'plan_step_complete go', 'run_in_bash_session close', 'run_in_bash_session close']);
    expect(chains[2]).toEqual(['plans/main.txt', 'plans/sub.txt']);
    expect(session(dir).state).toBe('AWAITING_ANALYSIS');

    const closed = await ok(server, 'task_close', { task_id: 'T-1' });
    expect(closed).toMatchObject({ ok: true, state: 'POST_MORTEM', postMortem: 'postmortems/T-1.md' });
    const pm = join(dir, 'postmortems/T-1.md');
    expect(existsSync(pm)).toBe(true);

    // The untouched template is refused: the command did not do what was asked, so a tool error.
    const refused = await call(server, 'task_submit', { task_id: 'T-1' });
    expect(errorText(refused)).toContain('postmortem-section-empty');
    expect(session(dir).state).toBe('POST_MORTEM');

    // Self-correction before submit: the post-mortem filled in (the agent's own file) and its
    // lessons extracted through the server; without them the submit is refused.
    writeFileSync(pm, fillPostMortem(readFileSync(pm, 'utf8')));
    expect(errorText(await call(server, 'task_submit', { task_id: 'T-1' }))).toMatch(/lessons extract/);
    const extracted = await ok(server, 'lessons_extract', { postmortem: 'postmortems/T-1.md' });
    expect(JSON.stringify(extracted)).toContain('T-1');
    const submitted = await ok(server, 'task_submit', { task_id: 'T-1' });
    expect(submitted).toMatchObject({ ok: true, state: 'DONE' });
    expect(session(dir).state).toBe('DONE');
    const log = readFileSync(join(dir, 'logs/activity.log.jsonl'), 'utf8');
    expect(log.split('\n').filter((l) => l.includes('"STEP_COMPLETE"'))).toHaveLength(6);
    expect(log).toContain('"TASK_END"');

    const status = await ok(server, 'run_status');
    expect(status).toMatchObject({ ok: true, session: { taskId: 'T-1', state: 'DONE' } });
  });
});
