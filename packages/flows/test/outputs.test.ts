/**
 * The reasoning protocol's steps hand in their work (the original's step_outputs), and task routing
 * records its decision with a confidence that must be HIGH to go on. Each test performs a shortcut
 * an agent would take and shows it refused.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { advanceFlow, checkFlow, loadFlowFile, openSession, resumeFlow, startFlow, type FlowView, type LoadedFlow } from '../src/index.js';
import { outputText, REASONING, runner, think, tmpProject } from './support.js';

async function reasoning(root: string, sessionId = 's'): Promise<LoadedFlow> {
  const flow = await loadFlowFile(REASONING);
  await startFlow(runner(root), { flow, ref: REASONING, sessionId, inputs: { query: 'add a login page' } });
  return flow;
}

const stepOf = (flow: LoadedFlow, id: string) => flow.flow.steps.find((s) => s.id === id)!;
const HIGH = { route: 'develop-feature', confidence: 'HIGH' };

describe('step outputs', () => {
  test('ten bare `flow advance` calls do not finish the reasoning protocol: nothing moves without the step\'s output', async () => {
    const root = tmpProject();
    await reasoning(root);
    const opts = runner(root);
    let last: FlowView | undefined;
    for (let i = 0; i < 10; i++) last = await advanceFlow(opts, { sessionId: 's', set: HIGH });
    expect(last!.ok).toBe(false);
    expect(last!.missing).toEqual(['step 0 hands in its output: pass --output FILE (or --output - to read it from standard input)']);
    expect((await openSession(root, 's').read()).current).toBe('0');
  });

  test('every step, 0 to 8 with 3b, refuses a bare advance and records what it was handed, per visit', async () => {
    const root = tmpProject();
    const flow = await reasoning(root);
    const opts = runner(root);
    const order = ['0', '1', '2', '3', '3b', '4', '5', '6', '7', '8'];
    const handed: Record<string, string> = {};
    for (const id of order) {
      const bare = await advanceFlow(opts, { sessionId: 's', set: HIGH });
      expect(bare.missing, `step ${id}`).toContain(`step ${id} hands in its output: pass --output FILE (or --output - to read it from standard input)`);
      handed[id] = outputText(stepOf(flow, id));
      const v = await advanceFlow(opts, { sessionId: 's', set: HIGH, output: handed[id] });
      expect(v.ok, v.missing.join('\n')).toBe(true);
    }
    const state = await openSession(root, 's').read();
    expect(state.status).toBe('COMPLETED');
    expect(Object.keys(state.stepOutputs).sort()).toEqual([...order].sort());
    for (const id of order) expect(state.stepOutputs[id]).toEqual([{ visit: 1, text: handed[id], digest: expect.stringMatching(/^q:[0-9a-f]{16}$/) as string, at: expect.any(String) as string }]);
  });

  test('an output too short, lacking a section, or with its sections only inside a code block is refused', async () => {
    const root = tmpProject();
    const flow = await reasoning(root);
    const opts = runner(root);
    const step0 = stepOf(flow, '0');
    expect((await advanceFlow(opts, { sessionId: 's', output: 'SHARE: nothing\n' })).missing).toEqual([
      'the step 0 output has 15 characters, needs at least 200 (advance --output)',
      ...step0.output!.headings.map((h) => `the step 0 output lacks the heading line "${h}" outside code blocks (advance --output)`),
    ]);
    const fenced = `\`\`\`\n${outputText(step0)}\`\`\`\n`;
    expect((await advanceFlow(opts, { sessionId: 's', output: fenced })).missing).toHaveLength(4);
    expect((await openSession(root, 's').read()).stepOutputs).toEqual({});
  });

  test('the same text handed in for two steps, or in a second session, is refused as a copy', async () => {
    const root = tmpProject();
    const flow = await reasoning(root);
    const opts = runner(root);
    const both = `${[...stepOf(flow, '0').output!.headings, ...stepOf(flow, '1').output!.headings].map((h) => `${h}\n\n${'Reasoning that fits any step. '.repeat(3)}\n`).join('\n')}`;
    expect((await advanceFlow(opts, { sessionId: 's', output: both })).ok).toBe(true);
    expect((await advanceFlow(opts, { sessionId: 's', output: both })).missing).toEqual(['step 1 output is identical to step 0 output, accepted for session s at step 0: hand in work done for this step, not a copy']);
    await reasoning(root, 'again');
    expect((await advanceFlow(opts, { sessionId: 'again', output: both })).missing).toEqual(['step 0 output is identical to step 0 output, accepted for session s at step 0: hand in work done for this step, not a copy']);
  });

  test('bad input: an output with --question, an output over the limit (exit-2 material, nothing saved)', async () => {
    const root = tmpProject();
    await reasoning(root);
    const opts = runner(root);
    const before = readFileSync(join(root, '.ratchet/flows/s.json'), 'utf8');
    await expect(advanceFlow(opts, { sessionId: 's', output: 'x', questions: ['Which page?'] })).rejects.toMatchObject({ code: 'bad-input' });
    await expect(advanceFlow(opts, { sessionId: 's', output: 'x'.repeat(256 * 1024 + 1) })).rejects.toMatchObject({ code: 'bad-input', reason: 'the step output has 262145 characters; at most 262144' });
    expect(readFileSync(join(root, '.ratchet/flows/s.json'), 'utf8')).toBe(before);
  });
});

describe('task routing (step 4): the route and its confidence', () => {
  async function atRouting(root: string): Promise<void> {
    await reasoning(root);
    for (let i = 0; i < 5; i++) await think(runner(root), { sessionId: 's' });
    expect((await openSession(root, 's').read()).current).toBe('4');
  }

  test('a confidence below HIGH cannot route: advancing is refused until the agent asks the user', async () => {
    const root = tmpProject();
    await atRouting(root);
    const opts = runner(root);
    for (const confidence of ['MEDIUM', 'LOW']) {
      const guess = await think(opts, { sessionId: 's', set: { route: 'develop-feature', confidence } });
      expect(guess.missing).toEqual([`step 4 goes on only when confidence is "HIGH" (confidence is "${confidence}"): do not guess; ask the user with --question "..." (the session halts until they answer)`]);
    }
    await expect(think(opts, { sessionId: 's', set: { route: 'develop-feature', confidence: 'PRETTY HIGH' } })).rejects.toMatchObject({ code: 'bad-input', reason: '--set confidence="PRETTY HIGH": confidence must be one of: HIGH, LOW, MEDIUM' });
    const halted = await think(opts, { sessionId: 's', set: { route: 'develop-feature', confidence: 'MEDIUM' }, questions: ['Is the login page for admins only?'] });
    expect(halted.session).toMatchObject({ status: 'HALTED', current: '4', vars: { route: 'develop-feature', confidence: 'MEDIUM' }, clarificationQuestions: ['Is the login page for admins only?'] });
    await resumeFlow(opts, { sessionId: 's', actor: 'user', answers: ['Admins only.'] });
    // Still MEDIUM after the answer: the decision has to be taken again, at HIGH.
    expect((await think(opts, { sessionId: 's' })).ok).toBe(false);
    const routed = await think(opts, { sessionId: 's', set: { confidence: 'HIGH' } });
    expect(routed.session).toMatchObject({ current: '5', vars: { route: 'develop-feature', confidence: 'HIGH' } });
    expect(routed.session.stepOutputs['4']).toHaveLength(1);
  });

  test('a flow whose haltUnless step cannot ask questions does not load', () => {
    const { problems } = checkFlow({ id: 'x', title: 'X', steps: [{ id: '0', title: 'Z', content: 'a.md', haltUnless: { input: 'ok', equals: 'yes' }, output: { minLength: 0, colour: 'red' } }] });
    expect(problems.map((p) => [p.pointer, p.message])).toEqual([
      ['/steps/0/haltUnless', '"haltUnless" needs "haltOnQuestions": true (the agent asks the user when the condition does not hold)'],
      ['/steps/0/output/colour', 'unknown property "colour"'],
      ['/steps/0/output/minLength', '"minLength" must be an integer from 1 to 1000000'],
    ]);
  });
});
