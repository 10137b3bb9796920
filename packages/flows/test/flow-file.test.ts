/** Flow files: every structural rule, JSON and YAML, and hostile input (exit-2 material with a place). */
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkFlow, FlowError, loadFlowFile, parseFlow } from '../src/index.js';
import { REASONING, SKILL, tmpProject, write } from './support.js';

const step = (id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ id, title: `Step ${id}`, content: `${id}.md`, ...extra });
const problemsOf = (flow: unknown): string[] => checkFlow(flow).problems.map((p) => `${p.pointer}: ${p.message}`);

describe('checkFlow', () => {
  test('the built-in flows are valid, with defaults filled in', async () => {
    const reasoning = (await loadFlowFile(REASONING)).flow;
    expect(reasoning.steps.map((s) => s.id)).toEqual(['0', '1', '2', '3', '3b', '4', '5', '6', '7', '8']);
    expect(reasoning.steps[0]).toMatchObject({ type: 'LINEAR', next: '1', haltOnQuestions: true });
    expect(reasoning.steps[5]).toMatchObject({ id: '4', type: 'OPTIONAL', haltOnQuestions: true, haltUnless: { input: 'confidence', equals: 'HIGH' }, skip: { mode: 'agent' }, requires: ['route', 'confidence'] });
    expect(reasoning.steps[9]).toMatchObject({ id: '8', type: 'ITERATIVE', loopTo: '4', maxIterations: 3, next: null });
    // Step 0 is the seed's Johari discovery: the four moves, at most five questions, halt on any question.
    const johari = readFileSync((await loadFlowFile(REASONING)).contents['0']!, 'utf8');
    for (const move of ['**SHARE**', '**ASK**', '**ACKNOWLEDGE**', '**EXPLORE**', 'At most 5 questions', '--question']) expect(johari).toContain(move);
    const skill = (await loadFlowFile(SKILL)).flow;
    expect(skill.kind).toBe('skill');
    // Every phase but the parallel one invokes an atomic-skill agent; the parallel one invokes one per branch.
    expect(skill.steps.map((s) => [s.id, s.atomicSkill, s.agent ?? s.branches.map((b) => b.agent).join('+')])).toEqual([
      ['0', 'orchestrate-clarification', 'clarification-agent'],
      ['1', 'orchestrate-research', 'research-agent'],
      ['2', 'orchestrate-analysis', 'analysis-agent'],
      ['3', 'orchestrate-synthesis', 'synthesis-agent+synthesis-agent'],
      ['4', 'orchestrate-generation', 'generation-agent'],
      ['5', 'orchestrate-validation', 'validation-agent'],
    ]);
    expect(skill.steps.map((s) => s.type)).toEqual(['LINEAR', 'OPTIONAL', 'LINEAR', 'PARALLEL', 'ITERATIVE', 'REMEDIATION']);
  });

  test('every problem at once, each with its JSON pointer', () => {
    const problems = problemsOf({
      id: 'Bad Id',
      title: '',
      extra: 1,
      steps: [
        step('0', { next: 'nowhere', colour: 'red' }),
        step('0'),
        step('2', { type: 'SOMETIMES' }),
        step('3', { type: 'REMEDIATION' }),
        step('4', { type: 'PARALLEL', branches: [] }),
        step('5', { type: 'OPTIONAL' }),
        step('6', { loopTo: '0', maxIterations: 99 }),
      ],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        '/extra: unknown property "extra"',
        '/id: "id" "Bad Id" must use lowercase letters, digits and "-"',
        '/title: "title" must be a non-empty string',
        '/steps/0/colour: unknown property "colour"',
        '/steps/2/type: "type" must be one of LINEAR, OPTIONAL, ITERATIVE, REMEDIATION, PARALLEL',
        '/steps/3: a REMEDIATION step needs a "remediationTarget"',
        '/steps/4/branches: a PARALLEL step needs at least one branch',
        '/steps/5: an OPTIONAL step needs a "skip" condition (when it is skipped)',
        '/steps/6/maxIterations: "maxIterations" must be an integer from 1 to 10',
        '/steps/6/loopTo: "loopTo" only applies to ITERATIVE steps (this one is LINEAR)',
        '/steps/1/id: duplicate step id "0" (first at /steps/0)',
        '/steps/0/next: next step "nowhere" is not a step of this flow',
      ]),
    );
  });

  test('unreachable steps and next-cycles that never finish', () => {
    expect(problemsOf({ id: 'x', title: 'X', steps: [step('a', { next: null }), step('b')] })).toEqual(['/steps/1: step "b" is unreachable from the start step "a"']);
    expect(problemsOf({ id: 'x', title: 'X', steps: [step('a'), step('b', { next: 'a' })] })).toEqual([
      '/steps/0/next: step "a" never reaches the end of the flow: its "next" steps form a cycle',
      '/steps/1/next: step "b" never reaches the end of the flow: its "next" steps form a cycle',
    ]);
  });

  test('gate paths: unknown placeholders, absolute paths and ".." are refused at load time', () => {
    const problems = problemsOf({
      id: 'x',
      title: 'X',
      agentGate: { artifact: '/etc/{agent}.md' },
      transitionGate: { artifact: '../{from}-{to}.md' },
      steps: [step('0', { gates: [{ artifact: 'm/{agent}-{nope}.md' }, { artifact: 'C:\\x.md' }, { artifact: 'a/{task}/../../../x' }] })],
    });
    expect(problems).toEqual([
      '/agentGate/artifact: artifact path must be relative to the project root',
      '/transitionGate/artifact: artifact path must not contain ".." segments: artifacts stay inside the project',
      '/steps/0/gates/0/artifact: unknown placeholder {agent} (known here: {task}, {task-id}, {session}, {flow}, {step}, {iteration})',
      '/steps/0/gates/0/artifact: unknown placeholder {nope} (known here: {task}, {task-id}, {session}, {flow}, {step}, {iteration})',
      '/steps/0/gates/1/artifact: artifact path must be relative to the project root',
      '/steps/0/gates/2/artifact: artifact path must not contain ".." segments: artifacts stay inside the project',
    ]);
  });

  test('a skill needs an agent per phase, an agent gate, a transition gate and a learnings gate', () => {
    expect(problemsOf({ id: 'x', title: 'X', kind: 'skill', steps: [step('0')] })).toEqual([
      '/steps/0: skill phase "0" must name the agent it invokes ("agent")',
      '/transitionGate: a skill must declare the memory-agent gate checked at every phase transition ("transitionGate")',
      '/agentGate: a skill must declare the agent memory-file gate ("agentGate")',
      '/learningsGate: a skill must declare where its learnings are written ("learningsGate"): it is FULLY_COMPLETE only after them',
    ]);
    expect(problemsOf({ id: 'x', title: 'X', learningsGate: { artifact: 'l/{step}.md' }, steps: [step('0')] })).toEqual([
      '/learningsGate/artifact: unknown placeholder {step} (known here: {task}, {task-id}, {session}, {flow})',
    ]);
  });

  test('a REMEDIATION step reads its verdict from a file: an agent with an agent gate, or verdictFrom (only there, inside the project)', () => {
    const fix = step('1', { type: 'REMEDIATION', remediationTarget: '0' });
    expect(problemsOf({ id: 'x', title: 'X', steps: [step('0'), fix] })).toEqual(['/steps/1: a REMEDIATION step reads its verdict from a file: name its agent (with an "agentGate") or "verdictFrom"']);
    expect(problemsOf({ id: 'x', title: 'X', steps: [step('0'), { ...fix, verdictFrom: 'out/{step}-verdict.md' }] })).toEqual([]);
    expect(problemsOf({ id: 'x', title: 'X', steps: [step('0', { verdictFrom: '../v.md' }), { ...fix, verdictFrom: 'out/{nope}.md' }] })).toEqual([
      '/steps/0/verdictFrom: artifact path must not contain ".." segments: artifacts stay inside the project',
      '/steps/0/verdictFrom: "verdictFrom" only applies to REMEDIATION steps (this one is LINEAR)',
      '/steps/1/verdictFrom: unknown placeholder {nope} (known here: {task}, {task-id}, {session}, {flow}, {step}, {iteration})',
      '/steps/1: a REMEDIATION step reads its verdict from a file: name its agent (with an "agentGate") or "verdictFrom"',
    ]);
  });

  test('not an object, no steps, wrong types', () => {
    expect(problemsOf(null)).toEqual([': a flow must be an object']);
    expect(problemsOf([])).toEqual([': a flow must be an object']);
    expect(problemsOf({ id: 'x', title: 'X', steps: [] })).toEqual(['/steps: steps must have at least one step']);
    expect(problemsOf({ id: 'x', title: 'X', steps: 'a' })).toEqual(['/steps: steps must be an array with at least one step']);
    expect(problemsOf({ id: 'x', title: 'X', steps: [step('a', { requires: 'route', haltOnQuestions: 'yes' })] })).toEqual([
      '/steps/0/requires: "requires" must be an array of strings',
      '/steps/0/haltOnQuestions: "haltOnQuestions" must be true or false',
    ]);
  });
});

describe('parseFlow and loadFlowFile: bad input names the file and the place', () => {
  test('malformed and truncated JSON: the store parse error with line and column', async () => {
    await expect(parseFlow('{\n  "id": "x",\n  "title": \n}', { path: 'f.flow.json' })).rejects.toMatchObject({ code: 'parse-error', path: 'f.flow.json', line: 4, column: 1 });
    const text = readFileSync(REASONING, 'utf8');
    await expect(parseFlow(text.slice(0, text.length / 2), { path: 'cut.flow.json' })).rejects.toMatchObject({ code: 'parse-error', path: 'cut.flow.json' });
  });

  test('an invalid flow points at the first problem and carries all of them', async () => {
    const err = (await parseFlow('{\n  "id": "x",\n  "title": "X",\n  "steps": [\n    { "id": "0", "title": "Z", "content": "a.md", "next": 5 }\n  ]\n}\n', { path: 'p.flow.json' }).catch((e: unknown) => e)) as FlowError;
    expect(err).toBeInstanceOf(FlowError);
    expect(err).toMatchObject({ code: 'invalid-flow', path: 'p.flow.json', line: 5, column: 59, pointer: '/steps/0/next' });
    expect(err.message).toBe('p.flow.json: invalid flow: must be a step id or null (the flow ends) (line 5, column 59)');
  });

  test('__proto__ keys are refused in JSON and in YAML', async () => {
    await expect(parseFlow('{"id":"x","title":"X","__proto__":{"polluted":true},"steps":[]}', { path: 'p.flow.json' })).rejects.toMatchObject({ code: 'unsafe-input' });
    await expect(parseFlow('id: x\ntitle: X\nsteps:\n  - id: "0"\n    title: Z\n    content: a.md\n    __proto__: { polluted: true }\n', { path: 'p.flow.yaml' })).rejects.toMatchObject({
      code: 'flow-parse-error',
      line: 4,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('YAML: same flow as JSON; syntax errors and problems placed at line:col', async () => {
    const yaml = 'id: x\ntitle: X\nsteps:\n  - id: "0"\n    title: Zero\n    content: a.md\n  - id: "1"\n    title: One\n    type: ITERATIVE\n    content: b.md\n';
    const flow = await parseFlow(yaml, { path: 'x.flow.yaml' });
    expect(flow.steps.map((s) => [s.id, s.type, s.next])).toEqual([
      ['0', 'LINEAR', '1'],
      ['1', 'ITERATIVE', null],
    ]);
    await expect(parseFlow('id: x\ntitle: [unclosed\n', { path: 'bad.flow.yaml' })).rejects.toMatchObject({ code: 'flow-parse-error', path: 'bad.flow.yaml', line: 3 });
    await expect(parseFlow('id: x\nid: y\n', { path: 'dup.flow.yml' })).rejects.toMatchObject({ code: 'flow-parse-error', line: 2 });
    await expect(parseFlow('id: x\ntitle: X\nsteps:\n  - id: "0"\n    title: Zero\n    content: a.md\n    type: OPTIONAL\n    skip: { mode: robot }\n', { path: 'y.flow.yaml' })).rejects.toMatchObject({
      code: 'invalid-flow',
      line: 8,
      column: 19,
      pointer: '/steps/0/skip/mode',
    });
  });

  test('YAML alias bombs are refused', async () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`)].join('\n');
    await expect(parseFlow(bomb, { path: 'bomb.flow.yaml' })).rejects.toMatchObject({ code: 'flow-parse-error' });
  });

  test('BOM and CRLF are fine', async () => {
    const json = `\uFEFF${JSON.stringify({ id: 'x', title: 'X', steps: [step('0')] }, null, 2).replace(/\n/g, '\r\n')}`;
    expect((await parseFlow(json, { path: 'x.flow.json' })).id).toBe('x');
    expect((await parseFlow('\uFEFFid: x\r\ntitle: X\r\nsteps:\r\n  - { id: "0", title: Z, content: a.md }\r\n', { path: 'x.flow.yaml' })).id).toBe('x');
  });

  test('binary, huge and missing files: store errors with the path', async () => {
    const dir = tmpProject();
    writeFileSync(join(dir, 'bin.flow.json'), Buffer.from([0x7b, 0x00, 0x01, 0x7d]));
    await expect(loadFlowFile(join(dir, 'bin.flow.json'))).rejects.toMatchObject({ code: 'binary-file' });
    writeFileSync(join(dir, 'huge.flow.json'), `{"id":"x","pad":"${'x'.repeat(5 * 1024 * 1024)}"}`);
    await expect(loadFlowFile(join(dir, 'huge.flow.json'))).rejects.toMatchObject({ code: 'file-too-large' });
    await expect(loadFlowFile(join(dir, 'none.flow.json'))).rejects.toMatchObject({ code: 'not-found' });
  });

  test('content files: missing, or outside the flow directory', async () => {
    const dir = tmpProject();
    write(dir, 'x.flow.json', JSON.stringify({ id: 'x', title: 'X', steps: [step('0')] }, null, 2));
    await expect(loadFlowFile(join(dir, 'x.flow.json'))).rejects.toMatchObject({ code: 'missing-content', pointer: '/steps/0/content', line: 8, column: 18 });
    write(dir, 'y.flow.json', JSON.stringify({ id: 'y', title: 'Y', steps: [{ id: '0', title: 'Z', content: 'sub/../../etc/passwd' }] }));
    await expect(loadFlowFile(join(dir, 'y.flow.json'))).rejects.toMatchObject({ code: 'invalid-flow', pointer: '/steps/0/content' });
    // A symlink out of the flow's directory: refused, its target never read.
    const outside = write(tmpProject(), 'secret.md', 'secret');
    symlinkSync(outside, join(dir, 'link.md'));
    write(dir, 'z.flow.json', JSON.stringify({ id: 'z', title: 'Z', steps: [{ id: '0', title: 'Z', content: 'link.md' }] }));
    await expect(loadFlowFile(join(dir, 'z.flow.json'))).rejects.toMatchObject({ code: 'invalid-flow', pointer: '/steps/0/content', reason: expect.stringContaining('symbolic link') as string });
  });
});
