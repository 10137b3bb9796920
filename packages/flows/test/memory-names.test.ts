/**
 * Memory-file names are the project's: the original's `{task-id}-clarification-memory.md` as well as
 * Ratchet's `{task}-clarification-agent-memory.md`. The shortcut refused here: satisfying a renamed
 * gate with a file under the other name.
 */
import { describe, expect, test } from 'vitest';
import { advanceFlow, checkFlowSettings, loadFlowFile, startFlow, type MemoryFileNames } from '../src/index.js';
import { memoryText, runner, SKILL, tmpProject, write, writeAgentMemory } from './support.js';

const ORIGINAL: MemoryFileNames = { agent: '.claude/memory/{task-id}-{role}-memory.md', learnings: '.claude/memory/{task-id}-learnings.md' };

describe("the project's memory-file names", () => {
  test("the original's names: the gates name them, files under Ratchet's names do not count", async () => {
    const root = tmpProject();
    const opts = runner(root, { memoryFiles: ORIGINAL });
    const flow = await loadFlowFile(SKILL);
    const v = await startFlow(opts, { flow, ref: SKILL, sessionId: 'k', inputs: { task: 'T' } });
    expect(v.gates.map((g) => g.artifact)).toEqual(['.claude/memory/T-clarification-memory.md', '.claude/memory/T-memory-phase-0-to-1-memory.md']);
    // The flow's length and sections still apply to the renamed file.
    expect(v.gates[0]).toMatchObject({ minLength: 100, headings: expect.arrayContaining(['## Section 0: Context Loaded']) as string[] });
    writeAgentMemory(root, 'T', 'clarification-agent');
    write(root, '.claude/memory/T-memory-phase-0-to-1-memory.md', memoryText('0 -> 1'));
    const refused = await advanceFlow(opts, { sessionId: 'k' });
    expect(refused.missing).toEqual(['.claude/memory/T-clarification-memory.md does not exist (memory file of agent clarification-agent)']);
    write(root, '.claude/memory/T-clarification-memory.md', memoryText('clarification'));
    expect((await advanceFlow(opts, { sessionId: 'k' })).session.current).toBe('1');
  });

  test('settings: templates stay inside the project and use only the placeholders of their kind', () => {
    expect(checkFlowSettings({ memoryFiles: ORIGINAL }).settings).toEqual({ memoryFiles: ORIGINAL });
    expect(checkFlowSettings({ memoryFiles: { agent: '../{task}.md', transition: 'm/{task}-{agent}.md', learnings: 'l/{step}.md', other: 'x' } }).problems.map((p) => [p.pointer, p.message])).toEqual([
      ['/memoryFiles/other', 'unknown property "other" (allowed: agent, transition, learnings)'],
      ['/memoryFiles/agent', 'the agent memory-file path must not contain ".." segments: artifacts stay inside the project'],
      ['/memoryFiles/transition', 'unknown placeholder {agent} (known here: {task}, {task-id}, {session}, {flow}, {step}, {iteration}, {from}, {to})'],
      ['/memoryFiles/learnings', 'unknown placeholder {step} (known here: {task}, {task-id}, {session}, {flow})'],
    ]);
    expect(checkFlowSettings({ memoryFiles: 'x' }).problems).toEqual([{ pointer: '/memoryFiles', message: 'must be an object ({ agent?, transition?, learnings? })' }]);
  });
});
