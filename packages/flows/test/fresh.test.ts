/**
 * Gates accept work done for this step of this session, not a file of the right shape: each test
 * performs a shortcut an agent would take and shows it refused, with nothing saved.
 */
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { journalFileFor } from '@ratchet/store';
import { describe, expect, test } from 'vitest';
import { advanceFlow, completeBranch, LEDGER_FILE, linesOutsideFences, loadFlowFile, openSession, SESSION_VERSION, startFlow, type LoadedFlow } from '../src/index.js';
import { flowIn, HEADINGS, memoryText, runner, SKILL, tmpProject, write, writeAgentMemory, writeTransition } from './support.js';

const AGENT_FILE = '.claude/memory/T-clarification-agent-memory.md';
const TRANSITION_FILE = '.claude/memory/T-memory-phase-0-to-1-memory.md';

async function skill(root: string, sessionId: string, task = 'T'): Promise<LoadedFlow> {
  const flow = await loadFlowFile(SKILL);
  await startFlow(runner(root), { flow, ref: SKILL, sessionId, inputs: { task } });
  return flow;
}

const sessionText = (root: string, id: string): string => readFileSync(join(root, '.ratchet/flows', `${id}.json`), 'utf8');

describe('artifacts must be written for this step', () => {
  test('a new session does not accept the memory files an earlier run left behind', async () => {
    const root = tmpProject();
    await skill(root, 'first');
    writeAgentMemory(root, 'T', 'clarification-agent');
    writeTransition(root, 'T', '0', '1');
    expect((await advanceFlow(runner(root), { sessionId: 'first' })).outcome).toBe('advanced');
    // The shortcut: start again with the same task; every file the gates name already exists.
    await skill(root, 'second');
    const before = sessionText(root, 'second');
    const refused = await advanceFlow(runner(root), { sessionId: 'second' });
    expect(refused.ok).toBe(false);
    expect(refused.missing).toEqual([
      `${AGENT_FILE} is unchanged since this step began (memory file of agent clarification-agent): it must be written for this step, not left over from earlier work`,
      `${TRANSITION_FILE} is unchanged since this step began (memory-agent file for the transition 0 -> 1): it must be written for this step, not left over from earlier work`,
    ]);
    expect(sessionText(root, 'second')).toBe(before);
    // Touching a file changes nothing; writing it for this session does.
    writeFileSync(join(root, AGENT_FILE), readFileSync(join(root, AGENT_FILE)));
    expect((await advanceFlow(runner(root), { sessionId: 'second' })).ok).toBe(false);
    writeAgentMemory(root, 'T', 'clarification-agent');
    writeTransition(root, 'T', '0', '1');
    expect((await advanceFlow(runner(root), { sessionId: 'second' })).outcome).toBe('advanced');
  });

  test('a file identical to one accepted in another session is refused, naming where it was accepted', async () => {
    const root = tmpProject();
    await skill(root, 'a', 'A');
    writeAgentMemory(root, 'A', 'clarification-agent');
    writeTransition(root, 'A', '0', '1');
    await advanceFlow(runner(root), { sessionId: 'a' });
    await skill(root, 'b', 'B');
    // Written after session b began (so not stale), but a copy of session a's work.
    copyFileSync(join(root, '.claude/memory/A-clarification-agent-memory.md'), join(root, '.claude/memory/B-clarification-agent-memory.md'));
    writeTransition(root, 'B', '0', '1');
    const ledger = readFileSync(join(root, LEDGER_FILE), 'utf8');
    const refused = await advanceFlow(runner(root), { sessionId: 'b' });
    expect(refused.missing).toEqual([
      '.claude/memory/B-clarification-agent-memory.md is identical to .claude/memory/A-clarification-agent-memory.md, accepted for session a at step 0: hand in work done for this step, not a copy',
    ]);
    expect(refused.session.current).toBe('0');
    expect(readFileSync(join(root, LEDGER_FILE), 'utf8')).toBe(ledger);
  });

  test('one file copied to two gates of the same step: the second copy is refused', async () => {
    const root = tmpProject();
    await skill(root, 's');
    writeAgentMemory(root, 'T', 'clarification-agent');
    copyFileSync(join(root, AGENT_FILE), join(root, TRANSITION_FILE));
    const refused = await advanceFlow(runner(root), { sessionId: 's' });
    expect(refused.missing).toEqual([`${TRANSITION_FILE} is identical to ${AGENT_FILE}: each artifact of this step must hold its own content`]);
    expect(existsSync(join(root, LEDGER_FILE))).toBe(false);
  });

  test('an iteration hands in new work: the previous iteration\'s file, or an earlier one restored, is refused', async () => {
    const root = tmpProject();
    const dir = tmpProject();
    const loop = { id: 'loop', title: 'L', steps: [{ id: '0', title: 'Z', content: 'z.md' }, { id: '1', title: 'Draft', type: 'ITERATIVE', content: 'd.md', maxIterations: 3, gates: [{ artifact: 'out/draft.md', minLength: 10 }] }] };
    const flow = await flowIn(dir, loop);
    const opts = runner(root);
    await startFlow(opts, { flow, ref: flow.path, sessionId: 'i' });
    await advanceFlow(opts, { sessionId: 'i' });
    write(root, 'out/draft.md', 'first draft of the text\n');
    expect((await advanceFlow(opts, { sessionId: 'i', kind: 'loop' })).session.current).toBe('1');
    const again = await advanceFlow(opts, { sessionId: 'i', kind: 'loop' });
    expect(again.missing).toEqual(['out/draft.md is unchanged since this step began (step 1 artifact): it must be written for this step, not left over from earlier work']);
    write(root, 'out/draft.md', 'second draft of the text\n');
    expect((await advanceFlow(opts, { sessionId: 'i', kind: 'loop' })).ok).toBe(true);
    write(root, 'out/draft.md', 'first draft of the text\n');
    const restored = await advanceFlow(opts, { sessionId: 'i' });
    expect(restored.missing).toEqual(['out/draft.md is identical to out/draft.md, accepted for session i at step 1: hand in work done for this step, not a copy']);
  });

  test('a parallel branch cannot hand in a file that existed when the phase began', async () => {
    const root = tmpProject();
    const opts = runner(root);
    const flow = await loadFlowFile(SKILL);
    const design = '.claude/memory/T-synthesis-agent-design-memory.md';
    write(root, design, memoryText('old design'));
    await startFlow(opts, { flow, ref: SKILL, sessionId: 'k', inputs: { task: 'T', depth: 'quick' } });
    for (const [agent, from, to] of [['clarification-agent', '0', '2'], ['analysis-agent', '2', '3']] as const) {
      writeAgentMemory(root, 'T', agent);
      writeTransition(root, 'T', from, to);
      await advanceFlow(opts, { sessionId: 'k' });
    }
    const stale = await completeBranch(opts, { sessionId: 'k', branch: 'design' });
    expect(stale.missing).toEqual([`${design} is unchanged since this step began (branch design artifact): it must be written for this step, not left over from earlier work`]);
    write(root, design, memoryText('new design'));
    expect((await completeBranch(opts, { sessionId: 'k', branch: 'design' })).ok).toBe(true);
  });
});

describe('the shape that counts', () => {
  test('headings inside a code block do not count: a pasted template is not the sections', async () => {
    const root = tmpProject();
    await skill(root, 's');
    writeTransition(root, 'T', '0', '1');
    const fenced = `${'Long enough text to pass the length check. '.repeat(4)}\n\n\`\`\`markdown\n${HEADINGS.join('\n\n')}\n\`\`\`\n`;
    write(root, AGENT_FILE, fenced);
    const refused = await advanceFlow(runner(root), { sessionId: 's' });
    expect(refused.missing).toEqual(HEADINGS.map((h) => `${AGENT_FILE} lacks the heading line "${h}" outside code blocks (memory file of agent clarification-agent)`));
    write(root, AGENT_FILE, fenced.replace('```markdown', '~~~~').replace(/```\n$/, '~~~~\n'));
    expect((await advanceFlow(runner(root), { sessionId: 's' })).missing).toHaveLength(4);
    writeAgentMemory(root, 'T', 'clarification-agent');
    expect((await advanceFlow(runner(root), { sessionId: 's' })).ok).toBe(true);
  });

  test('fences: tildes, longer closers, an unclosed fence hides the rest, a backtick info string is text', () => {
    expect([...linesOutsideFences('a\n```js\nb\n```\nc')]).toEqual(['a', 'c']);
    expect([...linesOutsideFences('a\n~~~~\nb\n~~~\nstill in\n~~~~~\nc')]).toEqual(['a', 'c']);
    expect([...linesOutsideFences('a\n````\nb\n```\nc')]).toEqual(['a']);
    expect([...linesOutsideFences('a\n``` x`y\nb')]).toEqual(['a', '``` x`y', 'b']);
    expect([...linesOutsideFences('a  \r\n    ```\nb')]).toEqual(['a', '    ```', 'b']);
  });

  test("the memory agent's file needs real content: `echo x > file` is refused", async () => {
    const root = tmpProject();
    await skill(root, 's');
    writeAgentMemory(root, 'T', 'clarification-agent');
    write(root, TRANSITION_FILE, 'x\n');
    const refused = await advanceFlow(runner(root), { sessionId: 's' });
    expect(refused.missing).toEqual([
      `${TRANSITION_FILE} has 2 characters, needs at least 100 (memory-agent file for the transition 0 -> 1)`,
      ...HEADINGS.map((h) => `${TRANSITION_FILE} lacks the heading line "${h}" outside code blocks (memory-agent file for the transition 0 -> 1)`),
    ]);
  });
});

describe('session files', () => {
  test('a version 1 session (before baselines) is read, migrated and advanced; it is written back as the current version', async () => {
    const root = tmpProject();
    await skill(root, 'old');
    const file = join(root, '.ratchet/flows/old.json');
    const { baseline: _dropped, ...v1 } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, `${JSON.stringify({ ...v1, schemaVersion: 1 }, null, 2)}\n`);
    // As a hand-made file: no digest record and no journal entry (an untracked file is read as it is).
    for (const sidecar of ['.digest', '.prev']) rmSync(`${file}${sidecar}`, { force: true });
    const journal = journalFileFor(file);
    if (journal !== undefined) rmSync(journal, { force: true });
    expect((await openSession(root, 'old').read()).baseline).toEqual({});
    writeAgentMemory(root, 'T', 'clarification-agent');
    writeTransition(root, 'T', '0', '1');
    expect((await advanceFlow(runner(root), { sessionId: 'old' })).outcome).toBe('advanced');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ schemaVersion: SESSION_VERSION, current: '1' });
  });
});
