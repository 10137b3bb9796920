/**
 * Directives say what actually has to happen next. A bare "advance" sends an agent straight into a
 * refusal (or tempts it to fake the files); each test checks the directive names the real next move.
 */
import { describe, expect, test } from 'vitest';
import { advanceFlow, completeBranch, flowStatus, loadFlowFile, startFlow } from '../src/index.js';
import { directiveCommand, memoryText, REASONING, runner, SKILL, think, tmpProject, write, writeAgentMemory, writeTransition } from './support.js';

describe('directives', () => {
  test('an agent phase says to invoke the agent first, then the memory agent, then advance', async () => {
    const root = tmpProject();
    const flow = await loadFlowFile(SKILL);
    const v = await startFlow(runner(root), { flow, ref: SKILL, sessionId: 'k', inputs: { task: 'T' } });
    expect(v.directive.before).toEqual([
      'First, invoke `clarification-agent` through the Task tool (subagent_type: `clarification-agent`) and wait until it has written `.claude/memory/T-clarification-agent-memory.md`.',
      'Then invoke the memory agent through the Task tool: it writes `.claude/memory/T-memory-phase-0-to-1-memory.md`.',
      'Then run:',
    ]);
    expect(v.directive.text).toBe(
      [
        '**NEXT COMMAND (required): run it before doing anything else:**',
        '',
        ...v.directive.before.flatMap((l) => [l, '']),
        '`ratchet flow advance --session k`',
        '',
        '- Do not skip it, reorder it or replace it with another command: the flow refuses steps out of order.',
        '- Your progress is already saved; if you lose context, `status` shows this step again.',
        '- If the command refuses, do what it says is missing, then run the same command again. There is no override.',
      ].join('\n'),
    );
    // A refusal repeats the same guidance, not just the command.
    const refused = await advanceFlow(runner(root), { sessionId: 'k' });
    expect(refused.directive.before).toEqual(v.directive.before);
  });

  test('a PARALLEL step names complete-branch, even when advance was refused there, with the branch agent to invoke first', async () => {
    const root = tmpProject();
    const opts = runner(root);
    const flow = await loadFlowFile(SKILL);
    await startFlow(opts, { flow, ref: SKILL, sessionId: 'k', inputs: { task: 'T', depth: 'quick' } });
    for (const [agent, from, to] of [['clarification-agent', '0', '2'], ['analysis-agent', '2', '3']] as const) {
      writeAgentMemory(root, 'T', agent);
      writeTransition(root, 'T', from, to);
      await advanceFlow(opts, { sessionId: 'k' });
    }
    // The shortcut: advance past the parallel phase without its branches.
    const refused = await advanceFlow(opts, { sessionId: 'k' });
    expect(refused.ok).toBe(false);
    expect(directiveCommand(refused)).toBe('ratchet flow complete-branch 3:design --session k');
    expect(refused.directive.before).toEqual([
      'First, invoke `synthesis-agent` through the Task tool (subagent_type: `synthesis-agent`) for branch design: it writes `.claude/memory/T-synthesis-agent-design-memory.md`. Then run:',
    ]);
    write(root, '.claude/memory/T-synthesis-agent-design-memory.md', memoryText('design'));
    expect(directiveCommand(await completeBranch(opts, { sessionId: 'k', branch: 'design' }))).toBe('ratchet flow complete-branch 3:risks --session k');
  });

  test("task routing's directive sets the route and its confidence and hands in the output; run as printed, it is refused, not taken as a route", async () => {
    const root = tmpProject();
    const opts = runner(root, { flows: () => ['develop-feature', 'reasoning'] });
    const flow = await loadFlowFile(REASONING);
    await startFlow(opts, { flow, ref: REASONING, sessionId: 's' });
    let v = await think(opts, { sessionId: 's' });
    while (v.session.current !== '4') v = await think(opts, { sessionId: 's' });
    expect(v.directive.command).toBe("ratchet flow advance --session s --set 'route=<flow>' --set 'confidence=<HIGH|MEDIUM|LOW>' --output '<file>'");
    expect(v.directive.before.at(-2)).toBe('First, write this step\'s output to a file (sections "## Route", "## Confidence", "## Why"), and pass it with --output (or pipe it with --output -).');
    await expect(advanceFlow(opts, { sessionId: 's', set: { route: '<flow>', confidence: '<HIGH|MEDIUM|LOW>' } })).rejects.toMatchObject({ code: 'bad-input' });
  });

  test('validation: the directive asks for the verdict line; a loop names the loop-back transition file', async () => {
    const root = tmpProject();
    const dir = root;
    const flow = await loadFlowFile(SKILL);
    const opts = runner(dir);
    await startFlow(opts, { flow, ref: SKILL, sessionId: 'k', inputs: { task: 'T', depth: 'quick' } });
    for (const [agent, from, to] of [['clarification-agent', '0', '2'], ['analysis-agent', '2', '3']] as const) {
      writeAgentMemory(root, 'T', agent);
      writeTransition(root, 'T', from, to);
      await advanceFlow(opts, { sessionId: 'k' });
    }
    for (const b of ['design', 'risks']) {
      write(root, `.claude/memory/T-synthesis-agent-${b}-memory.md`, memoryText(b));
      await completeBranch(opts, { sessionId: 'k', branch: b });
    }
    writeTransition(root, 'T', '3', '4');
    await advanceFlow(opts, { sessionId: 'k' });
    const loop = await advanceFlow(opts, { sessionId: 'k', kind: 'loop' });
    expect(loop.directive.command).toBe('ratchet flow advance --session k --loop');
    expect(loop.directive.before[1]).toBe('Then invoke the memory agent through the Task tool: it writes `.claude/memory/T-memory-phase-4-to-4-memory.md`.');
    writeAgentMemory(root, 'T', 'generation-agent');
    writeTransition(root, 'T', '4', '5');
    await advanceFlow(opts, { sessionId: 'k' });
    expect((await flowStatus(opts, 'k')).directive.before[0]).toBe(
      'First, invoke `validation-agent` through the Task tool (subagent_type: `validation-agent`) and wait until it has written `.claude/memory/T-validation-agent-memory.md`, ending with its line `Verdict: PASS` or `Verdict: FAIL`.',
    );
  });
});
