/**
 * Coming from .claude/orchestration (skribblez2718/caii): memory files written the original's way
 * let a skill leave its phases. The fixtures are shaped like the original's: its agent definitions'
 * output format (`## Section N: Title` with JSON blocks and a Section 4 of user questions) and its
 * shared output format (`### Section N: TITLE (qualifier)`), which the original's verifier accepted
 * whatever the heading level, case or trailing qualifier. What still does not count: a heading inside
 * a code block, a section that is missing, a heading only mentioned inside a line.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { advanceFlow, loadFlowFile, shapeProblems, startFlow, type MemoryFileNames } from '../src/index.js';
import { HEADINGS, runner, SKILL, tmpProject, write } from './support.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/caii/', import.meta.url));
/** The original's names, as the README's "Coming from" section sets them. */
const ORIGINAL: MemoryFileNames = { agent: '.claude/memory/{task-id}-{role}-memory.md', transition: '.claude/memory/{task-id}-memory-phase-{from}-to-{to}-memory.md' };

function place(root: string, fixture: string, rel: string): void {
  const to = join(root, rel);
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(join(FIXTURES, fixture), to);
}

describe("the original's memory files", () => {
  test.each([
    ['its agent definitions\' output format', 'clarification-memory.md'],
    ['its shared output format (### Section N: UPPERCASE TITLE (qualifier))', 'clarification-memory-shared-format.md'],
  ])('a clarification memory file in %s lets the skill leave phase 0', async (_shape, fixture) => {
    const root = tmpProject();
    const opts = runner(root, { memoryFiles: ORIGINAL });
    const flow = await loadFlowFile(SKILL);
    await startFlow(opts, { flow, ref: SKILL, sessionId: 's', inputs: { task: 'task-login-page' } });
    place(root, fixture, '.claude/memory/task-login-page-clarification-memory.md');
    place(root, 'memory-phase-0-to-1-memory.md', '.claude/memory/task-login-page-memory-phase-0-to-1-memory.md');
    const v = await advanceFlow(opts, { sessionId: 's' });
    expect(v.missing).toEqual([]);
    expect(v.session.current).toBe('1');
  });

  test('headings match as Markdown shows them: any level, any case, a trailing qualifier; not inside code, not mid-line, not a longer word', () => {
    const text = readFileSync(join(FIXTURES, 'clarification-memory-shared-format.md'), 'utf8');
    expect(shapeProblems(text, 'f', 100, HEADINGS, 'w')).toEqual([]);
    const variants: [string, boolean][] = [
      ['## Section 0: Context Loaded', true],
      ['   # section 0:   context   LOADED  ##', true],
      ['#### **Section 0: Context Loaded**', true],
      ['## Section 0: Context Loaded (JSON)', true],
      ['## Section 0: Context Loaded - verified', true],
      ['## Section 0: Context Loadedness', false],
      ['## Section 0: Context Loaded and then some', false],
      ['## Section 0: Context', false],
      ['    ## Section 0: Context Loaded', false],
      ['see ## Section 0: Context Loaded', false],
      ['Section 0: Context Loaded', false],
      ['```\n## Section 0: Context Loaded\n```', false],
    ];
    for (const [line, ok] of variants) expect(shapeProblems(`${line}\n`, 'f', 0, ['## Section 0: Context Loaded'], 'w'), line).toHaveLength(ok ? 0 : 1);
    // A required line that is no heading stays an exact line.
    expect(shapeProblems('Status: done\n', 'f', 0, ['Status: done'], 'w')).toEqual([]);
    expect(shapeProblems('status: DONE\n', 'f', 0, ['Status: done'], 'w')).toHaveLength(1);
  });

  test('a section missing is still refused, named as the flow names it', async () => {
    const root = tmpProject();
    const opts = runner(root, { memoryFiles: ORIGINAL });
    const flow = await loadFlowFile(SKILL);
    await startFlow(opts, { flow, ref: SKILL, sessionId: 's', inputs: { task: 'T' } });
    const text = readFileSync(join(FIXTURES, 'clarification-memory-shared-format.md'), 'utf8').replace('### Section 2: JOHARI SUMMARY', '### Johari');
    write(root, '.claude/memory/T-clarification-memory.md', text);
    place(root, 'memory-phase-0-to-1-memory.md', '.claude/memory/T-memory-phase-0-to-1-memory.md');
    expect((await advanceFlow(opts, { sessionId: 's' })).missing).toEqual(['.claude/memory/T-clarification-memory.md lacks the heading line "## Section 2: Johari Summary" outside code blocks (memory file of agent clarification-agent)']);
  });
});
