import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, test } from 'vitest';
import { importGraph } from '../../../scripts/dev/import-graph.js';
import { generate } from '../scripts/generate.js';
import { JobFileSchema, LogFileSchema } from '../src/schema.js';
import {
  IllegalTransitionError,
  addTask,
  electPlanner,
  endPlannerRound,
  finishTask,
  legalMoves,
  lockTask,
  parseJob,
  parseLog,
  parseLogStrict,
  recordExit,
  serializeJob,
  setTaskStatus,
  triage,
  uuidv7,
  runnerId,
  type JobFile,
} from '../src/index.js';

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const ctx = { now: '2030-01-01T00:00:00.000Z' };
const emptyJob: JobFile = { frontMatter: { extra: {} }, goal: 'g', clarifications: [] };

describe('task state machine (fsm-core)', () => {
  test('legal moves are exactly the seed diagram', () => {
    expect(legalMoves('Pending').sort()).toEqual(['Cancelled', 'Locked']);
    expect(legalMoves('Locked').sort()).toEqual(['Completed', 'Failed', 'Pending']);
    expect(legalMoves('Failed').sort()).toEqual(['Cancelled', 'Pending']);
    expect(legalMoves('Completed')).toEqual([]);
    expect(legalMoves('Cancelled')).toEqual([]);
  });

  test('an illegal move is a typed error and the input is not mutated', () => {
    const log = parseLogStrict(fixture('seed.log.md'));
    const before = JSON.stringify(log);
    expect(() => setTaskStatus(log, '1.1', 'Cancelled', ctx)).toThrow(IllegalTransitionError);
    expect(() => finishTask(log, { id: '1.2', runner: 'r', job: 'j', outcome: 'Completed', summary: 's' }, ctx)).toThrow(/Pending -> Completed is not allowed/);
    expect(JSON.stringify(log)).toBe(before);
  });
});

describe('commits', () => {
  test('lock then complete: status, runner, one entry on top, progress over effective tasks, phase checked', () => {
    let log = parseLogStrict(fixture('seed.log.md'));
    log = lockTask(log, '1.2', 'r9', ctx);
    // A live lease: nobody else takes the task.
    expect(() => lockTask(log, '1.2', 'r8', ctx)).toThrow(/locked by r9 until 2030-01-01T00:10:00.000Z/);
    log = finishTask(log, { id: '1.2', runner: 'r9', job: 'Job_Name', outcome: 'Completed', summary: 'moved' }, ctx);
    expect(log.workLog[0]).toMatchObject({ number: 3, role: 'Runner', objective: 'Task 1.2. Move shared code to `packages/core`', result: 'Succeeded', time: ctx.now });
    expect(log.workLog).toHaveLength(3);
    expect(log.frontMatter.progress).toBe(1);
    expect(log.roadmap[0]!.checked).toBe(true);
    const exited = recordExit(log, { code: 0, reason: 'done', runner: 'r9', time: ctx.now }, ctx);
    expect(parseLogStrict(serializeLogSafe(exited)).frontMatter.exit).toEqual({ code: 0, reason: 'done', runner: 'r9', time: ctx.now });
  });

  test('a runner locks one task at a time; cancelled tasks leave progress; exit 0 is refused while work remains', () => {
    let log = parseLogStrict(fixture('seed.log.md'));
    log = addTask(log, { id: '1.3', title: 'Third', parent: '**Phase 1: Core Module Extraction**' }, ctx);
    log = lockTask(log, '1.2', 'r1', ctx);
    expect(() => lockTask(log, '1.3', 'r1', ctx)).toThrow(/already holds task 1.2/);
    log = setTaskStatus(log, '1.3', 'Cancelled', ctx);
    expect(log.frontMatter.progress).toBe(0.5);
    expect(() => recordExit(log, { code: 0, reason: 'x', runner: 'r', time: ctx.now }, ctx)).toThrow(/not Completed/);
    expect(() => addTask(log, { id: '1.3', title: 'dup' }, ctx)).toThrow(/already has/);
    expect(() => addTask(log, { id: '../x', title: 'bad' }, ctx)).toThrow(/must be numbers/);
    expect(() => addTask(log, { id: '9', title: 'two\nlines' }, ctx)).toThrow(/one line/);
  });
});

describe('triage (Protocol 0, in the seed order)', () => {
  const make = (roadmap: string, title = 'T') => parseLogStrict(`---\ntitle: "${title}"\nprogress: "0%"\n---\n\n## Roadmap\n\n${roadmap}\n\n## Work Log\n`);
  test('stale locks are released first, then failed tasks make a Planner', () => {
    const log = make('- [ ] 1. a\n  - status: Locked\n  - runner: gone\n- [ ] 2. b\n  - status: Failed');
    expect(triage({ log, job: emptyJob, runner: 'me', active: [] })).toMatchObject({ kind: 'role', role: 'Planner', step: 'failed-task', taskId: '2', staleLocks: ['1'] });
    expect(triage({ log, job: emptyJob, runner: 'me', active: ['gone'] }).staleLocks).toEqual([]);
  });
  test('a Pending entry with a recorded Blocker makes a Planner; a summary\'s wording never does', () => {
    const base = make('- [ ] 1. a\n  - status: Pending');
    const entry = (summary: string, blocker?: string) => ({ ...base, workLog: [{ number: 1, job: 'j', time: 't', role: 'Runner', objective: 'Task 1. a', result: 'Pending', summary, extra: '', ...(blocker !== undefined ? { blocker } : {}) }] });
    expect(triage({ log: entry('half done', 'which API version'), job: emptyJob, runner: 'me', active: [] })).toMatchObject({ role: 'Planner', step: 'pending-blocker' });
    // The keywords the old regex matched no longer turn a pause into a blocker, and their absence no longer hides one.
    expect(triage({ log: entry('Blocked: needs clarification of the API'), job: emptyJob, runner: 'me', active: [] })).toMatchObject({ role: 'Runner', taskId: '1' });
    expect(triage({ log: entry('quota exceeded, work in progress'), job: emptyJob, runner: 'me', active: [] })).toMatchObject({ role: 'Runner', taskId: '1' });
  });
  test('user reply, empty roadmap, placeholder title, selection, standby, done, dead end', () => {
    const job = parseJob(fixture('seed.job.md').replace(/- <!--.*-->/, '- yes')).value;
    expect(triage({ log: make('- [ ] 1. a\n  - status: Pending'), job, runner: 'me', active: [] })).toMatchObject({ step: 'user-reply', clarificationId: 'q1' });
    expect(triage({ log: make(''), job: emptyJob, runner: 'me', active: [] })).toMatchObject({ role: 'Planner', step: 'plan-alignment' });
    expect(triage({ log: make('- [ ] 1. a\n  - status: Pending', '_待定_'), job: emptyJob, runner: 'me', active: [] })).toMatchObject({ role: 'Planner', step: 'plan-alignment' });
    expect(triage({ log: make('- [ ] 1. a\n  - status: Pending\n  - dependsOn: 2\n- [ ] 2. b\n  - status: Pending'), job: emptyJob, runner: 'me', active: [] })).toMatchObject({ role: 'Runner', taskId: '2' });
    expect(triage({ log: make('- [ ] 1. a\n  - status: Locked\n  - runner: other'), job: emptyJob, runner: 'me', active: ['other'] })).toMatchObject({ kind: 'exit', code: 2 });
    expect(triage({ log: make('- [x] 1. a\n  - status: Completed\n- [ ] 2. b\n  - status: Cancelled'), job: emptyJob, runner: 'me', active: [] })).toMatchObject({ kind: 'exit', code: 0 });
    expect(triage({ log: make('- [ ] 1. a\n  - status: Pending\n  - dependsOn: 2\n- [ ] 2. b\n  - status: Pending\n  - dependsOn: 1'), job: emptyJob, runner: 'me', active: [] })).toMatchObject({ kind: 'exit', code: 1 });
    expect(triage({ log: make('- [ ] 1. a\n  - status: Pending\n  - dependsOn: 2\n- [ ] 2. b\n  - status: Cancelled'), job: emptyJob, runner: 'me', active: [] })).toMatchObject({ role: 'Planner', step: 'pending-blocker' });
  });
});

describe('triage: each step of the seed order wins over the later ones', () => {
  const entry = (summary: string) => ({ number: 1, job: 'j', time: 't', role: 'Runner', objective: 'Task 3. c', result: 'Pending', summary, extra: '', ...(summary.startsWith('blocked') ? { blocker: summary } : {}) });
  const roadmap = (failed: boolean) =>
    `- [ ] 1. a\n  - status: Locked\n  - runner: gone\n- [ ] 2. b\n  - status: ${failed ? 'Failed' : 'Completed'}\n- [ ] 3. c\n  - status: Pending\n- [ ] 4. d\n  - status: Pending`;
  const logWith = (failed: boolean, summary: string, title: string) => ({ ...parseLogStrict(`---\ntitle: "${title}"\n---\n\n## Roadmap\n\n${roadmap(failed)}\n\n## Work Log\n`), workLog: [entry(summary)] });
  const answered = parseJob(fixture('seed.job.md').replace(/- <!--.*-->/, '- yes')).value;
  const decide = (log: ReturnType<typeof logWith>, job: JobFile) => triage({ log, job, runner: 'me', active: [] });

  test('1 stale locks (always reported), 2 failed, 3 blocker, 4 user reply, 5 plan/goal alignment, 6 selection', () => {
    expect(decide(logWith(true, 'blocked: needs a decision', '_待定_'), answered)).toMatchObject({ step: 'failed-task', role: 'Planner', taskId: '2', staleLocks: ['1'] });
    expect(decide(logWith(false, 'blocked: needs a decision', '_待定_'), answered)).toMatchObject({ step: 'pending-blocker', role: 'Planner', taskId: '3', staleLocks: ['1'] });
    expect(decide(logWith(false, 'quota exceeded', '_待定_'), answered)).toMatchObject({ step: 'user-reply', role: 'Planner', clarificationId: 'q1', staleLocks: ['1'] });
    expect(decide(logWith(false, 'quota exceeded', '_待定_'), emptyJob)).toMatchObject({ step: 'plan-alignment', role: 'Planner', staleLocks: ['1'] });
    // the released stale lock makes task 1 the first Pending task again
    expect(decide(logWith(false, 'quota exceeded', 'Real title'), emptyJob)).toMatchObject({ step: 'task-selection', role: 'Runner', taskId: '1', staleLocks: ['1'] });
  });

  test('a Locked task whose runner is active is not stale (the original hard-coded an empty runner list)', () => {
    const log = logWith(false, 'quota exceeded', 'Real title');
    expect(triage({ log, job: emptyJob, runner: 'me', active: ['gone'] })).toMatchObject({ step: 'task-selection', taskId: '3', staleLocks: [] });
    // the runner itself always counts as active: it keeps (and is told to continue) its own task
    expect(triage({ log, job: emptyJob, runner: 'gone', active: [] })).toMatchObject({ role: 'Runner', taskId: '1', staleLocks: [] });
  });

  test('one planner at a time: the runner triage elected (recorded in the log) plans; the others stand by whatever their lists say', () => {
    const empty = parseLogStrict('---\ntitle: "t"\n---\n\n## Roadmap\n\n## Work Log\n');
    const t0 = Date.parse('2030-01-01T00:00:00.000Z');
    // Nobody elected yet: whoever reaches the Planner step first is the Planner, smaller ids listed or not.
    expect(triage({ log: empty, job: emptyJob, runner: 'job-0002', active: ['job-0001'], now: t0 })).toMatchObject({ kind: 'role', role: 'Planner' });
    const elected = electPlanner(empty, 'job-0002', { now: '2030-01-01T00:00:00.000Z', leaseMs: 60_000 });
    expect(elected.frontMatter.planner).toEqual({ runner: 'job-0002', leaseUntil: '2030-01-01T00:01:00.000Z', since: '2030-01-01T00:00:00.000Z' });
    const standby = triage({ log: elected, job: emptyJob, runner: 'job-0001', active: ['job-0002'], now: t0 + 1000 });
    expect(standby).toMatchObject({ kind: 'exit', code: 2 });
    expect(standby.kind === 'exit' && standby.reason).toContain('job-0002');
    expect(triage({ log: elected, job: emptyJob, runner: 'job-0002', active: [], now: t0 + 1000 })).toMatchObject({ kind: 'role', role: 'Planner' });
    expect(() => electPlanner(elected, 'job-0001', { now: '2030-01-01T00:00:30.000Z' })).toThrow(/job-0002 is the elected Planner/);
    // A round whose lease ran out elects again; one that ended (endPlannerRound) too.
    expect(triage({ log: elected, job: emptyJob, runner: 'job-0001', active: ['job-0002'], now: t0 + 60_000 })).toMatchObject({ kind: 'role', role: 'Planner' });
    expect(triage({ log: endPlannerRound(elected, 'job-0002'), job: emptyJob, runner: 'job-0001', active: [], now: t0 + 1000 })).toMatchObject({ kind: 'role', role: 'Planner' });
    expect(endPlannerRound(elected, 'someone-else')).toBe(elected);
    // Nor is a job over while another runner's round is live: its roadmap may be half written.
    const done = parseLogStrict('---\ntitle: "t"\n---\n\n## Roadmap\n\n- [x] 1. a\n  - status: Completed\n\n## Work Log\n');
    expect(triage({ log: done, job: emptyJob, runner: 'job-0001', active: [], now: t0 })).toMatchObject({ kind: 'exit', code: 0 });
    const planning = electPlanner(done, 'job-0002', { now: '2030-01-01T00:00:00.000Z', leaseMs: 60_000 });
    expect(triage({ log: planning, job: emptyJob, runner: 'job-0001', active: [], now: t0 + 1000 })).toMatchObject({ kind: 'exit', code: 2, reason: expect.stringContaining('job-0002 is planning') as string });
    expect(triage({ log: planning, job: emptyJob, runner: 'job-0002', active: [], now: t0 + 1000 })).toMatchObject({ kind: 'exit', code: 0 });
    // a runner busy with a Locked task continues it
    const busy = parseLogStrict('---\ntitle: "t"\n---\n\n## Roadmap\n\n- [ ] 1. a\n  - status: Locked\n  - runner: job-0001\n- [ ] 2. b\n  - status: Failed\n\n## Work Log\n');
    expect(triage({ log: busy, job: emptyJob, runner: 'job-0002', active: ['job-0001'] })).toMatchObject({ kind: 'role', role: 'Planner', step: 'failed-task' });
    expect(triage({ log: busy, job: emptyJob, runner: 'job-0001', active: ['job-0002'] })).toMatchObject({ kind: 'role', role: 'Runner', taskId: '1' });
  });
});

describe('triage assigns work per runner (parallel runners)', () => {
  const plan = (body: string, title = 't') => parseLogStrict(`---\ntitle: "${title}"\n---\n\n## Roadmap\n\n${body}\n\n## Work Log\n`);
  const four = plan('- [ ] 1. a\n  - status: Pending\n- [ ] 2. b\n  - status: Pending\n  - dependsOn: 1\n- [ ] 3. c\n  - status: Pending\n- [ ] 4. d\n  - status: Pending');
  const runners = ['job-01', 'job-02', 'job-03', 'job-04'];
  const ask = (log: ReturnType<typeof plan>, runner: string, claiming = false) => triage({ log, job: emptyJob, runner, active: runners.filter((r) => r !== runner), claiming });

  test('idle runners triaging the same log are told distinct tasks, never one whose dependencies are not Completed', () => {
    const told = runners.map((r) => ask(four, r));
    // 3 executable tasks (2 waits on 1) for 4 idle runners: the earliest three get one each, the last stands by
    expect(told.slice(0, 3).map((d) => (d.kind === 'role' ? d.taskId : d.code))).toEqual(['1', '3', '4']);
    expect(told[3]).toMatchObject({ kind: 'exit', code: 2 });
    // the answers stay consistent while runners lock in any order: after job-03 locks 3, the others keep theirs
    const after = lockTask(four, '3', 'job-03', ctx);
    expect(['job-01', 'job-02', 'job-04'].map((r) => { const d = ask(after, r); return d.kind === 'role' ? d.taskId : d.code; })).toEqual(['1', '4', 2]);
    // a runner holding a task is told that task, whatever else is ready
    expect(ask(after, 'job-03')).toMatchObject({ role: 'Runner', taskId: '3' });
  });

  test('claiming (the caller locks in the same write): one after another, every claim is a new executable task', () => {
    let log = four;
    const claimed: string[] = [];
    for (const r of runners) {
      const d = ask(log, r, true);
      if (d.kind !== 'role') break;
      claimed.push(d.taskId!);
      log = lockTask(log, d.taskId!, r, ctx);
    }
    expect(claimed).toEqual(['1', '3', '4']);
    expect(ask(log, 'job-05', true)).toMatchObject({ kind: 'exit', code: 2 });
    expect(new Set(claimed).size).toBe(claimed.length);
  });

  test('a Planner round does not stop runners that have work: the elected one plans, the others take executable tasks', () => {
    // task 5 failed (a Planner step), task 4 is blocked on a Planner: neither is executable
    const base = plan('- [ ] 1. a\n  - status: Pending\n- [ ] 3. c\n  - status: Pending\n- [ ] 4. d\n  - status: Pending\n- [ ] 5. e\n  - status: Failed');
    const log = electPlanner({ ...base, workLog: [{ number: 1, job: 'j', time: 't', role: 'Runner', objective: 'Task 4. d', result: 'Pending', summary: 's', blocker: 'which API', extra: '' }] }, 'job-01', { now: new Date().toISOString() });
    const told = runners.map((r) => ask(log, r));
    expect(told[0]).toMatchObject({ kind: 'role', role: 'Planner', step: 'failed-task', taskId: '5' });
    expect(told[1]).toMatchObject({ kind: 'role', role: 'Runner', taskId: '1' });
    expect(told[2]).toMatchObject({ kind: 'role', role: 'Runner', taskId: '3' });
    // nothing executable left for the fourth: it stands by, naming the planner
    expect(told[3]).toMatchObject({ kind: 'exit', code: 2 });
    expect(told[3]!.kind === 'exit' && told[3]!.reason).toContain('job-01');
  });

  test('task lock by the runner that already holds that task (the outer loop assigned it) succeeds and changes nothing', () => {
    const locked = lockTask(four, '1', 'job-01', ctx);
    expect(lockTask(locked, '1', 'job-01', { now: 'later' })).toBe(locked);
    expect(() => lockTask(locked, '3', 'job-01', ctx)).toThrow(/already holds task 1/);
    expect(() => lockTask(locked, '1', 'job-02', ctx)).toThrow();
  });
});

describe('job files', () => {
  test('the seed template block round-trips; a block inside a code fence is not a block', () => {
    const text = fixture('seed.job.md');
    const { value, diagnostics } = parseJob(text);
    expect(diagnostics).toEqual([]);
    expect(serializeJob(value)).toBe(text);
    const fenced = parseJob('Goal.\n\n```\n### JIXO: CLARIFICATION REQUEST\n**ID**: no\n```\n');
    expect(fenced.value.clarifications).toEqual([]);
    expect(fenced.value.goal).toContain('**ID**: no');
  });
  test('hostile nesting is refused at its line instead of swallowing the rest of the file', () => {
    const deep = Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}- x`).join('\n');
    expect(parseJob(`---\nname: a\n---\n\nGoal\n\n${deep}\n`).diagnostics).toMatchObject([{ rule: 'nesting-too-deep', line: 106 }]);
    const log = `---\ntitle: t\n---\n\n## Roadmap\n\n${Array.from({ length: 150 }, (_, i) => `${'  '.repeat(i)}- [ ] ${i}. x`).join('\n')}\n\n## Work Log\n`;
    expect(parseLog(log).diagnostics.filter((d) => d.severity === 'error').map((d) => d.rule)).toEqual(['nesting-too-deep', 'missing-section']);
  });

  test('missing ID and duplicate IDs are errors with lines; bad names are refused', () => {
    expect(parseJob('G\n\n---\n### JIXO: CLARIFICATION REQUEST\n**Question**:\n- q\n---\n').diagnostics[0]).toMatchObject({ rule: 'missing-clarification-id', line: 4 });
    const block = '\n---\n### JIXO: CLARIFICATION REQUEST\n**ID**: a\n**Question**:\n- q\n---\n';
    expect(parseJob(`G\n${block}${block}`).diagnostics.map((d) => d.rule)).toEqual(['duplicate-clarification-id']);
    expect(parseJob('---\nname: ../../etc\n---\nG\n').diagnostics[0]).toMatchObject({ rule: 'bad-job-name', line: 2 });
    expect(parseJob('---\nmodel: m\n\nuseLog: ../x\n---\nG\n').diagnostics[0]).toMatchObject({ rule: 'bad-job-name', line: 4 });
    // text the block's template has no place for is refused at its line, never dropped on a rewrite
    expect(parseJob('G\n\n---\n### JIXO: CLARIFICATION REQUEST\nPlease hurry.\n**ID**: a\n---\n').diagnostics).toMatchObject([{ rule: 'unknown-clarification-text', line: 5 }]);
    expect(parseJob('G\n\n---\n### JIXO: CLARIFICATION REQUEST\n**ID**: a\n**Question**:\n- q1\n**Question**:\n- q2\n---\n').diagnostics).toMatchObject([{ rule: 'duplicate-field', line: 8 }]);
  });
});

const jobWord = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 _`*.,:()/?-]{0,20}[A-Za-z0-9`)?]$/);
const jobLines = fc.array(fc.oneof(jobWord, fc.constant('')), { minLength: 1, maxLength: 4 }).map((ls) => ls.join('\n').replace(/^\n+|\n+$/g, '').replace(/\n{3,}/g, '\n\n'));
const jobArb: fc.Arbitrary<JobFile> = fc
  .record({
    name: fc.option(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,12}$/), { nil: undefined }),
    dirs: fc.option(fc.array(jobWord, { maxLength: 2 }), { nil: undefined }),
    agents: fc.option(fc.array(jobWord, { maxLength: 2 }), { nil: undefined }),
    model: fc.option(jobWord, { nil: undefined }),
    useLog: fc.option(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), { nil: undefined }),
    extra: fc.constantFrom<Record<string, unknown>>({}, { priority: 1, tags: ['a', 'b'] }),
    goal: fc.array(jobLines, { maxLength: 3 }).map((ps) => ps.filter((p) => p !== '').join('\n\n')),
    clarifications: fc.uniqueArray(fc.record({ id: fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), toUser: fc.oneof(fc.constant('To provide a more accurate result, I need clarification. I have proceeded with a default plan, but you can provide more detail below.'), jobWord), question: jobLines.filter((q) => q !== ''), response: fc.oneof(fc.constant(''), jobLines) }), { selector: (c) => c.id, maxLength: 3 }),
  })
  .map(({ name, dirs, agents, model, useLog, extra, goal, clarifications }): JobFile => ({
    frontMatter: { ...(name !== undefined ? { name } : {}), ...(dirs !== undefined ? { dirs } : {}), ...(agents !== undefined ? { agents } : {}), ...(model !== undefined ? { model } : {}), ...(useLog !== undefined ? { useLog } : {}), extra },
    goal,
    clarifications: clarifications.map((c) => ({ ...c, answered: c.response !== '' })),
  }));

describe('job file properties', () => {
  test('parse(serialise(x)) equals x, and serialise(parse(text)) is the same bytes', () => {
    fc.assert(
      fc.property(jobArb, (job) => {
        const text = serializeJob(job);
        const { value, diagnostics } = parseJob(text);
        expect(diagnostics, text).toEqual([]);
        expect(value).toEqual(job);
        expect(serializeJob(value)).toBe(text);
        // a second CommonMark parser sees the same request headings in what we write
        const body = text.startsWith('---\n') ? text.slice(text.indexOf('\n---\n') + 5) : text;
        const headings = fromMarkdown(body).children.filter((n) => n.type === 'heading' && n.depth === 3).length;
        expect(headings).toBe(job.clarifications.length);
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  test('answering a request (editing only its Response) is detected, and nothing else moves', () => {
    fc.assert(
      fc.property(jobArb.filter((j) => j.clarifications.some((c) => !c.answered)), jobWord, (job, answer) => {
        const text = serializeJob(job);
        const at = job.clarifications.findIndex((c) => !c.answered);
        let seen = -1;
        const edited = text.replace(/- <!-- Please fill in your answer here\. after finished answer, remove this comment block\. -->/g, (m) => (++seen === at - job.clarifications.slice(0, at).filter((c) => c.answered).length ? `- ${answer}` : m));
        const { value } = parseJob(edited);
        expect(value.clarifications[at]).toMatchObject({ answered: true, response: answer });
        expect(value.goal).toBe(job.goal);
        expect(value.clarifications.filter((_, i) => i !== at)).toEqual(job.clarifications.filter((_, i) => i !== at));
      }),
      { numRuns: 100 },
    );
  }, 60_000);
});

describe('schemas and ids', () => {
  test('schemas and the system prompt module are up to date', () => {
    for (const { path, text } of generate()) expect(readFileSync(path, 'utf8'), `stale ${path}: run \`pnpm --filter @ratchet/jixo-log generate\``).toBe(text);
  });
  test('parsed forms match the schemas', () => {
    expect(LogFileSchema.safeParse(parseLogStrict(fixture('rich.log.md'))).success).toBe(true);
    expect(JobFileSchema.safeParse(parseJob(fixture('seed.job.md')).value).success).toBe(true);
  });
  test('runner ids are {job}-{uuidv7}-{loop:03}', () => {
    expect(runnerId('docs', 7, () => 0x0123456789ab)).toMatch(/^docs-01234567-89ab-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-007$/);
    expect(uuidv7(1) < uuidv7(2)).toBe(true);
  });
  test('the main entry never loads zod', () => {
    const src = fileURLToPath(new URL('../src/', import.meta.url));
    const graph = importGraph(join(src, 'index.ts'));
    expect([...graph.staticImports, ...graph.lazyImports].filter((s) => s.includes('zod'))).toEqual([]);
  });
});

import { serializeLog } from '../src/index.js';
function serializeLogSafe(log: Parameters<typeof serializeLog>[0]): string {
  return serializeLog(log);
}
