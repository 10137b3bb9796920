/**
 * Inputs that decide the path (those an OPTIONAL step's skip condition reads) and the task (which
 * names the memory files) are fixed once the flow starts. The shortcut refused here: a run started
 * with depth=full that sets depth=quick on the way skips its research phase, and the memory agent's
 * 0 -> 1 file is taken for a 0 -> 2 jump.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { advanceFlow, checkFlow, loadFlowFile, startFlow } from '../src/index.js';
import { memoryText, runner, SKILL, tmpProject, write, writeAgentMemory, writeTransition } from './support.js';

describe('inputs that decide the path are fixed once the flow starts', () => {
  test('advance --set depth=quick in a run started with depth=full is refused; research is not skipped, nothing is saved', async () => {
    const root = tmpProject();
    const opts = runner(root);
    const flow = await loadFlowFile(SKILL);
    await startFlow(opts, { flow, ref: SKILL, sessionId: 'k', inputs: { task: 'T', depth: 'full' } });
    writeAgentMemory(root, 'T', 'clarification-agent');
    // The memory agent wrote the transition file for the phase that follows with depth=full.
    writeTransition(root, 'T', '0', '1');
    const file = join(root, '.ratchet/flows/k.json');
    const before = readFileSync(file, 'utf8');
    await expect(advanceFlow(opts, { sessionId: 'k', set: { depth: 'quick' } })).rejects.toMatchObject({
      code: 'bad-input',
      reason: 'depth decides which steps run (a skip condition reads it): it is fixed once the flow starts (it is "full"); start a new session with --input depth=quick',
    });
    expect(readFileSync(file, 'utf8')).toBe(before);
    // The run goes on as it started: research comes next.
    const v = await advanceFlow(opts, { sessionId: 'k' });
    expect(v.session.current).toBe('1');
    expect(v.session.history.some((h) => h.event === 'skip')).toBe(false);
  });

  test('a question that halts the step cannot change the path either', async () => {
    const root = tmpProject();
    const opts = runner(root);
    const flow = await loadFlowFile(SKILL);
    await startFlow(opts, { flow, ref: SKILL, sessionId: 'k', inputs: { task: 'T' } });
    await expect(advanceFlow(opts, { sessionId: 'k', set: { depth: 'quick' }, questions: ['Which database?'] })).rejects.toMatchObject({
      code: 'bad-input',
      reason: expect.stringContaining('depth decides which steps run') as string,
    });
  });

  test('the task names the memory files: changing it on the way is refused', async () => {
    const root = tmpProject();
    const opts = runner(root);
    const flow = await loadFlowFile(SKILL);
    await startFlow(opts, { flow, ref: SKILL, sessionId: 'k', inputs: { task: 'T' } });
    // Files left from another task's run, which the session never saw: the gates would point at them.
    writeAgentMemory(root, 'OLD', 'clarification-agent');
    write(root, '.claude/memory/OLD-memory-phase-0-to-1-memory.md', memoryText('old'));
    await expect(advanceFlow(opts, { sessionId: 'k', set: { task: 'OLD' } })).rejects.toMatchObject({ code: 'bad-input', reason: expect.stringContaining('task names the memory files') as string });
  });

  test('the same value again is not a change', async () => {
    const root = tmpProject();
    const opts = runner(root);
    const flow = await loadFlowFile(SKILL);
    await startFlow(opts, { flow, ref: SKILL, sessionId: 'k', inputs: { task: 'T', depth: 'quick' } });
    writeAgentMemory(root, 'T', 'clarification-agent');
    writeTransition(root, 'T', '0', '2');
    const v = await advanceFlow(opts, { sessionId: 'k', set: { depth: 'quick' } });
    expect(v.session.current).toBe('2');
  });

  test('a flow whose step requires a variable a skip condition reads is invalid: it could only be set on the way', () => {
    const flow = {
      id: 'x',
      title: 'X',
      inputs: { fast: {} },
      steps: [
        { id: '0', title: 'A', content: 'a.md', requires: ['fast'] },
        { id: '1', title: 'B', type: 'OPTIONAL', content: 'b.md', skip: { not: { input: 'fast' } } },
      ],
    };
    expect(checkFlow(flow).problems.map((p) => [p.pointer, p.message])).toEqual([
      ['/steps/0/requires/0', '"fast" decides which steps run (step 1 skips on it), so it is fixed when the flow starts: give it with --input, it cannot be required on the way'],
    ]);
  });
});
