/** Sessions through the runner: step types, limits, halting, agent mode, hostile input, the state file. */
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { advanceFlow, completeBranch, flowStatus, haltFlow, listSessions, loadFlowFile, openSession, resumeFlow, startFlow, type FlowError, type FlowView, type LoadedFlow } from '../src/index.js';
import { directiveCommand, flowIn, memoryText, REASONING, runner, SKILL, think, tmpProject, write, writeAgentMemory, writeTransition } from './support.js';

async function reasoning(root: string, sessionId = 's', mode: 'normal' | 'agent' = 'normal'): Promise<LoadedFlow> {
  const flow = await loadFlowFile(REASONING);
  await startFlow(runner(root), { flow, ref: REASONING, sessionId, mode, inputs: { query: 'add a login page' } });
  return flow;
}

describe('reasoning protocol', () => {
  test('steps 0 to 8 in order, 3b included; routing requires --set route', async () => {
    const root = tmpProject();
    await reasoning(root);
    const opts = runner(root);
    const seen: (string | null)[] = [];
    for (let i = 0; i < 5; i++) seen.push((await think(opts, { sessionId: 's' })).session.current);
    expect(seen).toEqual(['1', '2', '3', '3b', '4']);
    const refused = await think(opts, { sessionId: 's' });
    expect(refused.missing).toEqual([
      'variable "route" is not set: pass --set route=...',
      'variable "confidence" is not set: pass --set confidence=...',
      'step 4 goes on only when confidence is "HIGH" (confidence is not set): do not guess; ask the user with --question "..." (the session halts until they answer)',
    ]);
    expect((await think(opts, { sessionId: 's', set: { route: 'develop-feature', confidence: 'HIGH' } })).session).toMatchObject({ current: '5', vars: { route: 'develop-feature' } });
  });

  test('a route that names no flow the caller knows is refused on advance, listing the flows; nothing is saved', async () => {
    const root = tmpProject();
    await reasoning(root);
    const opts = runner(root, { flows: () => ['develop-feature', 'reasoning', 'review'] });
    for (let i = 0; i < 5; i++) await think(opts, { sessionId: 's' });
    const file = join(root, '.ratchet', 'flows', 's.json');
    const before = readFileSync(file, 'utf8');
    const err = (await think(opts, { sessionId: 's', set: { route: 'develop-featur', confidence: 'HIGH' }, notes: ['typo'] }).catch((e: unknown) => e)) as FlowError;
    expect(err).toMatchObject({ code: 'bad-input', reason: '--set route="develop-featur": route must be the name of a flow: develop-feature, reasoning, review' });
    // Recording questions sets variables too: the same check applies.
    await expect(think(opts, { sessionId: 's', set: { route: 'nope', confidence: 'HIGH' }, questions: ['which?'] })).rejects.toMatchObject({ code: 'bad-input' });
    expect(readFileSync(file, 'utf8')).toBe(before);
    const routed = await think(opts, { sessionId: 's', set: { route: 'review', confidence: 'HIGH' } });
    expect(routed.session).toMatchObject({ current: '5', vars: { route: 'review' } });
    // Without a catalogue the runner cannot know the flows: routes are not checked (documented).
    expect((await think(runner(root), { sessionId: 's', set: { route: 'anything', confidence: 'HIGH' } })).session.vars.route).toBe('anything');
  });

  test('declared values: --input and --set outside them are refused; a flow whose default is not a value does not load', async () => {
    const root = tmpProject();
    const skill = await loadFlowFile(SKILL);
    await expect(startFlow(runner(root), { flow: skill, ref: SKILL, sessionId: 'k', inputs: { task: 'T', depth: 'quik' } })).rejects.toMatchObject({
      code: 'bad-input',
      reason: '--input depth="quik": depth must be one of: full, quick',
    });
    const flow = await loadFlowFile(REASONING);
    const catalogue = { flows: () => Promise.resolve(['develop-feature']) };
    await expect(startFlow(runner(root, catalogue), { flow, ref: REASONING, sessionId: 'r', inputs: { route: 'nope' } })).rejects.toMatchObject({ code: 'bad-input' });
    await expect(openSession(root, 'r').read()).resolves.toMatchObject({ revision: 0 });
    // The catalogue is consulted only when a variable that must name a flow is given.
    let asked = 0;
    await startFlow(runner(root, { flows: () => (asked++, []) }), { flow, ref: REASONING, sessionId: 'q', inputs: { query: 'q' } });
    expect(asked).toBe(0);
    const dir = tmpProject();
    const bad = { id: 'x', title: 'X', inputs: { mode: { default: 'slow', values: ['fast', 'fast'] }, other: { values: [] } }, steps: [{ id: '0', title: 'Z', content: 'a.md' }] };
    const err = (await flowIn(dir, bad).catch((e: unknown) => e)) as FlowError;
    expect(err.problems.map((p) => [p.pointer, p.message])).toEqual([
      ['/inputs/mode/values/1', 'value "fast" is listed twice'],
      ['/inputs/mode/default', 'default "slow" is not one of the values (fast, fast)'],
      ['/inputs/other/values', '"values" must be "flows" or a non-empty array of strings'],
    ]);
  });

  test('agent mode skips task routing (3b -> 5) and the skip is recorded', async () => {
    const root = tmpProject();
    await reasoning(root, 'a', 'agent');
    const opts = runner(root);
    for (let i = 0; i < 4; i++) await think(opts, { sessionId: 'a' });
    expect((await openSession(root, 'a').read()).current).toBe('3b');
    const v = await think(opts, { sessionId: 'a' });
    expect(v.session.current).toBe('5');
    expect(v.text).toContain('Skipped 4 (mode is agent)');
    expect(v.session.history.filter((h) => h.event === 'skip')).toEqual([{ event: 'skip', step: '4', at: expect.any(String) as string, detail: 'mode is agent' }]);
    let last = v;
    for (let i = 0; i < 4; i++) last = await think(opts, { sessionId: 'a' });
    // No route in agent mode: the completion directive cannot be the routed start command.
    expect(last.outcome).toBe('completed');
    expect(last.directive.command).toBe('ratchet flow status --session a');
  });

  test('step 8 loops back to routing at most 3 times, then refuses the loop (exit-1 material) but may complete', async () => {
    const root = tmpProject();
    await reasoning(root);
    const opts = runner(root);
    const go = async (kind?: 'loop'): Promise<string | null> => (await think(opts, { sessionId: 's', set: { route: 'r', confidence: 'HIGH' }, ...(kind ? { kind } : {}) })).session.current;
    while ((await openSession(root, 's').read()).current !== '8') await go();
    for (let i = 1; i <= 3; i++) {
      expect(await go('loop')).toBe('4');
      while ((await openSession(root, 's').read()).current !== '8') await go();
    }
    const refused = await think(opts, { sessionId: 's', kind: 'loop' });
    expect(refused.ok).toBe(false);
    expect(refused.missing).toEqual(['iteration limit reached: step 8 has looped back 3 of 3 times; advance without --loop, or halt']);
    expect(directiveCommand(refused)).toBe("ratchet flow advance --session s --loop --output '<file>'");
    const done = await think(opts, { sessionId: 's' });
    expect(done.outcome).toBe('completed');
    expect(done.session).toMatchObject({ status: 'COMPLETED', current: null, iterations: { '8': 3 } });
    await expect(think(opts, { sessionId: 's' })).rejects.toMatchObject({ code: 'session-not-active' });
  });

  test('clarifying questions at step 0 halt the session; at most 5; resume records the answers beside the questions', async () => {
    const root = tmpProject();
    await reasoning(root);
    const opts = runner(root);
    await expect(think(opts, { sessionId: 's', questions: ['1', '2', '3', '4', '5', '6'] })).rejects.toMatchObject({ code: 'bad-input' });
    const halted = await think(opts, { sessionId: 's', questions: ['Which API?', 'Which users?'] });
    expect(halted.session).toMatchObject({ status: 'HALTED', current: '0', clarificationQuestions: ['Which API?', 'Which users?'], haltReason: 'clarification needed at step 0: 2 questions for the user' });
    await expect(think(opts, { sessionId: 's' })).rejects.toMatchObject({ code: 'session-not-active' });
    const resumed = await resumeFlow(opts, { sessionId: 's', actor: 'user', answers: ['REST', 'admins'] });
    // The questions stay; the answers are kept beside them and noted on the step.
    expect(resumed.session).toMatchObject({
      status: 'EXECUTING',
      current: '0',
      clarificationQuestions: ['Which API?', 'Which users?'],
      clarificationAnswers: ['REST', 'admins'],
      haltReason: null,
      notes: { '0': ['Q: Which API? A: REST', 'Q: Which users? A: admins'] },
    });
    expect(resumed.text).toContain('## Step 0: Johari Window discovery');
    expect(resumed.text).toContain('### Session inputs\n\n- query: "add a login page"\n');
    expect((await think(opts, { sessionId: 's' })).session.current).toBe('1');
    await expect(think(opts, { sessionId: 's', questions: ['late?'] })).rejects.toMatchObject({ code: 'bad-input' });
  });

  test('halt with a reason from any step, then resume', async () => {
    const root = tmpProject();
    await reasoning(root);
    const opts = runner(root);
    const h = await haltFlow(opts, { sessionId: 's', reason: 'routing confidence LOW' });
    expect(h.text).toContain('Reason: routing confidence LOW');
    expect(directiveCommand(h)).toBe('ratchet flow resume --session s');
    await expect(haltFlow(opts, { sessionId: 's', reason: 'again' })).rejects.toMatchObject({ code: 'session-not-active' });
    await expect(resumeFlow(opts, { sessionId: 'missing', actor: 'user' })).rejects.toMatchObject({ code: 'unknown-session' });
    expect((await resumeFlow(opts, { sessionId: 's', actor: 'user' })).session.status).toBe('EXECUTING');
    await expect(haltFlow(opts, { sessionId: 's', reason: 'two\nlines' })).rejects.toMatchObject({ code: 'bad-input' });
  });
});

describe('composite skill', () => {
  test('parallel phase: advance waits for every branch; branches are checked by their own files', async () => {
    const root = tmpProject();
    const opts = runner(root);
    const flow = await loadFlowFile(SKILL);
    await startFlow(opts, { flow, ref: SKILL, sessionId: 'k', inputs: { task: 'T', depth: 'quick' } });
    writeAgentMemory(root, 'T', 'clarification-agent');
    writeTransition(root, 'T', '0', '2');
    await advanceFlow(opts, { sessionId: 'k' });
    writeAgentMemory(root, 'T', 'analysis-agent');
    writeTransition(root, 'T', '2', '3');
    const at3 = await advanceFlow(opts, { sessionId: 'k' });
    expect(at3.session.current).toBe('3');
    expect(directiveCommand(at3)).toBe('ratchet flow complete-branch 3:design --session k');
    writeTransition(root, 'T', '3', '4');
    const early = await advanceFlow(opts, { sessionId: 'k' });
    expect(early.missing).toEqual([
      'branch 3:design (Design the change) is not completed: run complete-branch 3:design',
      'branch 3:risks (List the risks and how to test them) is not completed: run complete-branch 3:risks',
    ]);
    await expect(completeBranch(opts, { sessionId: 'k', branch: '3:nope' })).rejects.toMatchObject({ code: 'unknown-branch' });
    await expect(completeBranch(opts, { sessionId: 'k', branch: '2:design' })).rejects.toMatchObject({ code: 'unknown-branch' });
    // A branch agent's memory file has the same four sections as every agent's.
    write(root, '.claude/memory/T-synthesis-agent-risks-memory.md', `${'r'.repeat(120)}\n## Section 3: Downstream Directives\n`);
    const partial = await completeBranch(opts, { sessionId: 'k', branch: 'risks' });
    expect(partial.ok).toBe(false);
    expect(partial.missing).toContain('.claude/memory/T-synthesis-agent-risks-memory.md lacks the heading line "## Section 0: Context Loaded" outside code blocks (branch risks artifact)');
    write(root, '.claude/memory/T-synthesis-agent-risks-memory.md', memoryText());
    const risks = await completeBranch(opts, { sessionId: 'k', branch: 'risks' });
    expect(risks.session.branches).toEqual({ '3': ['risks'] });
    expect(risks.text).toContain('- [x] 3:risks');
    expect(directiveCommand(risks)).toBe('ratchet flow complete-branch 3:design --session k');
    write(root, '.claude/memory/T-synthesis-agent-design-memory.md', memoryText());
    await completeBranch(opts, { sessionId: 'k', branch: '3:design' });
    expect((await advanceFlow(opts, { sessionId: 'k' })).session.current).toBe('4');
    await expect(completeBranch(opts, { sessionId: 'k', branch: 'design' })).rejects.toMatchObject({ code: 'wrong-step-type' });
  });

  test('--remediate goes back to generation at most maxRemediation (2) times, even on PASS; --loop/--remediate only where they apply', async () => {
    const root = tmpProject();
    const opts = runner(root);
    const flow = await loadFlowFile(SKILL);
    await startFlow(opts, { flow, ref: SKILL, sessionId: 'k', inputs: { task: 'T' } });
    await expect(advanceFlow(opts, { sessionId: 'k', kind: 'loop' })).rejects.toMatchObject({ code: 'wrong-step-type' });
    await expect(advanceFlow(opts, { sessionId: 'k', kind: 'remediate' })).rejects.toMatchObject({ code: 'wrong-step-type' });
    for (const [agent, from, to] of [['clarification-agent', '0', '1'], ['research-agent', '1', '2'], ['analysis-agent', '2', '3']] as const) {
      writeAgentMemory(root, 'T', agent);
      writeTransition(root, 'T', from, to);
      await advanceFlow(opts, { sessionId: 'k' });
    }
    for (const b of ['design', 'risks']) write(root, `.claude/memory/T-synthesis-agent-${b}-memory.md`, memoryText(b));
    await completeBranch(opts, { sessionId: 'k', branch: 'design' });
    await completeBranch(opts, { sessionId: 'k', branch: 'risks' });
    writeTransition(root, 'T', '3', '4');
    await advanceFlow(opts, { sessionId: 'k' });
    // Every visit of generation and validation hands in new memory files.
    const generate = async (): Promise<FlowView> => {
      writeAgentMemory(root, 'T', 'generation-agent');
      writeTransition(root, 'T', '4', '5');
      return advanceFlow(opts, { sessionId: 'k' });
    };
    for (let i = 0; i < 2; i++) {
      expect((await generate()).session.current).toBe('5');
      writeAgentMemory(root, 'T', 'validation-agent', 'Verdict: PASS');
      writeTransition(root, 'T', '5', '4');
      expect((await advanceFlow(opts, { sessionId: 'k', kind: 'remediate' })).session.current).toBe('4');
    }
    await generate();
    writeAgentMemory(root, 'T', 'validation-agent', 'Verdict: PASS');
    writeTransition(root, 'T', '5', '4');
    const refused = await advanceFlow(opts, { sessionId: 'k', kind: 'remediate' });
    expect(refused.missing).toEqual(['remediation limit reached: step 5 has sent the session back 2 of 2 times; advance without --remediate, or halt']);
    const last = await advanceFlow(opts, { sessionId: 'k' });
    expect(last.outcome).toBe('learnings-pending');
    expect(last.session.verdicts['5']!.map((v) => [v.visit, v.verdict])).toEqual([[1, 'PASS'], [2, 'PASS'], [3, 'PASS']]);
  });

  test('status shows the current step again, with what it needs (recovery after a lost context)', async () => {
    const root = tmpProject();
    const flow = await loadFlowFile(SKILL);
    await startFlow(runner(root), { flow, ref: SKILL, sessionId: 'k', inputs: { task: 'T' } });
    const v = await flowStatus(runner(root), 'k');
    expect(v.outcome).toBe('status');
    expect(v.text).toContain('## Step 0: Clarification (LINEAR)');
    expect(v.text).toContain('`.claude/memory/T-clarification-agent-memory.md`: memory file of agent clarification-agent; at least 100 characters; headings "## Section 0: Context Loaded"');
    expect(v.text).toContain('`.claude/memory/T-memory-phase-0-to-1-memory.md`');
    expect(await listSessions(root)).toEqual([{ sessionId: 'k', flow: 'develop-feature', status: 'EXECUTING', current: '0', file: join(root, '.ratchet/flows/k.json') }]);
  });
});

describe('hostile input', () => {
  test('session ids cannot traverse paths', async () => {
    const root = tmpProject();
    const flow = await loadFlowFile(REASONING);
    for (const id of ['../x', 'a/b', '', '.hidden', 'a\\b', 'x'.repeat(129), '__proto__\n']) {
      await expect(startFlow(runner(root), { flow, ref: REASONING, sessionId: id })).rejects.toMatchObject({ code: 'bad-session-id' });
    }
  });

  test('inputs: undeclared, missing required, bad names, control characters, reserved --set names', async () => {
    const root = tmpProject();
    const dir = tmpProject();
    const flow = await flowIn(dir, { id: 'x', title: 'X', inputs: { who: { required: true, description: 'the user' } }, steps: [{ id: '0', title: 'Z', content: 'a.md' }] });
    const start = (inputs: Record<string, string>): Promise<unknown> => startFlow(runner(root), { flow, ref: flow.path, sessionId: 's', inputs });
    await expect(start({})).rejects.toMatchObject({ code: 'bad-input', reason: 'flow "x" needs --input who=... (the user)' });
    await expect(start({ who: 'a', other: 'b' })).rejects.toMatchObject({ code: 'bad-input' });
    await expect(start({ who: 'a\nb' })).rejects.toMatchObject({ code: 'bad-input' });
    await expect(start({ who: 'a', __proto__: 'x' })).resolves.toBeDefined();
    await expect(start(JSON.parse('{"who":"a","__proto__":"x"}') as Record<string, string>)).rejects.toMatchObject({ code: 'session-exists' });
    const fresh = tmpProject();
    await expect(startFlow(runner(fresh), { flow, ref: flow.path, sessionId: 's', inputs: JSON.parse('{"who":"a","__proto__":"x"}') as Record<string, string> })).rejects.toMatchObject({ code: 'bad-input' });
    await expect(advanceFlow(runner(root), { sessionId: 's', set: { flow: 'other' } })).rejects.toMatchObject({ code: 'bad-input' });
  });

  test('a gate artifact that a variable moves outside the project is refused (exit-2 material), not checked', async () => {
    const root = tmpProject();
    const flow = await loadFlowFile(SKILL);
    await expect(startFlow(runner(root), { flow, ref: SKILL, sessionId: 's', inputs: { task: '../../../../etc/x' } })).rejects.toMatchObject({ code: 'artifact-outside-project' });
    // Values that would stay inside the project but leave the directory the flow chose are refused too.
    for (const task of ['a/../../b', '/etc/x', 'C:\\x', 'x\\..\\..\\y']) {
      const err = (await startFlow(runner(root), { flow, ref: SKILL, sessionId: 's', inputs: { task } }).catch((e: unknown) => e)) as FlowError;
      expect(err, task).toMatchObject({ code: 'artifact-outside-project' });
      expect(err.reason, task).toMatch(/^\{task\} is ".*", which (is an absolute path|contains a "\.\." segment): it cannot go into the artifact path \.claude\/memory\/\{task\}-\{agent\}-memory\.md/);
    }
    // A value with subdirectories that stays below the template's directory is fine.
    expect((await startFlow(runner(root), { flow, ref: SKILL, sessionId: 'sub', inputs: { task: 'team/login' } })).gates[0]!.artifact).toBe('.claude/memory/team/login-clarification-agent-memory.md');
    expect((await listSessions(root)).map((s) => s.sessionId)).toEqual(['sub']);
    // Through --set on a later step: refused before the advance is saved.
    const dir = tmpProject();
    const custom = await flowIn(dir, { id: 'x', title: 'X', steps: [{ id: 'a', title: 'A', content: 'a.md', requires: ['where'] }, { id: 'b', title: 'B', content: 'b.md', gates: [{ artifact: 'out/{where}.md' }] }] });
    await startFlow(runner(root), { flow: custom, ref: custom.path, sessionId: 'c' });
    await expect(advanceFlow(runner(root), { sessionId: 'c', set: { where: '../../x' } })).rejects.toMatchObject({ code: 'artifact-outside-project' });
    await expect(advanceFlow(runner(root), { sessionId: 'c', set: { where: 'sub/../x' } })).rejects.toMatchObject({ code: 'artifact-outside-project' });
    expect((await openSession(root, 'c').read()).current).toBe('a');
  });

  test('a memory file that is a symlink to outside the project is refused', async () => {
    const root = tmpProject();
    const outside = tmpProject();
    const flow = await loadFlowFile(SKILL);
    await startFlow(runner(root), { flow, ref: SKILL, sessionId: 's', inputs: { task: 'T' } });
    const target = writeAgentMemory(outside, 'T', 'clarification-agent');
    write(root, '.claude/memory/keep', '');
    symlinkSync(target, join(root, '.claude/memory/T-clarification-agent-memory.md'));
    writeTransition(root, 'T', '0', '1');
    await expect(advanceFlow(runner(root), { sessionId: 's' })).rejects.toMatchObject({ code: 'artifact-outside-project' });
  });

  test('a session file that does not parse is reported with its place and never overwritten', async () => {
    const root = tmpProject();
    await reasoning(root);
    const file = join(root, '.ratchet/flows/s.json');
    const broken = readFileSync(file, 'utf8').replace('"status": "EXECUTING",', '"status": "EXECUTING"');
    writeFileSync(file, broken);
    await expect(advanceFlow(runner(root), { sessionId: 's' })).rejects.toMatchObject({ code: 'parse-error', path: file });
    expect(readFileSync(file, 'utf8')).toBe(broken);
    writeFileSync(file, broken.replace('"status": "EXECUTING"', '"status": "EXECUTING", "__proto__": {}'));
    await expect(flowStatus(runner(root), 's')).rejects.toMatchObject({ code: 'unsafe-input' });
    writeFileSync(file, JSON.stringify({ schemaVersion: 1, ...JSON.parse(readFileSync(REASONING, 'utf8')) }));
    await expect(haltFlow(runner(root), { sessionId: 's', reason: 'x' })).rejects.toMatchObject({ code: 'validation-error' });
  });

  test('start twice with one session id: the second is refused; concurrent starts: exactly one wins', async () => {
    const root = tmpProject();
    const flow = await loadFlowFile(REASONING);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => startFlow(runner(root), { flow, ref: REASONING, sessionId: 'c' })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'session-exists' });
  });

  test('a flow edited under a running session: the missing step is reported, not guessed', async () => {
    const root = tmpProject();
    const dir = tmpProject();
    const flow = await flowIn(dir, { id: 'x', title: 'X', steps: [{ id: 'a', title: 'A', content: 'a.md' }, { id: 'b', title: 'B', content: 'b.md' }] });
    await startFlow(runner(root), { flow, ref: flow.path, sessionId: 's' });
    await advanceFlow(runner(root), { sessionId: 's' });
    await flowIn(dir, { id: 'x', title: 'X', steps: [{ id: 'a', title: 'A', content: 'a.md' }] });
    await expect(advanceFlow(runner(root), { sessionId: 's' })).rejects.toMatchObject({ code: 'flow-changed' });
  });
});

describe('directive text', () => {
  test("Ratchet's wording by default; a flow or the caller can replace it (here: the seed's own text)", async () => {
    const root = tmpProject();
    const dir = tmpProject();
    const seed = {
      heading: '**MANDATORY - EXECUTE IMMEDIATELY BEFORE ANY OTHER ACTION:**',
      warnings: ['- DO NOT skip this step', '- DO NOT proceed without executing', '- DO NOT substitute another command'],
    };
    const flow = await flowIn(dir, { id: 'x', title: 'X', directive: seed, steps: [{ id: 'a', title: 'A', content: 'a.md' }] });
    const v = await startFlow(runner(root), { flow, ref: flow.path, sessionId: 's' });
    expect(v.directive.text).toBe(`${seed.heading}\n\n\`ratchet flow advance --session s\`\n\n${seed.warnings.join('\n')}`);
    const custom = await flowStatus(runner(root, { directive: { heading: 'NEXT:' }, command: 'npx ratchet' }), 's');
    expect(custom.directive.text.split('\n').slice(0, 3)).toEqual(['NEXT:', '', '`npx ratchet flow advance --session s`']);
  });
});

describe('session lifecycle (fsm-core)', () => {
  test('the lifecycle machine is clean and drives every status change', async () => {
    const { check } = await import('@ratchet/fsm-core');
    const { SESSION_FSM, sessionMachine } = await import('../src/index.js');
    // No diagnostic at all, warnings included: sessionMachine() compiles it without fsm-core's checks.
    expect(check(SESSION_FSM)).toEqual([]);
    expect(sessionMachine().states).toEqual(['EXECUTING', 'HALTED', 'COMPLETED', 'LEARNINGS_PENDING', 'FULLY_COMPLETE']);
    const root = tmpProject();
    await reasoning(root);
    await haltFlow(runner(root), { sessionId: 's', reason: 'wait' });
    await expect(completeBranch(runner(root), { sessionId: 's', branch: 'x' })).rejects.toThrow('session s is HALTED (wait): resume it first; cannot branch (allowed: resume)');
  });
});
