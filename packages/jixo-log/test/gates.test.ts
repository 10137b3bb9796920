/** Issue 15: the shortcuts an agent would take through the library are refused. */
import { describe, expect, test } from 'vitest';
import { addClarification, addTask, auditLog, electPlanner, errorExitRefusal, exitRefusal, finishTask, setTaskStatus, jobLanguage, lockTask, parseLog, parseLogStrict, removeItem, renameItem, serializeLog, setDependsOn, triage, unblockTask, type JobFile } from '../src/index.js';

const ctx = { now: '2030-01-01T00:00:00.000Z' };
const job: JobFile = { frontMatter: { extra: {} }, goal: 'Write docs.', clarifications: [] };
const LOG = '---\ntitle: "Docs"\n---\n\n## Roadmap\n\n- [ ] 1. a\n  - status: Pending\n- [ ] 2. b\n  - status: Pending\n\n## Work Log\n';

describe('auditLog: a change judged against the last good version', () => {
  const base = parseLogStrict(LOG);
  const done = finishTask(lockTask(base, '1', 'r1', ctx), { id: '1', runner: 'r1', job: 'j', outcome: 'Completed', summary: 'ok' }, ctx);
  const honest = serializeLog(done);
  const audit = (text: string, baseline = done, options: { holder?: string; userActs?: boolean } = {}) => auditLog(parseLogStrict(text), text, { baseline, now: Date.parse(ctx.now), ...options });

  test('a log seen for the first time (no baseline) is taken as it is, whatever its statuses', () => {
    const handSet = LOG.replace('- [ ] 2. b\n  - status: Pending', '- [x] 2. b\n  - status: Completed');
    expect(auditLog(parseLogStrict(handSet), handSet)).toEqual([]);
  });

  test('what Ratchet wrote is clean; a status ticked off by hand is an error at its line, with or without a forged entry', () => {
    expect(audit(honest)).toEqual([]);
    const forged = honest.replace('- [ ] 2. b\n  - status: Pending', '- [x] 2. b\n  - status: Completed');
    expect(audit(forged)).toEqual([expect.objectContaining({ rule: 'status-without-entry', line: forged.split('\n').indexOf('- [x] 2. b') + 1 })]);
    const withEntry = forged.replace('## Work Log\n', '## Work Log\n\n### Log 9 @j (2030-01-01T00:00:00.000Z)\n\n- **Role**: Runner\n- **Objective**: Task 2. b\n- **Result**: Succeeded\n- **Summary**: forged\n');
    expect(audit(withEntry).map((d) => d.rule).sort()).toEqual(['entry-without-transition', 'status-without-entry']);
  });

  test('entries are never edited or removed; the exit and the elected Planner are not written by hand', () => {
    expect(audit(honest.replace('- **Summary**: ok', '- **Summary**: better'))).toEqual([expect.objectContaining({ rule: 'entry-edited' })]);
    expect(audit(honest.replace('progress: "50%"\n', 'progress: "50%"\nexit: {"code":0,"reason":"done","runner":"x","time":"2030-01-01T00:00:00.000Z"}\n')).map((d) => d.rule)).toContain('state-edited');
  });

  test('under the lock, the holder\'s own moves pass as the commands would make them; others\' and the Planner\'s do not', () => {
    const locked = serializeLog(lockTask(done, '2', 'r2', ctx));
    const lockedLog = parseLogStrict(locked);
    const finished = serializeLog(finishTask(lockedLog, { id: '2', runner: 'r2', job: 'j', outcome: 'Completed', summary: 'by hand, with its entry' }, ctx));
    expect(audit(finished, lockedLog, { holder: 'r2' })).toEqual([]);
    // Without its entry, or by another runner, or a cancel by a runner that is not the Planner:
    const bare = locked.replace('- [ ] 2. b\n  - status: Locked', '- [x] 2. b\n  - status: Completed').replace(/\n {2}- leaseUntil: \S+/, '');
    expect(audit(bare, lockedLog, { holder: 'r2' }).map((d) => d.rule)).toEqual(['status-without-entry']);
    expect(audit(finished, lockedLog, { holder: 'r3' }).map((d) => d.rule)).toContain('wrong-runner');
    const cancelled = serializeLog(setTaskStatus(done, '2', 'Cancelled', { ...ctx, runner: 'r2', summary: 'x' }));
    expect(audit(cancelled, done, { holder: 'r2' }).map((d) => d.rule)).toEqual(['not-planner']);
    expect(audit(cancelled, done, { holder: 'r2', userActs: true })).toEqual([]);
    const elected = electPlanner(done, 'p', { now: ctx.now, leaseMs: 60_000 });
    const cancelledByP = serializeLog(setTaskStatus(elected, '2', 'Cancelled', { ...ctx, runner: 'p', summary: 'x' }));
    expect(audit(cancelledByP, elected, { holder: 'p' })).toEqual([]);
    // A plan change by a runner that is not the Planner (a task added):
    const added = serializeLog(addTask(done, { id: '3', title: 'c' }, ctx));
    expect(audit(added, done, { holder: 'r2' }).map((d) => d.rule)).toEqual(['not-planner']);
    expect(audit(added, done)).toEqual([]);
  });
});

describe('exit code 1 and blockers', () => {
  test('errorExitRefusal: refused for the Runner of a task and for a Planner nobody elected, allowed for the elected Planner', () => {
    expect(errorExitRefusal({ log: parseLogStrict(LOG), job, runner: 'r1', active: [] })).toMatch(/only the elected Planner/);
    const failed = finishTask(lockTask(parseLogStrict(LOG), '1', 'r1', ctx), { id: '1', runner: 'r1', job: 'j', outcome: 'Failed', summary: 'x' }, ctx);
    const now = Date.parse(ctx.now);
    expect(errorExitRefusal({ log: failed, job, runner: 'p', active: [], now })).toMatch(/not the elected Planner/);
    expect(errorExitRefusal({ log: electPlanner(failed, 'p', ctx), job, runner: 'p', active: [], now })).toBeUndefined();
  });
  test('exitRefusal: code 0 only when Protocol 0 decides it; code 2 always', () => {
    expect(exitRefusal({ log: parseLogStrict(LOG), job, runner: 'r1', active: [] }, 0)).toMatch(/exit code 0 ends the job/);
    expect(exitRefusal({ log: parseLogStrict(LOG), job, runner: 'r1', active: [] }, 2)).toBeUndefined();
    const all = finishTask(lockTask(setTaskStatus(parseLogStrict(LOG), '2', 'Cancelled', ctx), '1', 'r1', ctx), { id: '1', runner: 'r1', job: 'j', outcome: 'Completed', summary: 'x' }, ctx);
    expect(exitRefusal({ log: all, job, runner: 'r1', active: [] }, 0)).toBeUndefined();
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
