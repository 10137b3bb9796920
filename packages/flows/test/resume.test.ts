/**
 * A halt hands the decision to the user. The shortcut an agent would take, resuming its own halt
 * with no answers, is refused; the answers are kept beside the questions, which stay.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { flowStatus, haltFlow, loadFlowFile, openSession, resumeFlow, startFlow } from '../src/index.js';
import { REASONING, runner, think, tmpProject } from './support.js';

async function halted(root: string, questions: string[]): Promise<void> {
  const flow = await loadFlowFile(REASONING);
  await startFlow(runner(root), { flow, ref: REASONING, sessionId: 's', inputs: { query: 'add a login page' } });
  await think(runner(root), { sessionId: 's', questions });
}

describe('resume', () => {
  test('an agent cannot resume a halt; the user can', async () => {
    const root = tmpProject();
    await halted(root, ['Which users?']);
    const file = join(root, '.ratchet/flows/s.json');
    const before = readFileSync(file, 'utf8');
    await expect(resumeFlow(runner(root), { sessionId: 's', actor: 'agent', answers: ['admins'] })).rejects.toMatchObject({ code: 'user-required' });
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect((await resumeFlow(runner(root), { sessionId: 's', actor: 'user', answers: ['admins'] })).session.status).toBe('EXECUTING');
  });

  test('a halt with questions is resumed with one answer per question, not without them; nothing is saved otherwise', async () => {
    const root = tmpProject();
    await halted(root, ['Which users?', 'Which database?']);
    const file = join(root, '.ratchet/flows/s.json');
    const before = readFileSync(file, 'utf8');
    for (const answers of [[], ['admins'], ['admins', 'Postgres', 'extra'], ['admins', ' ']]) {
      await expect(resumeFlow(runner(root), { sessionId: 's', actor: 'user', answers }), JSON.stringify(answers)).rejects.toMatchObject({ code: 'bad-input' });
    }
    await expect(resumeFlow(runner(root), { sessionId: 's', actor: 'user' })).rejects.toMatchObject({
      reason: 'session s halted with 2 questions for the user: resume needs one --answer per question, in order (got 0): 1. Which users? 2. Which database?',
    });
    expect(readFileSync(file, 'utf8')).toBe(before);
    const v = await resumeFlow(runner(root), { sessionId: 's', actor: 'user', answers: ['admins', 'Postgres'] });
    expect(v.session).toMatchObject({ clarificationQuestions: ['Which users?', 'Which database?'], clarificationAnswers: ['admins', 'Postgres'] });
  });

  test('the halted directive asks the user, names one --answer per question, and says resuming is theirs', async () => {
    const root = tmpProject();
    await halted(root, ['Which users?', 'Which database?']);
    const v = await flowStatus(runner(root), 's');
    expect(v.directive.command).toBe("ratchet flow resume --session s --answer '<answer 1>' --answer '<answer 2>'");
    expect(v.directive.before).toEqual([
      "Stop here: ask the user the questions above and wait for the answers. Resuming is the user's decision: they run this from their own shell (with RATCHET_ACTOR=agent it is refused):",
    ]);
    expect(v.text).toContain('Ask the user these questions and wait for the answers:\n\n1. Which users?\n2. Which database?');
  });

  test('a halt without questions takes no answers; every round of questions stays in the notes', async () => {
    const root = tmpProject();
    await halted(root, ['Which users?']);
    const opts = runner(root);
    await resumeFlow(opts, { sessionId: 's', actor: 'user', answers: ['admins'] });
    await haltFlow(opts, { sessionId: 's', reason: 'waiting for a design review' });
    await expect(resumeFlow(opts, { sessionId: 's', actor: 'user', answers: ['ok'] })).rejects.toMatchObject({ reason: 'session s halted without questions: there is nothing to --answer' });
    await resumeFlow(opts, { sessionId: 's', actor: 'user' });
    await think(opts, { sessionId: 's', questions: ['Which page?'] });
    await resumeFlow(opts, { sessionId: 's', actor: 'user', answers: ['/login'] });
    expect((await openSession(root, 's').read()).notes['0']).toEqual(['Q: Which users? A: admins', 'Q: Which page? A: /login']);
  });
});
