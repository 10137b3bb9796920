/**
 * The seed's six invariants ("VIOLATING THESE BREAKS THE SYSTEM"), one describe each. Every test
 * here fails if the invariant it names is broken.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { advanceFlow, checkFlow, completeBranch, FlowError, haltFlow, loadFlowFile, openSession, resumeFlow, startFlow, STEP_TYPES, type FlowView } from '../src/index.js';
import { directiveCommand, flowIn, memoryText, REASONING, runner, SKILL, think, tmpProject, write, writeAgentMemory, writeLearnings, writeTransition } from './support.js';

/** Walk the composite skill to the end, producing each artifact just in time; returns every view. */
async function walkSkill(root: string): Promise<FlowView[]> {
  const opts = runner(root);
  const skill = await loadFlowFile(SKILL);
  const views: FlowView[] = [await startFlow(opts, { flow: skill, ref: SKILL, sessionId: 'w', inputs: { task: 'T' } })];
  const push = async (v: Promise<FlowView>): Promise<FlowView> => {
    const view = await v;
    views.push(view);
    return view;
  };
  await push(advanceFlow(opts, { sessionId: 'w' })); // refused: nothing written yet
  writeAgentMemory(root, 'T', 'clarification-agent');
  writeTransition(root, 'T', '0', '1');
  await push(advanceFlow(opts, { sessionId: 'w' }));
  writeAgentMemory(root, 'T', 'research-agent');
  writeTransition(root, 'T', '1', '2');
  await push(advanceFlow(opts, { sessionId: 'w' }));
  writeAgentMemory(root, 'T', 'analysis-agent');
  writeTransition(root, 'T', '2', '3');
  await push(advanceFlow(opts, { sessionId: 'w' }));
  await push(completeBranch(opts, { sessionId: 'w', branch: '3:design' })); // refused
  for (const b of ['design', 'risks']) {
    write(root, `.claude/memory/T-synthesis-agent-${b}-memory.md`, memoryText());
    await push(completeBranch(opts, { sessionId: 'w', branch: `3:${b}` }));
  }
  writeTransition(root, 'T', '3', '4');
  await push(advanceFlow(opts, { sessionId: 'w' }));
  writeAgentMemory(root, 'T', 'generation-agent');
  writeTransition(root, 'T', '4', '4');
  await push(advanceFlow(opts, { sessionId: 'w', kind: 'loop' }));
  // Each iteration hands in its own work: the files of the previous one no longer count.
  writeAgentMemory(root, 'T', 'generation-agent');
  writeTransition(root, 'T', '4', '5');
  await push(advanceFlow(opts, { sessionId: 'w' }));
  // The validation agent's verdict decides: FAIL sends the work back, PASS leaves the last phase.
  writeAgentMemory(root, 'T', 'validation-agent', 'Verdict: FAIL');
  writeTransition(root, 'T', '5', '4');
  await push(advanceFlow(opts, { sessionId: 'w' }));
  writeAgentMemory(root, 'T', 'generation-agent');
  writeTransition(root, 'T', '4', '5');
  await push(advanceFlow(opts, { sessionId: 'w' }));
  writeAgentMemory(root, 'T', 'validation-agent', 'Verdict: PASS');
  await push(advanceFlow(opts, { sessionId: 'w' }));
  await push(advanceFlow(opts, { sessionId: 'w' })); // refused: no learnings yet
  writeLearnings(root, 'T');
  await push(advanceFlow(opts, { sessionId: 'w' }));
  return views;
}

describe('invariant 1: every step prints a mandatory next-command directive', () => {
  test('the composite skill, start to finish: every view (refusals included) ends with the directive and its exact command', async () => {
    const views = await walkSkill(tmpProject());
    expect(views.map((v) => v.outcome)).toEqual([
      'started',
      'refused',
      'advanced',
      'advanced',
      'advanced',
      'refused',
      'branch-completed',
      'branch-completed',
      'advanced',
      'looped',
      'advanced',
      'remediated',
      'advanced',
      'learnings-pending',
      'refused',
      'completed',
    ]);
    for (const v of views) {
      expect(v.text.trimEnd().endsWith(v.directive.text.trimEnd())).toBe(true);
      expect(directiveCommand(v)).toBe(v.directive.command);
      expect(v.directive.text).toContain('**NEXT COMMAND (required)');
    }
    expect(views[5]!.directive.command).toBe('ratchet flow complete-branch 3:design --session w');
    expect(views[6]!.directive.command).toBe('ratchet flow complete-branch 3:risks --session w');
    expect(views[7]!.directive.command).toBe('ratchet flow advance --session w');
    expect(views[9]!.directive.command).toBe('ratchet flow advance --session w');
    expect(views.at(-1)!.session.status).toBe('FULLY_COMPLETE');
  });

  test('the reasoning protocol: halts and completions name their next command too', async () => {
    const root = tmpProject();
    const opts = runner(root);
    const flow = await loadFlowFile(REASONING);
    const halted = await think(opts, { sessionId: (await startFlow(opts, { flow, ref: REASONING, sessionId: 'r' })).session.sessionId, questions: ['Which database?'] });
    expect(halted.outcome).toBe('halted');
    expect(directiveCommand(halted)).toBe("ratchet flow resume --session r --answer '<answer 1>'");
    expect(halted.text).toContain('1. Which database?');
    let v = await resumeFlow(opts, { sessionId: 'r', actor: 'user', answers: ['Postgres'] });
    expect(directiveCommand(v)).toBe("ratchet flow advance --session r --output '<file>'");
    for (let i = 0; i < 20 && v.outcome !== 'completed'; i++) v = await think(opts, { sessionId: 'r', set: { route: 'develop-feature', confidence: 'HIGH' } });
    expect(v.outcome).toBe('completed');
    expect(directiveCommand(v)).toBe('ratchet flow start develop-feature --session r-develop-feature --input task=r');
  });

  test('property: any sequence of commands on any built-in flow yields a directive every time', async () => {
    const reasoning = await loadFlowFile(REASONING);
    const skill = await loadFlowFile(SKILL);
    type Op = 'advance' | 'loop' | 'remediate' | 'halt' | 'resume' | 'branch' | 'artifacts' | 'question';
    const op = fc.constantFrom<Op>('advance', 'advance', 'loop', 'remediate', 'halt', 'resume', 'branch', 'artifacts', 'artifacts', 'question');
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.boolean(), fc.array(op, { maxLength: 25 }), async (useSkill, agent, ops) => {
        const root = tmpProject();
        const opts = runner(root);
        const flow = useSkill ? skill : reasoning;
        const first = await startFlow(opts, { flow, ref: flow.path, sessionId: 'p', mode: agent ? 'agent' : 'normal', inputs: { task: 'T' } });
        expect(directiveCommand(first)).toBe(first.directive.command);
        for (const o of ops) {
          let v: FlowView | undefined;
          try {
            if (o === 'advance') v = await think(opts, { sessionId: 'p', set: { route: 'develop-feature', confidence: 'HIGH' } });
            else if (o === 'loop') v = await advanceFlow(opts, { sessionId: 'p', kind: 'loop' });
            else if (o === 'remediate') v = await advanceFlow(opts, { sessionId: 'p', kind: 'remediate' });
            else if (o === 'halt') v = await haltFlow(opts, { sessionId: 'p', reason: 'stop' });
            else if (o === 'resume') v = await resumeFlow(opts, { sessionId: 'p', actor: 'user', answers: (await openSession(root, 'p').read()).clarificationAnswers.length === 0 ? (await openSession(root, 'p').read()).clarificationQuestions.map(() => 'yes') : [] });
            else if (o === 'question') v = await advanceFlow(opts, { sessionId: 'p', questions: ['why?'] });
            else if (o === 'branch') v = await completeBranch(opts, { sessionId: 'p', branch: 'design' });
            else {
              // Produce every artifact the current step's view asks for.
              const state = await openSession(root, 'p').read();
              for (const agentName of ['clarification-agent', 'research-agent', 'analysis-agent', 'generation-agent', 'validation-agent']) writeAgentMemory(root, 'T', agentName);
              for (const b of ['design', 'risks']) write(root, `.claude/memory/T-synthesis-agent-${b}-memory.md`, memoryText());
              for (const a of ['0', '1', '2', '3', '4', '5']) for (const b of ['1', '2', '3', '4', '5']) writeTransition(root, 'T', a, b);
              void state;
            }
          } catch (err) {
            // Misuse (wrong step type, inactive session) is an input error, never a silent success.
            expect(err).toBeInstanceOf(FlowError);
            continue;
          }
          if (v) expect(directiveCommand(v)).toBe(v.directive.command);
        }
      }),
      { numRuns: 15 },
    );
  }, 60_000);
});

describe('invariant 2: state is saved before the directive is printed', () => {
  test('the view returned is exactly what is on disk', async () => {
    const root = tmpProject();
    const opts = runner(root);
    const flow = await loadFlowFile(REASONING);
    await startFlow(opts, { flow, ref: REASONING, sessionId: 's' });
    const v = await think(opts, { sessionId: 's' });
    expect(await openSession(root, 's').read()).toEqual(v.session);
    expect(v.session.current).toBe('1');
  });

  test('the transition is on disk even when rendering the next step fails afterwards', async () => {
    const root = tmpProject();
    const dir = tmpProject();
    const opts = runner(root);
    const flow = await flowIn(dir, { id: 'two', title: 'Two', steps: [{ id: 'a', title: 'A', content: 'a.md' }, { id: 'b', title: 'B', content: 'b.md' }] });
    await startFlow(opts, { flow, ref: flow.path, sessionId: 's' });
    rmSync(join(dir, 'b.md'));
    // Rendering step b needs b.md: the save happened first, so the session is at b although nothing printed.
    await expect(advanceFlow({ ...opts, loadFlow: () => Promise.resolve(flow) }, { sessionId: 's' })).rejects.toMatchObject({ code: 'missing-content' });
    expect((await openSession(root, 's').read()).current).toBe('b');
  });
});

describe('invariant 3: agents are never called directly, only through the Task tool', () => {
  test('the package cannot start processes: no child_process, worker_threads or cluster anywhere in src/', () => {
    const src = new URL('../src/', import.meta.url);
    for (const file of readdirSync(src, { recursive: true }) as string[]) {
      if (!file.endsWith('.ts')) continue;
      const text = readFileSync(new URL(file, src), 'utf8');
      expect(text, file).not.toMatch(/child_process|worker_threads|node:cluster|\bexecSync\b|\bspawn\(/);
    }
  });

  test('a phase names its agent for the Task tool (subagent_type) and tells the caller not to run it', async () => {
    const root = tmpProject();
    const flow = await loadFlowFile(SKILL);
    const v = await startFlow(runner(root), { flow, ref: SKILL, sessionId: 's' });
    expect(v.text).toContain('Invoke `clarification-agent` through the Task tool (subagent_type: `clarification-agent`)');
    expect(v.text).toContain("Never run an agent's entry point yourself.");
    expect(v.step?.agent).toBe('clarification-agent');
  });
});

describe('invariant 4: phase advancement blocks until the memory file exists; no bypass', () => {
  test('missing, too short, or without the required headings: refused, nothing saved', async () => {
    const root = tmpProject();
    const opts = runner(root);
    const flow = await loadFlowFile(SKILL);
    await startFlow(opts, { flow, ref: SKILL, sessionId: 's', inputs: { task: 'T' } });
    writeTransition(root, 'T', '0', '1');
    const before = readFileSync(join(root, '.ratchet/flows/s.json'), 'utf8');

    const missing = await advanceFlow(opts, { sessionId: 's' });
    expect(missing.ok).toBe(false);
    expect(missing.missing).toEqual(['.claude/memory/T-clarification-agent-memory.md does not exist (memory file of agent clarification-agent)']);

    write(root, '.claude/memory/T-clarification-agent-memory.md', '## Section 0: Context Loaded\n');
    const short = await advanceFlow(opts, { sessionId: 's' });
    expect(short.missing[0]).toMatch(/has 29 characters, needs at least 100/);
    expect(short.missing).toContain('.claude/memory/T-clarification-agent-memory.md lacks the heading line "## Section 3: Downstream Directives" outside code blocks (memory file of agent clarification-agent)');

    // Long enough, but a heading is only mentioned inline, not as a line of its own.
    write(root, '.claude/memory/T-clarification-agent-memory.md', `${'text '.repeat(30)}\nsee ## Section 0: Context Loaded\n## Section 1: Step Overview\n## Section 2: Johari Summary\n## Section 3: Downstream Directives\n`);
    const inline = await advanceFlow(opts, { sessionId: 's', force: true } as never);
    expect(inline.missing).toEqual(['.claude/memory/T-clarification-agent-memory.md lacks the heading line "## Section 0: Context Loaded" outside code blocks (memory file of agent clarification-agent)']);
    expect(readFileSync(join(root, '.ratchet/flows/s.json'), 'utf8')).toBe(before);

    writeAgentMemory(root, 'T', 'clarification-agent');
    expect((await advanceFlow(opts, { sessionId: 's' })).outcome).toBe('advanced');
  });

  test('a directory, a binary file or an empty file in place of the memory file does not count', async () => {
    const root = tmpProject();
    const opts = runner(root);
    const flow = await loadFlowFile(SKILL);
    await startFlow(opts, { flow, ref: SKILL, sessionId: 's', inputs: { task: 'T' } });
    writeTransition(root, 'T', '0', '1');
    write(root, '.claude/memory/T-clarification-agent-memory.md/x', 'a directory');
    expect((await advanceFlow(opts, { sessionId: 's' })).missing[0]).toMatch(/not a readable text file/);
    rmSync(join(root, '.claude/memory/T-clarification-agent-memory.md'), { recursive: true });
    write(root, '.claude/memory/T-clarification-agent-memory.md', `\0\0\0${'x'.repeat(200)}`);
    expect((await advanceFlow(opts, { sessionId: 's' })).missing[0]).toMatch(/not a readable text file/);
  });

  test('the API has no override: unknown options are ignored, not obeyed', async () => {
    const root = tmpProject();
    const opts = runner(root);
    const flow = await loadFlowFile(SKILL);
    await startFlow(opts, { flow, ref: SKILL, sessionId: 's' });
    for (const bypass of [{ force: true }, { skipGates: true }, { bypass: true }]) {
      expect((await advanceFlow(opts, { sessionId: 's', ...bypass })).ok).toBe(false);
    }
  });
});

describe('invariant 5: phase 0 of every skill must be LINEAR', () => {
  test('a first step of any other type is refused when the flow is loaded, at its place', () => {
    for (const type of STEP_TYPES.filter((t) => t !== 'LINEAR')) {
      const { problems } = checkFlow({
        id: 'x',
        title: 'X',
        steps: [
          { id: '0', title: 'Zero', type, content: 'a.md', skip: { mode: 'agent' }, remediationTarget: '1', branches: [{ id: 'b', title: 'B' }] },
          { id: '1', title: 'One', content: 'b.md' },
        ].map((s) => Object.fromEntries(Object.entries(s).filter(([k]) => k === 'id' || k === 'title' || k === 'type' || k === 'content' || (k === 'skip' && type === 'OPTIONAL') || (k === 'remediationTarget' && type === 'REMEDIATION') || (k === 'branches' && type === 'PARALLEL')))),
      });
      expect(problems, type).toContainEqual({ pointer: '/steps/0/type', message: `the first step ("0") must be LINEAR (mandatory clarification), not ${type}` });
    }
  });

  test('also when "start" names a later step', () => {
    const { problems } = checkFlow({ id: 'x', title: 'X', start: '1', steps: [{ id: '0', title: 'Z', content: 'a.md', next: null }, { id: '1', title: 'O', type: 'ITERATIVE', content: 'b.md', next: '0' }] });
    expect(problems.map((p) => p.pointer)).toContain('/steps/1/type');
  });

  test('the file on disk: exit-2 material with file:line:col', async () => {
    const dir = tmpProject();
    const err = await flowIn(dir, { id: 'x', title: 'X', steps: [{ id: '0', title: 'Z', type: 'OPTIONAL', skip: { mode: 'agent' }, content: 'a.md' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FlowError);
    expect(err).toMatchObject({ code: 'invalid-flow', pointer: '/steps/0/type', line: 8, column: 15 });
  });
});

describe('invariant 6: the memory agent must complete at every phase transition', () => {
  test('the agent memory file alone is not enough: the transition file {task}-memory-phase-A-to-B-memory.md is required', async () => {
    const root = tmpProject();
    const opts = runner(root);
    const flow = await loadFlowFile(SKILL);
    await startFlow(opts, { flow, ref: SKILL, sessionId: 's', inputs: { task: 'T' } });
    writeAgentMemory(root, 'T', 'clarification-agent');
    const refused = await advanceFlow(opts, { sessionId: 's' });
    expect(refused.missing).toEqual(['.claude/memory/T-memory-phase-0-to-1-memory.md does not exist (memory-agent file for the transition 0 -> 1)']);
    writeTransition(root, 'T', '0', '1');
    expect((await advanceFlow(opts, { sessionId: 's' })).session.current).toBe('1');
  });

  test('the transition names the phase actually entered (a skipped optional phase is passed over) and loops count as transitions', async () => {
    const root = tmpProject();
    const opts = runner(root);
    const flow = await loadFlowFile(SKILL);
    await startFlow(opts, { flow, ref: SKILL, sessionId: 's', inputs: { task: 'T', depth: 'quick' } });
    writeAgentMemory(root, 'T', 'clarification-agent');
    expect((await advanceFlow(opts, { sessionId: 's' })).missing).toEqual(['.claude/memory/T-memory-phase-0-to-2-memory.md does not exist (memory-agent file for the transition 0 -> 2)']);
  });

  test('a skill that declares no memory-agent gate does not load', () => {
    const { problems } = checkFlow({ id: 'x', title: 'X', kind: 'skill', agentGate: { artifact: 'm/{agent}.md' }, steps: [{ id: '0', title: 'Z', content: 'a.md', agent: 'a' }] });
    expect(problems).toContainEqual({ pointer: '/transitionGate', message: 'a skill must declare the memory-agent gate checked at every phase transition ("transitionGate")' });
  });
});
