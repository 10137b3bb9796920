/**
 * Real Claude Code sessions with the Ratchet plugin: stops refused while the session has open
 * obligations (a task not submitted, a campaign claim, the prompt's reasoning flow), and the guards
 * that keep a stopping model from looping. Asserted from the Stop hook's continuations Claude Code
 * sent to the model and from the files on disk.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet } from '../helpers.js';
import { textOf, toolResults } from './model-server.js';
import { addCampaign, initProject, readJson } from './project.js';
import { bash, SESSION_TIMEOUT, session, stopFeedback, taskState } from './sessions.js';

describe('Claude Code with the Ratchet plugin: refused stops and the loop guards', () => {
  test('stopping after task close but before task submit is blocked, naming ratchet task submit', { timeout: SESSION_TIMEOUT }, async () => {
    const dir = initProject({ task: 't1' });
    mkdirSync(join(dir, 'plans'));
    appendFileSync(join(dir, 'plans/t1.txt'), 'set_plan t1\nplan_step_complete go\nrun_in_bash_session close\n');
    expect(ratchet(['run', 'plan', 'plans/t1.txt'], { cwd: dir }).status).toBe(0);
    for (let i = 0; i < 3; i++) expect(ratchet(['run', 'done'], { cwd: dir }).status).toBe(0);
    expect(ratchet(['task', 'close', '--task-id', 't1'], { cwd: dir }).status).toBe(0);

    const { server } = await session(dir, '-b wrap up', [{ text: 'All done.' }, { text: 'Done, really.' }], { sessionId: '11111111-aaaa-4bbb-8ccc-000000000003' });
    const feedback = stopFeedback(server);
    expect(feedback).toHaveLength(1);
    expect(feedback[0]).toContain('task t1 is POST_MORTEM');
    expect(feedback[0]).toContain('`ratchet lessons extract postmortems/t1.md`');
    expect(feedback[0]).toContain('`ratchet task submit --task-id t1`');
    expect(taskState(dir)).toBe('POST_MORTEM');
  });

  test('a campaign claim made through Bash blocks the stop until the task is completed (ratchet found on PATH)', { timeout: SESSION_TIMEOUT }, async () => {
    const dir = initProject();
    addCampaign(dir);
    const { server } = await session(
      dir,
      '-b build the next campaign task',
      [bash('ratchet campaign ready --claim builder-7'), { text: 'Claimed it; stopping.' }, bash('ratchet campaign update-task 001 complete --runner builder-7'), { text: 'Task 001 complete.' }],
      { sessionId: '11111111-aaaa-4bbb-8ccc-000000000004', viaPath: true },
    );
    const results = toolResults(server);
    expect(results.map((r) => r.isError)).toEqual([false, false]);
    expect(results[0]?.text).toContain('001');
    const feedback = stopFeedback(server);
    expect(feedback).toHaveLength(1);
    expect(feedback[0]).toContain('builder-7');
    expect(feedback[0]).toContain('ratchet campaign update-task 001 complete --runner builder-7');
    const campaign = readJson<{ tasks: { seq: number; status: string }[] }>(join(dir, '.ratchet/campaign.json'));
    expect(campaign.tasks.find((t) => t.seq === 1)?.status).toBe('complete');
    expect(server.remaining()).toBe(0);
  });

  test('a prompt starts the reasoning flow; stopping without it is blocked once, naming ratchet flow advance', { timeout: SESSION_TIMEOUT }, async () => {
    // The per-prompt reasoning flow is the project's choice (`ratchet init --reasoning-flow`).
    const dir = initProject({ config: { reasoningFlow: 'reasoning' } });
    const { server } = await session(dir, 'add a login page', [{ text: 'Here is a login page.' }, { text: 'Still done.' }], { sessionId: '22222222-aaaa-4bbb-8ccc-000000000005' });
    // The directive reached the model with the prompt.
    expect(textOf(server.requests[0]?.messages[0]?.content)).toContain('ratchet flow advance --session cc-22222222-1');
    const feedback = stopFeedback(server);
    expect(feedback).toHaveLength(1);
    expect(feedback[0]).toContain('flow reasoning session cc-22222222-1 is EXECUTING at step 0');
    expect(feedback[0]).toContain("`ratchet flow advance --session cc-22222222-1 --output '<file>'`");
    expect(readJson<{ status?: string; state?: string }>(join(dir, '.ratchet/flows/cc-22222222-1.json'))).toBeTruthy();
  });

  test('the loop guard: a model that keeps moving and stopping is let go after hooks.maxStopBlocks', { timeout: SESSION_TIMEOUT }, async () => {
    const dir = initProject({ config: { maxStopBlocks: 2, reasoningFlow: 'reasoning' } });
    // Step 0 goes on only with its output handed in (the Johari sections), here on standard input.
    const step0 = ['## SHARE', '## ASK', '## ACKNOWLEDGE', '## EXPLORE'].map((h) => `${h}\n\nThe request is to explain the code; nothing here blocks the work.\n`).join('\n');
    const advance = bash(`ratchet flow advance --session cc-33333333-1 --output - <<'OUTPUT'\n${step0}OUTPUT`);
    const { run, server } = await session(dir, 'explain the code', [{ text: 'Stop 1.' }, advance, { text: 'Stop 2.' }, advance, { text: 'Stop 3.' }, { text: 'Unused.' }], {
      sessionId: '33333333-aaaa-4bbb-8ccc-000000000006',
    });
    const feedback = stopFeedback(server);
    expect(feedback).toHaveLength(2);
    expect(feedback[0]).toContain('at step 0');
    expect(feedback[1]).toContain('at step 1');
    expect(run.result?.result).toBe('Stop 3.');
    expect(server.remaining()).toBe(1);
    expect(readJson<{ stopBlocks: number }>(join(dir, '.ratchet/hooks/33333333-aaaa-4bbb-8ccc-000000000006.json')).stopBlocks).toBe(2);
  });
});
