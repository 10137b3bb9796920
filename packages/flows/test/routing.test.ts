/**
 * Routing by data: flows say what they are for and not for, and a routed flow can name the flow to
 * run after it (the original's dynamic skill sequencing). A name the caller cannot start is refused.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { advanceFlow, checkFlow, loadFlowFile, startFlow } from '../src/index.js';
import { flowIn, REASONING, runner, SKILL, think, tmpProject } from './support.js';

const CATALOGUE = { flows: () => ['develop-feature', 'reasoning', 'review'] };

describe('what a flow is for', () => {
  test('the built-in flows declare their semantic trigger and what they are not for', async () => {
    for (const path of [REASONING, SKILL]) {
      const { flow } = await loadFlowFile(path);
      expect(flow.semanticTrigger, path).toMatch(/^.{20,}$/);
      expect(flow.notFor, path).toMatch(/^.{20,}$/);
    }
  });

  test('each is one line of text', () => {
    const base = { id: 'x', title: 'X', steps: [{ id: '0', title: 'Z', content: 'a.md' }] };
    expect(checkFlow({ ...base, semanticTrigger: 'fix a bug', notFor: 'new features' }).flow).toMatchObject({ semanticTrigger: 'fix a bug', notFor: 'new features' });
    expect(checkFlow({ ...base, semanticTrigger: 'two\nlines', notFor: ' ' }).problems.map((p) => [p.pointer, p.message])).toEqual([
      ['/semanticTrigger', 'must be one line without control characters'],
      ['/notFor', '"notFor" must be a non-empty string'],
    ]);
  });
});

describe('dynamic sequencing: the next flow after this one', () => {
  test('routing names the skill and the one after it: the reasoning directive starts the skill and passes the rest on', async () => {
    const root = tmpProject();
    const opts = runner(root, CATALOGUE);
    const flow = await loadFlowFile(REASONING);
    await startFlow(opts, { flow, ref: REASONING, sessionId: 'r', inputs: { query: 'add a login page, then review it' } });
    let v = await think(opts, { sessionId: 'r' });
    while (v.session.current !== '4') v = await think(opts, { sessionId: 'r' });
    v = await think(opts, { sessionId: 'r', set: { route: 'develop-feature', confidence: 'HIGH' }, then: ['review'] });
    expect(v.session.then).toEqual(['review']);
    while (v.session.status !== 'COMPLETED') v = await think(opts, { sessionId: 'r' });
    expect(v.directive.command).toBe('ratchet flow start develop-feature --session r-develop-feature --input task=r --then review');
  });

  test('a running flow names the next one; when it completes, the directive starts it and passes the rest on', async () => {
    const root = tmpProject();
    const dir = tmpProject();
    const opts = runner(root, CATALOGUE);
    const flow = await flowIn(dir, { id: 'mini', title: 'Mini', steps: [{ id: '0', title: 'A', content: 'a.md' }, { id: '1', title: 'B', content: 'b.md' }] });
    await startFlow(opts, { flow, ref: flow.path, sessionId: 'm', inputs: { task: 'login page' }, then: ['develop-feature'] });
    await advanceFlow(opts, { sessionId: 'm', then: ['review'] });
    const done = await advanceFlow(opts, { sessionId: 'm' });
    expect(done.session).toMatchObject({ status: 'COMPLETED', then: ['develop-feature', 'review'] });
    expect(done.directive.command).toBe("ratchet flow start develop-feature --session m-develop-feature --input task='login page' --then review");
  });

  test('a next flow that does not exist, or is no flow name, is refused before anything is saved', async () => {
    const root = tmpProject();
    const dir = tmpProject();
    const opts = runner(root, CATALOGUE);
    const flow = await flowIn(dir, { id: 'mini', title: 'Mini', steps: [{ id: '0', title: 'A', content: 'a.md' }, { id: '1', title: 'B', content: 'b.md' }] });
    await expect(startFlow(opts, { flow, ref: flow.path, sessionId: 'm', then: ['deploy'] })).rejects.toMatchObject({ code: 'bad-input', reason: '--then deploy: no flow of that name (flows: develop-feature, reasoning, review)' });
    await startFlow(opts, { flow, ref: flow.path, sessionId: 'm' });
    const file = join(root, '.ratchet/flows/m.json');
    const before = readFileSync(file, 'utf8');
    await expect(advanceFlow(opts, { sessionId: 'm', then: ['Review; rm -rf /'] })).rejects.toMatchObject({ code: 'bad-input', reason: '--then "Review; rm -rf /": a flow name uses lowercase letters, digits and "-"' });
    await expect(advanceFlow(opts, { sessionId: 'm', then: ['deploy'] })).rejects.toMatchObject({ code: 'bad-input' });
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});
