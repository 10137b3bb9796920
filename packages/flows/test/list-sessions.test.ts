/**
 * One broken session file does not hide the others: `surveySessions` lists every readable session
 * and reports each unreadable one (tampered, malformed) with its file and place. The shortcut this
 * guards against: an agent that edits one session by hand takes every other session out of view.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { listSessions, startFlow, surveySessions } from '../src/index.js';
import { flowIn, runner, tmpProject } from './support.js';

describe('listing sessions', () => {
  test('a tampered session and a malformed one are reported with their place; the others are listed', async () => {
    const root = tmpProject();
    const dir = tmpProject();
    const flow = await flowIn(dir, { id: 'mini', title: 'Mini', steps: [{ id: '0', title: 'A', content: 'a.md' }] });
    const opts = runner(root);
    for (const id of ['a', 'b', 'c', 'd']) await startFlow(opts, { flow, ref: flow.path, sessionId: id });
    const b = join(root, '.ratchet/flows/b.json');
    writeFileSync(b, readFileSync(b, 'utf8').replace('"normal"', '"agent"'));
    writeFileSync(join(root, '.ratchet/flows/c.json'), '{\n  "sessionId": "c",\n  oops\n}\n');
    const survey = await surveySessions(root);
    expect(survey.sessions.map((s) => s.sessionId)).toEqual(['a', 'd']);
    expect(survey.unreadable.map((u) => [u.sessionId, u.code])).toEqual([
      ['b', 'tampered'],
      ['c', 'parse-error'],
    ]);
    expect(survey.unreadable[0]).toMatchObject({ file: b, reason: expect.stringContaining('changed outside Ratchet') as string });
    expect(survey.unreadable[1]).toMatchObject({ line: 3, column: 3 });
    // The strict listing still refuses to guess: it throws on the first unreadable one.
    await expect(listSessions(root)).rejects.toMatchObject({ code: 'tampered', path: b });
  });

  test('files that are no session ids are skipped, no sessions at all is an empty survey', async () => {
    const root = tmpProject();
    expect(await surveySessions(root)).toEqual({ sessions: [], unreadable: [] });
    const flow = await flowIn(tmpProject(), { id: 'm', title: 'M', steps: [{ id: '0', title: 'A', content: 'a.md' }] });
    await startFlow(runner(root), { flow, ref: flow.path, sessionId: 'x' });
    writeFileSync(join(root, '.ratchet/flows/-bad name.json'), 'whatever');
    expect((await surveySessions(root)).sessions.map((s) => s.sessionId)).toEqual(['x']);
  });
});
