/** Issue 15: the shortcuts an agent would take through the library are refused. */
import { describe, expect, test } from 'vitest';
import { addClarification, addTask, auditLog, errorExitRefusal, finishTask, jobLanguage, lockTask, parseLog, parseLogStrict, removeItem, renameItem, serializeLog, setDependsOn, triage, unblockTask, type JobFile } from '../src/index.js';

const ctx = { now: '2030-01-01T00:00:00.000Z' };
const job: JobFile = { frontMatter: { extra: {} }, goal: 'Write docs.', clarifications: [] };
const LOG = '---\ntitle: "Docs"\n---\n\n## Roadmap\n\n- [ ] 1. a\n  - status: Pending\n- [ ] 2. b\n  - status: Pending\n\n## Work Log\n';

describe('auditLog', () => {
  test('a status changed by hand (no entry) is an error at the task line; one changed by finishTask is not', () => {
    const honest = serializeLog(finishTask(lockTask(parseLogStrict(LOG), '1', 'r1', ctx), { id: '1', runner: 'r1', job: 'j', outcome: 'Completed', summary: 'ok' }, ctx));
    expect(auditLog(parseLogStrict(honest), honest)).toEqual([]);
    const forged = honest.replace('- [ ] 2. b\n  - status: Pending', '- [ ] 2. b\n  - status: Failed');
    expect(auditLog(parseLogStrict(forged), forged)).toEqual([expect.objectContaining({ rule: 'status-without-entry', line: forged.split('\n').indexOf('- [ ] 2. b') + 1 })]);
  });
  test('an entry with another Result does not back the status (a Pending entry cannot make a task Completed)', () => {
    const paused = finishTask(lockTask(parseLogStrict(LOG), '1', 'r1', ctx), { id: '1', runner: 'r1', job: 'j', outcome: 'Pending', summary: 'later' }, ctx);
    const forged = serializeLog(paused).replace('- [ ] 1. a\n  - status: Pending', '- [x] 1. a\n  - status: Completed');
    expect(auditLog(parseLogStrict(forged), forged)).toHaveLength(1);
  });
});

describe('exit code 1 and blockers', () => {
  test('errorExitRefusal: refused for the Runner of a task, allowed for the Planner', () => {
    expect(errorExitRefusal({ log: parseLogStrict(LOG), job, runner: 'r1', active: [] })).toMatch(/only a Planner/);
    const failed = finishTask(lockTask(parseLogStrict(LOG), '1', 'r1', ctx), { id: '1', runner: 'r1', job: 'j', outcome: 'Failed', summary: 'x' }, ctx);
    expect(errorExitRefusal({ log: failed, job, runner: 'p', active: [] })).toBeUndefined();
  });
  test('the Blocker field round-trips, and unblock needs one', () => {
    const locked = lockTask(parseLogStrict(LOG), '1', 'r1', ctx);
    const blocked = finishTask(locked, { id: '1', runner: 'r1', job: 'j', outcome: 'Pending', summary: 'half', blocker: 'which API' }, ctx);
    const back = parseLogStrict(serializeLog(blocked));
    expect(back.workLog[0]).toMatchObject({ runner: 'r1', blocker: 'which API' });
    expect(triage({ log: back, job, runner: 'p', active: [] })).toMatchObject({ step: 'pending-blocker' });
    const cleared = unblockTask(back, '1', { job: 'j', summary: 'v2' }, ctx);
    expect(triage({ log: cleared, job, runner: 'p', active: [] })).toMatchObject({ role: 'Runner', taskId: '1' });
    expect(() => unblockTask(cleared, '1', { job: 'j', summary: 'again' }, ctx)).toThrow(/no blocker/);
    expect(() => finishTask(locked, { id: '1', runner: 'r1', job: 'j', outcome: 'Completed', summary: 'x', blocker: 'y' }, ctx)).toThrow(/only on a Pending/);
  });
});

describe('Planner roadmap edits', () => {
  test('a phase added empty is read back as a phase, not as a Pending task', () => {
    const text = serializeLog(addTask(parseLogStrict(LOG), { id: '3', title: 'Later', phase: true }, ctx));
    const { value, diagnostics } = parseLog(text);
    expect(diagnostics.filter((d) => d.rule === 'missing-status')).toEqual([]);
    expect(value.roadmap[2]!.id).toBe('3');
    expect(value.roadmap[2]!.status).toBeUndefined();
    expect(renameItem(value, '3', 'Much later', ctx).roadmap[2]!.text).toBe('3. **Much later**');
  });
  test('depends refuses cycles and unknown tasks; remove refuses tasks with history or dependents', () => {
    const log = setDependsOn(parseLogStrict(LOG), '2', ['1'], ctx);
    expect(() => setDependsOn(log, '1', ['2'], ctx)).toThrow(/cycle/);
    expect(() => setDependsOn(log, '1', ['9'], ctx)).toThrow(/no task "9"/);
    expect(() => removeItem(log, '1', ctx)).toThrow(/depend on 1/);
    const paused = finishTask(lockTask(log, '1', 'r', ctx), { id: '1', runner: 'r', job: 'j', outcome: 'Pending', summary: 's' }, ctx);
    expect(() => removeItem(setDependsOn(paused, '2', [], ctx), '1', ctx)).toThrow(/Work Log entries/);
    expect(removeItem(log, '2', ctx).roadmap.map((i) => i.id)).toEqual(['1']);
  });
});

describe('clarification language', () => {
  test('the introduction follows the job\'s predominant language', () => {
    expect(jobLanguage('为项目写中文文档，包括 README 和 API。')).toBe('zh');
    expect(jobLanguage('プロジェクトのドキュメントを書く')).toBe('ja');
    expect(jobLanguage('Write the docs for the project.')).toBe('en');
    expect(jobLanguage('Напишите документацию')).toBe('ru');
    expect(addClarification({ ...job, goal: '写文档' }, { id: 'q', question: '?' }).clarifications[0]!.toUser).toMatch(/^为了/);
  });
});
