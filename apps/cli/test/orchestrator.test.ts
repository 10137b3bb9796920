import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActivityEntrySchema, OrientationReportSchema } from '@ratchet/orchestrator/schema';
import { addLessons, readLessons } from '@ratchet/self-correction';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ratchet-task-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Result {
  code: number;
  out: string;
  err: string;
}
async function ratchet(...argv: string[]): Promise<Result> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: { PATH: '/usr/bin', HOME: '/home/x' }, cwd: dir, readStdin: () => Promise.resolve('') };
  const code = await run(argv, io);
  return { code, out, err };
}
async function json<T = Record<string, unknown>>(...argv: string[]): Promise<T & { code: number }> {
  const r = await ratchet('--json', ...argv);
  return { ...(JSON.parse(r.out) as T), code: r.code };
}
const write = async (rel: string, text: string): Promise<void> => {
  await mkdir(join(dir, rel, '..'), { recursive: true });
  await writeFile(join(dir, rel), text);
};
const activity = async (): Promise<{ action: { type: string; details?: Record<string, unknown> }; outcome: { status: string }; session_id: string; task: { plan_step: number | null } }[]> =>
  (await readFile(join(dir, 'logs/activity.log.jsonl'), 'utf8'))
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as never);
const start = (): Promise<Result> => ratchet('task', 'start', '--task-id', 'T-1', '--no-network');
/** The post-mortem template with every section written and one lesson (a manual one unless `lesson` says otherwise). */
const filled = (pm: string, lesson = '**Lesson:** The greeting needed a test first.\n**Action:** ask the team whether tests come first'): string =>
  pm
    .replace('<!-- What was the task?', 'The greeting was added.\n<!--')
    .replace('<!-- Facts first', 'It went to plan.\n<!--')
    .replace('<!--\nWrite each lesson', `${lesson}\n\n<!--\nWrite each lesson`)
    .replace('<!-- Open questions', 'None.\n<!--');

let edits = 0;
/** Do a write step on disk, as an agent would before `run done` (each write a real change). */
const doStep = async (line: string | undefined): Promise<void> => {
  const written = line === undefined ? null : /^(?:create_file_with_block|overwrite_file_with_block|replace_with_git_merge_diff) (\S+)$/.exec(line);
  if (written) await write(written[1]!, `// written by step ${++edits}\n`);
};

const MAIN = 'set_plan greet\nplan_step_complete start\noverwrite_file_with_block src/greet.ts\ncall_plan verify\nrun_in_bash_session close\n';
// A sub-plan is a whole plan in the same language: validated from the start state, closed at its end.
const VERIFY = 'set_plan verify\nplan_step_complete verify\nread_file src/greet.ts\nrun_in_bash_session close\n';

describe('task start: the orientation cascade', () => {
  test('L1 missing: exit 2 naming knowledge_core/agent_meta.json, task in ERROR, TASK_START FAILURE logged', async () => {
    const r = await start();
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^knowledge_core\/agent_meta\.json: knowledge_core\/agent_meta\.json is missing/m);
    expect((await json('run', 'status')).session).toMatchObject({ state: 'ERROR', taskId: 'T-1' });
    expect((await activity()).map((e) => [e.action.type, e.outcome.status])).toEqual([['TASK_START', 'FAILURE']]);
  });

  test('L1 invalid: file:line:col; fixing the file and starting again re-orients into PLANNING', async () => {
    await write('knowledge_core/agent_meta.json', '{\n  "name": 42\n}\n');
    const r = await start();
    expect(r.code).toBe(2);
    expect(r.err).toContain('knowledge_core/agent_meta.json:2:11:');
    await write('knowledge_core/agent_meta.json', '{"name": "jules"}');
    const again = await start();
    expect(again.code).toBe(0);
    expect(again.out).toContain('L1 agent        jules');
    const status = await json<{ session: { history: { trigger: string }[]; state: string } }>('run', 'status');
    expect(status.session.state).toBe('PLANNING');
    expect(status.session.history.map((h) => h.trigger)).toEqual(['begin_task', 'orientation_failed', 'reorient', 'orientation_complete']);
  });

  test('writes the orientation report and logs TASK_START with a session id', async () => {
    await ratchet('init');
    await write('knowledge_core/lessons.jsonl', '{"a":1}\n');
    const r = await json<{ orientation: { level2: { artifacts: { path: string }[] }; level3: { network: { skipped: boolean }; filesystem: { ok: boolean } } }; state: string; sessionId: string }>(
      'task',
      'start',
      '--task-id',
      'T-1',
      '--no-network',
    );
    expect(r.code).toBe(0);
    expect(r.state).toBe('PLANNING');
    expect(r.orientation.level2.artifacts.map((a) => a.path)).toEqual(['knowledge_core/agent_meta.json', 'knowledge_core/lessons.jsonl']);
    expect(r.orientation.level3).toMatchObject({ network: { skipped: true }, filesystem: { ok: true } });
    const report = JSON.parse(await readFile(join(dir, '.ratchet/orientation.json'), 'utf8')) as { taskId: string; $schema: string; schemaVersion: number; sessionId: string };
    expect(report).toMatchObject({ taskId: 'T-1', sessionId: r.sessionId, schemaVersion: 1, $schema: 'https://unpkg.com/@ratchet/orchestrator/schemas/orientation-report.schema.json' });
    const valid = OrientationReportSchema.safeParse(report);
    expect(valid.success, JSON.stringify(valid.error?.issues)).toBe(true);
    const log = await activity();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ action: { type: 'TASK_START' }, outcome: { status: 'SUCCESS' }, session_id: r.sessionId });
  });

  test('L2 reviews what the last task left: its post-mortem, pending and manual lessons, open code suggestions; and says when there is none', { timeout: 60_000 }, async () => {
    await ratchet('init');
    await write('src/greet.ts', 'export const greeting = 1;\n');
    await write('plans/short.txt', 'set_plan x\nplan_step_complete go\nrun_in_bash_session close\n');
    // Nothing left by earlier tasks: each part says so outright.
    const first = await start();
    expect(first.out).toContain('  L2 post-mortem  none (no postmortems/*.md)\n  L2 lessons      none pending or manual\n  L2 suggestions  none open\n');
    const none = JSON.parse(await readFile(join(dir, '.ratchet/orientation.json'), 'utf8')) as { level2: { review: unknown } };
    expect(none.level2.review).toEqual({ lastPostMortem: null, pendingLessons: [], manualLessons: [], openSuggestions: [], errors: [] });

    // T-1 runs to DONE, leaving a manual lesson and a code suggestion whose change is not made yet.
    expect((await ratchet('run', 'plan', 'plans/short.txt')).code).toBe(0);
    for (let i = 0; i < 3; i++) expect((await ratchet('run', 'done')).code).toBe(0);
    expect((await ratchet('task', 'close', '--task-id', 'T-1')).code).toBe(0);
    const pm = await readFile(join(dir, 'postmortems/T-1.md'), 'utf8');
    const code = "**Lesson:** The greeting was a number.\n**Action:** propose code change to 'src/greet.ts'\n```diff\n--- a/src/greet.ts\n+++ b/src/greet.ts\n@@ -1 +1 @@\n-export const greeting = 1;\n+export const greeting = 'hello';\n```";
    await writeFile(join(dir, 'postmortems/T-1.md'), filled(pm, `**Lesson:** The greeting needed a test first.\n**Action:** ask the team whether tests come first\n\n${code}`));
    expect((await ratchet('lessons', 'extract', 'postmortems/T-1.md')).code).toBe(0);
    expect((await ratchet('lessons', 'apply')).code).toBe(0);
    expect((await ratchet('task', 'submit', '--task-id', 'T-1')).code).toBe(0);
    // A lesson another task extracted and nobody applied yet (added through the store: lessons.jsonl is tracked state).
    const lessons = (await readLessons(join(dir, 'knowledge_core/lessons.jsonl'))).lessons;
    const manual = lessons.find((l) => l.status === 'manual')!;
    const suggested = lessons.find((l) => l.action.command === 'propose-code-change')!;
    await addLessons(join(dir, 'knowledge_core/lessons.jsonl'), [{ ...manual, lesson_id: 'lesson-later', status: 'pending', action: { type: 'UPDATE_PROTOCOL', command: 'add-tool', parameters: { protocol_id: 'fdc', tool: 'ratchet run status' } } }]);

    const next = await ratchet('task', 'start', '--task-id', 'T-2', '--no-network');
    expect(next.code).toBe(0);
    expect(next.out).toContain('  L2 post-mortem  postmortems/T-1.md (success): The greeting was added.\n');
    expect(next.out).toContain(`  L2 lessons      1 pending (lesson-later): run \`ratchet lessons apply\`; 1 manual (${manual.lesson_id}): for a person, \`ratchet lessons resolve\`\n`);
    expect(next.out).toContain(`  L2 suggestions  1 open: knowledge_core/suggestions/${suggested.lesson_id}.plan (changes src/greet.ts)\n`);
    const report = JSON.parse(await readFile(join(dir, '.ratchet/orientation.json'), 'utf8')) as { taskId: string; level2: { review: Record<string, unknown> } };
    expect(report.taskId).toBe('T-2');
    expect(report.level2.review).toEqual({
      lastPostMortem: { path: 'postmortems/T-1.md', taskId: 'T-1', outcome: 'success', endedAt: expect.any(String) as string, summary: 'The greeting was added.' },
      pendingLessons: [{ id: 'lesson-later', taskId: 'T-1', insight: manual.insight }],
      manualLessons: [{ id: manual.lesson_id, taskId: 'T-1', insight: 'The greeting needed a test first.' }],
      openSuggestions: [{ lessonId: suggested.lesson_id, plan: `knowledge_core/suggestions/${suggested.lesson_id}.plan`, file: 'src/greet.ts' }],
      errors: [],
    });
    expect(OrientationReportSchema.safeParse(report).success).toBe(true);
    expect((await activity()).at(-1)).toMatchObject({ action: { type: 'TASK_START', details: { review: { lastPostMortem: 'postmortems/T-1.md', pendingLessons: ['lesson-later'], manualLessons: [manual.lesson_id] } } } });
  });

  test('a second task cannot start over one in progress; bad task ids are refused', async () => {
    await ratchet('init');
    expect((await start()).code).toBe(0);
    const other = await ratchet('task', 'start', '--task-id', 'T-2', '--no-network');
    expect(other.code).toBe(1);
    expect(other.err).toContain('task T-1 is in progress (state PLANNING)');
    for (const bad of ['../x', '.hidden', 'a/b', '']) expect((await ratchet('task', 'start', '--task-id', bad, '--no-network')).code).toBe(2);
  });
});

describe('run: plan gate, steps, nested call_plan, close, submit', () => {
  beforeEach(async () => {
    await ratchet('init');
    await write('plans/main.txt', MAIN);
    await write('plans/verify.txt', VERIFY);
    await write('knowledge_core/plan_registry.json', '{"schemaVersion": 1, "plans": {"verify": "plans/verify.txt"}}\n');
    await write('src/greet.ts', 'export const greeting = 1;\n'); // the file MAIN's overwrite_file_with_block step writes
  });

  test('a bad plan is rejected with its findings and the task stays in PLANNING', async () => {
    expect((await start()).code).toBe(0);
    await write('plans/bad.txt', 'set_plan x\ncreate_file_with_block src/greet.ts\nread_file missing.ts\n');
    const r = await ratchet('run', 'plan', 'plans/bad.txt');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/fsm-adherence/);
    expect(r.out).toMatch(/closure-mandate/);
    expect(r.out).toContain('stays in PLANNING');
    const status = await json<{ session: { state: string; history: { trigger: string }[] } }>('run', 'status');
    expect(status.session.state).toBe('PLANNING');
    expect(status.session.history.at(-1)?.trigger).toBe('plan_rejected');
    expect((await activity()).at(-1)?.action.type).toBe('PLAN_REJECTED');
  });

  test('a good plan runs to the end through a nested call_plan, then close and submit', { timeout: 60_000 }, async () => {
    expect((await start()).code).toBe(0);
    const accepted = await ratchet('run', 'plan', 'plans/main.txt');
    expect(accepted.code).toBe(0);
    expect(accepted.out).toContain('Step 1/5 of plans/main.txt:\n  set_plan greet');

    const seen: string[] = [];
    for (let i = 0; i < 20; i++) {
      const next = await json<{ next: { step?: { line: string; chain: string[] } } }>('run', 'next');
      if (!next.next.step) break;
      seen.push(`${next.next.step.chain.join('>')}: ${next.next.step.line}`);
      await doStep(next.next.step.line);
      const done = await ratchet('run', 'done');
      expect(done.code).toBe(0);
      // The reply says what was checked, and what was taken on trust.
      if (next.next.step.line.startsWith('overwrite_file_with_block')) expect(done.out).toContain('(checked: src/greet.ts changed)');
      if (next.next.step.line.startsWith('read_file')) expect(done.out).toContain('(checked: src/greet.ts exists)');
      if (next.next.step.line.startsWith('run_in_bash_session')) expect(done.out).toContain('(taken on trust: a close_op step leaves nothing on disk to check)');
    }
    expect(seen).toEqual([
      'plans/main.txt: set_plan greet',
      'plans/main.txt: plan_step_complete start',
      'plans/main.txt: overwrite_file_with_block src/greet.ts',
      'plans/main.txt>plans/verify.txt: set_plan verify',
      'plans/main.txt>plans/verify.txt: plan_step_complete verify',
      'plans/main.txt>plans/verify.txt: read_file src/greet.ts',
      'plans/main.txt>plans/verify.txt: run_in_bash_session close',
      'plans/main.txt: run_in_bash_session close',
    ]);
    expect((await json('run', 'next')).state).toBe('AWAITING_ANALYSIS');
    const over = await ratchet('run', 'done');
    expect(over.code).toBe(1); // nothing left to do: the same answer a caller racing the last step gets
    expect(over.err).toContain('no step pending');

    const closed = await ratchet('task', 'close', '--task-id', 'T-1');
    expect(closed.code).toBe(0);
    const pm = await readFile(join(dir, 'postmortems/T-1.md'), 'utf8');
    expect(pm).toContain('## 3. Corrective Actions & Lessons Learned');
    expect(pm).toContain('**Outcome:** success');

    // Shortcut 1: submit the untouched template. Every empty section is listed, the task stays in POST_MORTEM.
    const early = await ratchet('task', 'submit', '--task-id', 'T-1');
    expect(early.code).toBe(1);
    for (const section of ['1. Summary', '2. What Went Well and What Went Wrong', '3. Corrective Actions & Lessons Learned', '4. Follow-ups']) expect(early.err).toContain(`postmortems/T-1.md: section "${section}" is empty`);
    expect((await json('run', 'status')).session).toMatchObject({ state: 'POST_MORTEM' });
    // Shortcut 2: write only the Summary.
    await writeFile(join(dir, 'postmortems/T-1.md'), pm.replace('<!-- What was the task?', 'The greeting was added.\n<!--'));
    const summaryOnly = await ratchet('task', 'submit', '--task-id', 'T-1');
    expect(summaryOnly.code).toBe(1);
    expect(summaryOnly.err).not.toContain('"1. Summary"');
    expect(summaryOnly.err).toContain('section "2. What Went Well and What Went Wrong" is empty');
    expect(summaryOnly.err).toContain('the lessons section has no **Lesson:**/**Action:** pair');
    // Shortcut 3: a filled-in post-mortem whose lessons were never extracted: SELF_CORRECTING, not DONE.
    await writeFile(join(dir, 'postmortems/T-1.md'), filled(pm));
    const unextracted = await json<{ state: string; missing: { code: string; command: string }[] }>('task', 'submit', '--task-id', 'T-1');
    expect(unextracted.code).toBe(1);
    expect(unextracted.state).toBe('SELF_CORRECTING');
    expect(unextracted.missing).toEqual([expect.objectContaining({ code: 'not-extracted', command: 'ratchet lessons extract postmortems/T-1.md' })]);
    expect((await ratchet('lessons', 'extract', 'postmortems/T-1.md')).code).toBe(0);
    expect((await ratchet('task', 'submit', '--task-id', 'T-1')).code).toBe(0);
    expect((await json('run', 'status')).session).toMatchObject({ state: 'DONE' });

    const log = await activity();
    expect(log.map((e) => e.action.type)).toEqual(['TASK_START', 'PLAN_ACCEPTED', ...Array<string>(8).fill('STEP_COMPLETE'), 'TASK_END', 'TASK_SUBMIT']);
    expect(new Set(log.map((e) => e.session_id)).size).toBe(1);
    expect(log.filter((e) => e.action.type === 'STEP_COMPLETE').map((e) => e.task.plan_step)).toEqual([0, 1, 2, 0, 1, 2, 3, 4]);
    // A new task may start once this one is DONE.
    expect((await ratchet('task', 'start', '--task-id', 'T-2', '--no-network')).code).toBe(0);
  });

  test('a failed step moves the task to ERROR; it can be re-oriented or closed as a FAILURE', async () => {
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    const failed = await ratchet('run', 'done', '--failed', '--message', 'disk full');
    expect(failed.code).toBe(1); // a failure report, not a success
    expect(failed.out).toContain('✘ failed: set_plan greet (disk full)');
    const status = await json<{ session: { state: string; history: { message?: string }[] } }>('run', 'status');
    expect(status.session.state).toBe('ERROR');
    expect(status.session.history.at(-1)?.message).toBe('disk full');
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(1); // not in PLANNING
    const closed = await ratchet('task', 'close', '--task-id', 'T-1');
    expect(closed.code).toBe(0);
    expect(await readFile(join(dir, 'postmortems/T-1.md'), 'utf8')).toContain('**Outcome:** failure');
  });

  test('a shortcut is refused in commands, not trigger names: closing or submitting while EXECUTING', async () => {
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    const close = await ratchet('task', 'close', '--task-id', 'T-1');
    expect(close.code).toBe(1);
    expect(close.err).toContain('`ratchet task close` is not allowed while task T-1 is EXECUTING: Execute step 1 of 5 of plans/main.txt: set_plan greet');
    expect(close.err).toContain('Next: `ratchet run done` or `ratchet run done --failed');
    const submit = await ratchet('task', 'submit', '--task-id', 'T-1');
    expect(submit.code).toBe(1);
    expect(submit.err).toContain('`ratchet task submit` is not allowed while task T-1 is EXECUTING');
    for (const r of [close, submit]) expect(r.err).not.toMatch(/analysis_complete|post_mortem_complete|trigger/);
    expect((await json('run', 'status')).session).toMatchObject({ state: 'EXECUTING' });
  });

  test('abandon from PLANNING: only with --abandon and a reason, into POST_MORTEM as a FAILURE; not from EXECUTING', async () => {
    expect((await start()).code).toBe(0);
    const plain = await ratchet('task', 'close', '--task-id', 'T-1');
    expect(plain.code).toBe(1); // closing a task that never ran is not a success
    expect(plain.err).toContain('`ratchet task close` is not allowed while task T-1 is PLANNING');
    expect(plain.err).toContain('ratchet task close --task-id T-1 --abandon --reason');
    expect((await ratchet('task', 'close', '--task-id', 'T-1', '--abandon')).code).toBe(2); // no reason
    expect((await json('run', 'status')).session).toMatchObject({ state: 'PLANNING' });
    const abandoned = await ratchet('task', 'close', '--task-id', 'T-1', '--abandon', '--reason', 'the API does not exist');
    expect(abandoned.code).toBe(0);
    expect(await readFile(join(dir, 'postmortems/T-1.md'), 'utf8')).toContain('**Outcome:** failure');
    const status = await json<{ session: { state: string; history: { message?: string }[] } }>('run', 'status');
    expect(status.session.state).toBe('POST_MORTEM');
    expect(status.session.history.at(-1)?.message).toBe('abandoned while planning: the API does not exist');
    expect((await activity()).at(-1)).toMatchObject({ action: { type: 'TASK_END', details: { outcome: 'FAILURE', abandoned: 'abandoned while planning: the API does not exist' } } });
  });

  test('self-correction cannot be skipped: a pending lesson, then a stale AGENTS.md, each refuse the submit', { timeout: 60_000 }, async () => {
    await write('plans/short.txt', 'set_plan x\nplan_step_complete go\nrun_in_bash_session close\n');
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/short.txt')).code).toBe(0);
    for (let i = 0; i < 3; i++) expect((await ratchet('run', 'done')).code).toBe(0);
    const closed = await json<{ next: { commands: string[] } }>('task', 'close', '--task-id', 'T-1');
    // The directive names the self-correction steps in order.
    expect(closed.next.commands).toEqual([
      'ratchet lessons extract postmortems/T-1.md',
      'ratchet lessons apply',
      'ratchet lessons list --status manual',
      'ratchet protocol compile --check',
      'ratchet task submit --task-id T-1',
    ]);
    const pm = await readFile(join(dir, 'postmortems/T-1.md'), 'utf8');
    await writeFile(join(dir, 'postmortems/T-1.md'), filled(pm, "**Lesson:** Nobody ran the analyzer.\n**Action:** add tool 'ratchet run status' to protocol 'fdc'"));
    expect((await ratchet('lessons', 'extract', 'postmortems/T-1.md')).code).toBe(0);
    const pending = await json<{ missing: { code: string; command: string }[]; state: string }>('task', 'submit', '--task-id', 'T-1');
    expect(pending.code).toBe(1);
    expect(pending.state).toBe('SELF_CORRECTING');
    expect(pending.missing).toEqual([expect.objectContaining({ code: 'lessons-unsettled', command: 'ratchet lessons apply' })]);
    expect((await ratchet('lessons', 'apply')).code).toBe(0);
    // The lesson changed a protocol: an AGENTS.md that does not show the change (stale) is refused until it is recompiled.
    const agents = await readFile(join(dir, 'AGENTS.md'), 'utf8');
    expect(agents).toContain('ratchet run status');
    await writeFile(join(dir, 'AGENTS.md'), agents.replaceAll('ratchet run status', 'ratchet run'));
    const stale = await json<{ missing: { code: string; command: string }[] }>('task', 'submit', '--task-id', 'T-1');
    expect(stale.code).toBe(1);
    expect(stale.missing).toEqual([expect.objectContaining({ code: 'agents-stale', command: 'ratchet protocol compile' })]);
    expect((await ratchet('protocol', 'compile')).code).toBe(0);
    expect((await ratchet('task', 'submit', '--task-id', 'T-1')).code).toBe(0);
    expect((await json('run', 'status')).session).toMatchObject({ state: 'DONE' });
  });

  test("the lifecycle is the project's protocols/orchestrator.fsm.json as it was when the task started: an edit that drops a move is obeyed by the next task; an invalid one is exit 2 at its place", { timeout: 60_000 }, async () => {
    const fsm = await readFile(join(dir, 'protocols/orchestrator.fsm.json'), 'utf8');
    // An invalid lifecycle is refused at its place before a task starts, and no session is written.
    await write('protocols/orchestrator.fsm.json', fsm.replace('"dest": "EXECUTING", "trigger": "plan_accepted"', '"dest": "NOWHERE", "trigger": "plan_accepted"'));
    const invalid = await start();
    expect(invalid.code).toBe(2);
    expect(invalid.err).toMatch(/^protocols\/orchestrator\.fsm\.json:\d+:\d+: invalid lifecycle: /m);
    expect(existsSync(join(dir, '.ratchet/session.json'))).toBe(false);
    // This project does not let a task be abandoned while planning.
    await write('protocols/orchestrator.fsm.json', fsm.replace(/\n\s*\{ "source": "PLANNING", "dest": "POST_MORTEM", "trigger": "abandon_task" \},/, ''));
    expect((await start()).code).toBe(0);
    const abandon = await ratchet('task', 'close', '--task-id', 'T-1', '--abandon', '--reason', 'no');
    expect(abandon.code).toBe(1);
    expect(abandon.err).toContain('`ratchet task close --abandon` is not allowed while task T-1 is PLANNING');
    expect((await json<{ legal: string[] }>('run', 'next')).legal).toEqual(['plan_rejected', 'plan_accepted', 'research_needed']);
    // Mid-task the rails do not move: neither an invalid edit nor removing the file changes this task's lifecycle, and doctor names the change.
    await write('protocols/orchestrator.fsm.json', fsm.replace('"dest": "EXECUTING", "trigger": "plan_accepted"', '"dest": "NOWHERE", "trigger": "plan_accepted"'));
    expect((await json<{ legal: string[] }>('run', 'next')).legal).toEqual(['plan_rejected', 'plan_accepted', 'research_needed']);
    await rm(join(dir, 'protocols/orchestrator.fsm.json'));
    expect((await json<{ legal: string[] }>('run', 'next')).legal).not.toContain('abandon_task');
    const doctor = await ratchet('doctor');
    expect(doctor.code).toBe(1);
    expect(doctor.out + doctor.err).toMatch(/protocols\/orchestrator\.fsm\.json[^\n]*changed since task/);
    expect(JSON.parse(await readFile(join(dir, '.ratchet/session.json'), 'utf8'))).toMatchObject({ state: 'PLANNING' });
  });

  test("run plan --dialect: a dialect that differs from the project's is refused; the same one is accepted", async () => {
    expect((await start()).code).toBe(0);
    const own = JSON.parse(await readFile(join(dir, 'protocols/fdc.dialect.json'), 'utf8')) as { fsm: string; commands: Record<string, unknown> };
    // A laxer language: the write commands count as reads, so a plan could write while planning.
    await write('lax/fdc.dialect.json', JSON.stringify({ ...own, fsm: '../protocols/fdc.fsm.json', description: 'lax' }));
    const lax = await ratchet('run', 'plan', 'plans/main.txt', '--dialect', 'lax/fdc.dialect.json');
    expect(lax.code).toBe(2);
    expect(lax.err).toContain("--dialect lax/fdc.dialect.json differs from protocols/fdc.dialect.json (as pinned when the task started) (or the FSM it names): a task's plans are checked against the project's dialect and FSM");
    expect((await json('run', 'status')).session).toMatchObject({ state: 'PLANNING' });
    // The project's own dialect, named explicitly, is fine.
    expect((await ratchet('run', 'plan', 'plans/main.txt', '--dialect', 'protocols/fdc.dialect.json')).code).toBe(0);
  });

  /** The refusal every change to a pinned sub-plan gets: the step refused, the task back in PLANNING, nothing of the new plan run. */
  async function expectSwapRefused(path: string, why: RegExp): Promise<void> {
    const refused = await ratchet('run', 'done');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(why);
    expect(refused.err).toContain(`${path}`);
    expect(refused.err).toContain('run `ratchet run plan plans/main.txt` again: it lints the plan whole');
    const status = await json<{ session: { state: string; stack: unknown[] } }>('run', 'status');
    expect(status.session).toMatchObject({ state: 'PLANNING', stack: [] });
    expect((await activity()).at(-1)).toMatchObject({ action: { type: 'PLAN_REJECTED' }, outcome: { status: 'FAILURE' } });
  }

  test('the plan that runs is the plan that was linted: a sub-plan edited after run plan, even into one that lints, is refused when called', { timeout: 60_000 }, async () => {
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    // The agent's shortcut: swap the pinned sub-plan for a lint-clean one that does something else.
    await write('plans/verify.txt', 'set_plan verify\nplan_step_complete go\ndelete_file README.md\nrun_in_bash_session rm -rf src\nrun_in_bash_session close\n');
    await write('README.md', 'keep me');
    for (let i = 0; i < 2; i++) expect((await ratchet('run', 'done')).code).toBe(0);
    await write('src/greet.ts', 'export const greeting = "hello";\n');
    await expectSwapRefused('plans/verify.txt', /plans\/verify\.txt changed since `run plan` linted it/);
    expect(existsSync(join(dir, 'README.md'))).toBe(true);
  });

  test('a sub-plan edited into one that does not lint: refused the same way', { timeout: 60_000 }, async () => {
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    await write('plans/verify.txt', 'set_plan verify\ncreate_file_with_block src/evil.ts\nrun_in_bash_session close\n'); // writes while planning
    for (let i = 0; i < 2; i++) expect((await ratchet('run', 'done')).code).toBe(0);
    await write('src/greet.ts', 'export const greeting = "hello";\n');
    await expectSwapRefused('plans/verify.txt', /plans\/verify\.txt changed since `run plan` linted it/);
  });

  test('re-registering a name after run plan (plan registry register --force) changes nothing: the run resolves names as linted', { timeout: 60_000 }, async () => {
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    await write('plans/other.txt', 'set_plan other\nplan_step_complete go\ndelete_file README.md\nrun_in_bash_session rm -rf src\nrun_in_bash_session close\n');
    await write('README.md', 'keep me');
    expect((await ratchet('plan', 'registry', 'register', 'verify', 'plans/other.txt', '--force')).code).toBe(0);
    for (let i = 0; i < 2; i++) expect((await ratchet('run', 'done')).code).toBe(0);
    await write('src/greet.ts', 'export const greeting = "hello";\n');
    expect((await ratchet('run', 'done')).code).toBe(0);
    // The linted plans/verify.txt runs, not plans/other.txt.
    expect((await json<{ next: { step: { line: string; chain: string[] } } }>('run', 'next')).next.step).toMatchObject({ line: 'set_plan verify', chain: ['plans/main.txt', 'plans/verify.txt'] });
  });

  test('{file} sub-plans are pinned at run plan too: each one lint reached, by content', { timeout: 60_000 }, async () => {
    expect((await start()).code).toBe(0);
    await write('plans/steps/a.txt', 'set_plan a\nplan_step_complete a\nread_file src/greet.ts\nrun_in_bash_session close\n');
    await write('plans/steps/b.txt', 'set_plan b\nplan_step_complete b\nread_file src/greet.ts\nrun_in_bash_session close\n');
    await write('plans/each.txt', 'set_plan each\nplan_step_complete go\nfor_each_file plans/steps/*.txt\n  call_plan {file}\nrun_in_bash_session close\n');
    expect((await ratchet('run', 'plan', 'plans/each.txt')).code).toBe(0);
    const session = (await json<{ session: { pins: { plans: Record<string, string> } } }>('run', 'status')).session;
    expect(Object.keys(session.pins.plans).sort()).toEqual(['plans/each.txt', 'plans/steps/a.txt', 'plans/steps/b.txt']);
    await write('plans/steps/b.txt', 'set_plan b\nplan_step_complete b\ndelete_file src/greet.ts\nrun_in_bash_session close\n');
    for (let i = 0; i < 5; i++) expect((await ratchet('run', 'done')).code).toBe(0); // into a.txt, up to its close
    const refused = await ratchet('run', 'done');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('plans/steps/b.txt changed since `run plan` linted it');
    expect(existsSync(join(dir, 'src/greet.ts'))).toBe(true);
  });

  test('run done checks file effects on disk: a create, move or delete not done is refused and the step stays current', { timeout: 60_000 }, async () => {
    expect((await start()).code).toBe(0);
    await write('src/a.ts', 'a');
    await write('src/c.ts', 'c');
    await write('plans/files.txt', 'set_plan files\nplan_step_complete go\ncreate_file_with_block src/new.ts\nrename_file src/a.ts src/b.ts\ndelete_file src/c.ts\nrun_in_bash_session close\n');
    expect((await ratchet('run', 'plan', 'plans/files.txt')).code).toBe(0);
    for (let i = 0; i < 2; i++) expect((await ratchet('run', 'done')).code).toBe(0);
    const early = await ratchet('run', 'done');
    expect(early.code).toBe(1);
    expect(early.err).toContain('`create_file_with_block src/new.ts` is not done: src/new.ts does not exist');
    expect((await json<{ next: { step: { line: string } } }>('run', 'next')).next.step.line).toBe('create_file_with_block src/new.ts');
    await write('src/new.ts', 'export {};\n');
    expect((await ratchet('run', 'done')).code).toBe(0);
    const move = await ratchet('run', 'done');
    expect(move.code).toBe(1);
    expect(move.err).toContain('`rename_file src/a.ts src/b.ts` is not done: src/b.ts does not exist and src/a.ts still exists');
    await writeFile(join(dir, 'src/b.ts'), 'a');
    expect((await ratchet('run', 'done')).err).toContain('src/a.ts still exists'); // copied, not moved
    await rm(join(dir, 'src/a.ts'));
    expect((await ratchet('run', 'done')).code).toBe(0);
    expect((await ratchet('run', 'done')).err).toContain('`delete_file src/c.ts` is not done: src/c.ts still exists');
    await rm(join(dir, 'src/c.ts'));
    expect((await ratchet('run', 'done')).code).toBe(0);
    expect((await ratchet('run', 'done')).code).toBe(0);
    const verified = (await readFile(join(dir, 'logs/activity.log.jsonl'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { action: { type: string; details: { line?: string; verified?: string } } })
      .filter((e) => e.action.type === 'STEP_COMPLETE')
      .slice(-3)
      .map((e) => [e.action.details.line, e.action.details.verified]);
    expect(verified).toEqual([
      ['rename_file src/a.ts src/b.ts', 'src/a.ts moved to src/b.ts'],
      ['delete_file src/c.ts', 'src/c.ts is gone'],
      ['run_in_bash_session close', 'on trust'],
    ]);
  });

  test('a code-change plan: its edit step needs exactly the diff applied, not just any change, and never none', { timeout: 60_000 }, async () => {
    // The plan and diff as `ratchet lessons apply` writes them for a propose-code-change lesson.
    const { prepareCodeSuggestion, writeCodeSuggestion } = await import('@ratchet/self-correction');
    await write('src/greet.ts', 'export const greeting = 1;\n');
    const diff = '--- a/src/greet.ts\n+++ b/src/greet.ts\n@@ -1 +1 @@\n-export const greeting = 1;\n+export const greeting = "hello";\n';
    const lesson = {
      lesson_id: 'L-greet',
      task_id: 'T-0',
      date: '2026-01-01',
      insight: 'The greeting was a number.',
      action: { type: 'PROPOSE_CODE_CHANGE' as const, command: 'propose-code-change' as const, parameters: { filepath: 'src/greet.ts', diff } },
      status: 'pending' as const,
      history: [],
    };
    const suggestion = await prepareCodeSuggestion(dir, lesson);
    await writeCodeSuggestion(dir, suggestion, lesson);
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', suggestion.planPath)).code).toBe(0);
    let line: string;
    for (;;) {
      line = (await json<{ next: { step: { line: string } } }>('run', 'next')).next.step.line;
      if (line.startsWith('replace_with_git_merge_diff')) break;
      expect((await ratchet('run', 'done')).code).toBe(0);
    }
    expect(line).toBe('replace_with_git_merge_diff src/greet.ts');
    // The shortcut: report the edit without making it.
    const untouched = await ratchet('run', 'done');
    expect(untouched.code).toBe(1);
    expect(untouched.err).toContain('`replace_with_git_merge_diff src/greet.ts` is not done: src/greet.ts is not what applying knowledge_core/suggestions/L-greet.diff gives');
    // Another change is not the change.
    await write('src/greet.ts', 'export const greeting = "bonjour";\n');
    expect((await ratchet('run', 'done')).code).toBe(1);
    await write('src/greet.ts', 'export const greeting = "hello";\n');
    const applied = await ratchet('run', 'done');
    expect(applied.code).toBe(0);
    expect(applied.out).toContain('(checked: knowledge_core/suggestions/L-greet.diff applied to src/greet.ts)');
  });

  test('run done on a write that did not change its file, or a read of a file that is gone, is refused', async () => {
    expect((await start()).code).toBe(0);
    await write('src/a.ts', 'a');
    await write('plans/rw.txt', 'set_plan rw\nplan_step_complete go\noverwrite_file_with_block src/a.ts\nread_file src/a.ts\nrun_in_bash_session close\n');
    expect((await ratchet('run', 'plan', 'plans/rw.txt')).code).toBe(0);
    for (let i = 0; i < 2; i++) expect((await ratchet('run', 'done')).code).toBe(0);
    const same = await ratchet('run', 'done');
    expect(same.code).toBe(1);
    expect(same.err).toContain('`overwrite_file_with_block src/a.ts` is not done: src/a.ts is unchanged since this step began');
    await write('src/a.ts', 'a, rewritten');
    expect((await ratchet('run', 'done')).code).toBe(0);
    await rm(join(dir, 'src/a.ts'));
    const gone = await ratchet('run', 'done');
    expect(gone.code).toBe(1);
    expect(gone.err).toContain('`read_file src/a.ts` is not done: src/a.ts does not exist');
  });

  test('abandon is refused while EXECUTING: finish or fail the step first', async () => {
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    const r = await ratchet('task', 'close', '--task-id', 'T-1', '--abandon', '--reason', 'bored');
    expect(r.code).toBe(1);
    expect(r.err).toContain('`ratchet task close --abandon` is not allowed while task T-1 is EXECUTING');
    expect((await json('run', 'status')).session).toMatchObject({ state: 'EXECUTING' });
  });

  test('a sub-plan edited into recursion after run plan: refused before it is entered, back to PLANNING', async () => {
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    for (let i = 0; i < 2; i++) await ratchet('run', 'done');
    await write('src/greet.ts', 'export const greeting = "hello";\n');
    await write('plans/verify.txt', 'set_plan again\nplan_step_complete again\ncall_plan verify\nrun_in_bash_session close\n'); // now calls itself
    await expectSwapRefused('plans/verify.txt', /plans\/verify\.txt changed since `run plan` linted it/);
  });

  test('research: PLANNING -> research cycle (steps served by run next, logged like plan steps) -> PLANNING', async () => {
    expect((await start()).code).toBe(0);
    const r = await json<{ plan: string; lifecycle: { state: string } }>('research', 'plan', 'how', 'do', 'locks', 'work?');
    expect(r.code).toBe(0);
    expect(r.plan).toBe('research/how-do-locks-work/plan.txt');
    expect(r.lifecycle.state).toBe('RESEARCHING');
    // The default settings, no --dialect: the project's own plan language accepts the generated plan.
    expect(await ratchet('plan', 'lint', r.plan)).toMatchObject({ code: 0, out: expect.stringContaining('no problems') as string });
    expect((await ratchet('plan', 'lint', r.plan, '--dialect', 'protocols/research.dialect.json')).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(1); // must finish research first: the state refuses it
    // Shortcut: research done before the plan's steps are done is refused, naming the step to run.
    const early = await ratchet('research', 'done');
    expect(early.code).toBe(1);
    expect(early.err).toContain('`ratchet research done` is not allowed while task T-1 is RESEARCHING: Research: execute step 1 of 9 of research/how-do-locks-work/plan.txt');
    const served: string[] = [];
    for (;;) {
      const next = await json<{ state: string; next: { step?: { line: string; planPath: string } } }>('run', 'next');
      if (next.state !== 'RESEARCHING') break;
      const line = next.next.step!.line;
      served.push(line);
      if (line.startsWith('overwrite_file_with_block')) await write('research/how-do-locks-work/report.md', '# Locks\n');
      if (line.startsWith('define_scope')) {
        // Shortcut: scoping leaves only words, so they must be given.
        const silent = await ratchet('run', 'done');
        expect(silent.code).toBe(1);
        expect(silent.err).toContain('define_scope leaves only words: report the questions and the search keywords with --message');
        const scoped = await ratchet('run', 'done', '--message', 'how is the lock taken? keywords: O_EXCL, lock file, lease');
        expect(scoped.code).toBe(0);
        expect(scoped.out).toContain('(checked: the questions and the search keywords given with --message)');
        continue;
      }
      if (line === 'run_in_bash_session close') {
        // Shortcut: the last step waits for findings; a report that is only its title does not count.
        const bare = await json<{ error: { code: string; message: string; file: string } }>('run', 'done');
        expect(bare).toMatchObject({ code: 1, error: { code: 'research-report-empty', file: 'research/how-do-locks-work/report.md' } });
        expect(bare.error.message).toContain('research/how-do-locks-work/report.md has only headings, no findings');
        await write('research/how-do-locks-work/report.md', '# Locks\nThe store takes an O_EXCL lock file.\n');
      }
      const done = await ratchet('run', 'done');
      expect(done.code).toBe(0);
      if (line.startsWith('google_search')) expect(done.out).toContain('(taken on trust: a tool_exec step leaves nothing on disk to check)');
    }
    expect(served).toEqual([
      'set_plan Deep research: how do locks work?',
      'list_files .',
      'grep how do locks work?',
      'define_scope how do locks work?',
      'google_search how do locks work?',
      'view_text_website the most promising sources the searches found',
      'plan_step_complete Synthesise the findings on: how do locks work?',
      'overwrite_file_with_block research/how-do-locks-work/report.md',
      'run_in_bash_session close',
    ]);
    expect((await json('run', 'status')).session).toMatchObject({ state: 'AWAITING_RESULT', stack: [] });
    // Emptied after the last step: research done refuses too (a gate not met: exit 1).
    await write('research/how-do-locks-work/report.md', '  \n');
    const empty = await ratchet('research', 'done');
    expect(empty.code).toBe(1);
    expect(empty.err).toContain('research/how-do-locks-work/report.md is empty: write the findings of research/how-do-locks-work/plan.txt into it, then run `ratchet research done` again');
    await write('research/how-do-locks-work/report.md', '# Locks\nO_EXCL.\n');
    expect((await ratchet('research', 'done', '-m', 'read the report')).code).toBe(0);
    expect((await json('run', 'status')).session).toMatchObject({ state: 'PLANNING', research: { topic: 'how do locks work?', from: 'PLANNING' } });
    const log = await activity();
    expect(log.map((e) => e.action.type)).toEqual(['TASK_START', 'RESEARCH_START', ...served.map(() => 'STEP_COMPLETE'), 'RESEARCH_END']);
    expect(log.filter((e) => e.action.type === 'STEP_COMPLETE').map((e) => e.task.plan_step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    // A second study of the same topic never overwrites the first.
    expect((await json<{ plan: string }>('research', 'plan', 'how do locks work?')).plan).toBe('research/how-do-locks-work-2/plan.txt');
  });

  test('research from EXECUTING pauses the plan; research done resumes it at the same step', async () => {
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    expect((await ratchet('run', 'done')).code).toBe(0); // set_plan greet
    const r = await json<{ lifecycle: { state: string }; plan: string }>('research', 'plan', 'greeting conventions');
    expect(r.lifecycle.state).toBe('RESEARCHING');
    const status = await json<{ session: { stack: { planPath: string }[]; research: { from: string } } }>('run', 'status');
    expect(status.session.stack.map((f) => f.planPath)).toEqual(['plans/main.txt', 'research/greeting-conventions/plan.txt']);
    expect(status.session.research.from).toBe('EXECUTING');
    for (let i = 0; i < 3; i++) expect((await ratchet('run', 'done')).code).toBe(0);
    expect((await ratchet('run', 'done', '-m', 'which greeting? keywords: greeting style')).code).toBe(0); // define_scope
    for (let i = 0; i < 3; i++) expect((await ratchet('run', 'done')).code).toBe(0);
    // The effect of a research step is checked like a plan step's: the report must be written.
    const missing = await ratchet('run', 'done');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('research/greeting-conventions/report.md does not exist');
    await write('research/greeting-conventions/report.md', '');
    expect((await ratchet('run', 'done')).code).toBe(0); // written (even empty): the write step's effect is seen
    const closeEmpty = await ratchet('run', 'done');
    expect(closeEmpty.code).toBe(1);
    expect(closeEmpty.err).toContain('research/greeting-conventions/report.md is empty');
    await write('research/greeting-conventions/report.md', 'Greetings end with a newline.\n');
    expect((await ratchet('run', 'done')).code).toBe(0);
    // Shortcut: the paused plan's step cannot be reported while the research waits for its result.
    const paused = await ratchet('run', 'done');
    expect(paused.code).toBe(1);
    expect(paused.err).toContain('`ratchet run done` is not allowed while task T-1 is AWAITING_RESULT');
    const back = await json<{ state: string; next: { step: { planPath: string; line: string } } }>('research', 'done');
    expect(back).toMatchObject({ code: 0, state: 'EXECUTING', next: { step: { planPath: 'plans/main.txt', line: 'plan_step_complete start' } } });
    expect((await json<{ session: { history: { trigger: string }[] } }>('run', 'status')).session.history.at(-1)?.trigger).toBe('research_resumed');
  });

  test("a project that brings its own research FSM (the original's research_fsm.json) and no research dialect: the bundled dialect is checked against that FSM, and the generated plan passes it", async () => {
    const original = {
      states: ['IDLE', 'GATHERING', 'SYNTHESIZING', 'REPORTING', 'DONE'],
      alphabet: ['plan_op', 'step_op', 'read_op', 'write_op', 'tool_exec', 'close_op'],
      transitions: { IDLE: { plan_op: 'GATHERING' }, GATHERING: { read_op: 'GATHERING', tool_exec: 'GATHERING', step_op: 'SYNTHESIZING' }, SYNTHESIZING: { write_op: 'REPORTING' }, REPORTING: { close_op: 'DONE' } },
      start_state: 'IDLE',
      accept_states: ['DONE'],
    };
    await rm(join(dir, 'protocols/research.dialect.json'));
    // A stricter machine of the project's own first: no searches while gathering. It is the one applied.
    const strict = { ...original, transitions: { ...original.transitions, GATHERING: { read_op: 'GATHERING', step_op: 'SYNTHESIZING' } } };
    await write('protocols/research.fsm.json', JSON.stringify(strict));
    expect((await start()).code).toBe(0);
    const refused = await ratchet('research', 'plan', 'locks');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('google_search (tool_exec) is not allowed in state GATHERING');
    expect((await json('run', 'status')).session).toMatchObject({ state: 'PLANNING' });
    await write('protocols/research.fsm.json', JSON.stringify(original));
    const r = await json<{ lifecycle: { state: string } }>('research', 'plan', 'locks');
    expect(r.code).toBe(0);
    expect(r.lifecycle.state).toBe('RESEARCHING');
  });

  test('a lifecycle copied before research steps existed: research plan refuses to enter a cycle it could not leave, naming the file', async () => {
    const fsm = await readFile(join(dir, 'protocols/orchestrator.fsm.json'), 'utf8');
    const old = JSON.parse(fsm) as { transitions: { source: string; dest: string; trigger: string }[] };
    old.transitions = old.transitions.filter((t) => t.trigger !== 'research_step_complete');
    await writeFile(join(dir, 'protocols/orchestrator.fsm.json'), JSON.stringify(old, null, 2));
    expect((await start()).code).toBe(0);
    const r = await ratchet('research', 'plan', 'locks');
    expect(r.code).toBe(2);
    expect(r.err).toContain('protocols/orchestrator.fsm.json has no research_step_complete from RESEARCHING');
    expect(r.err).toContain('call_plan research/locks/plan.txt');
    expect(existsSync(join(dir, 'research/locks/plan.txt'))).toBe(true);
    expect((await json('run', 'status')).session).toMatchObject({ state: 'PLANNING' });
  });

  test.each([1, 2])('a research plan runs as a call_plan sub-plan (%i times): its steps served and logged like plan steps, its last step waits for the report, rewritten each run', async (runs) => {
    const made = await json<{ plan: string; lifecycle: null }>('research', 'plan', 'greeting conventions'); // no task yet: the lifecycle is unchanged
    expect(made.lifecycle).toBeNull();
    await write('plans/main.txt', `set_plan greet\nplan_step_complete start\n${`call_plan ${made.plan}\n`.repeat(runs)}run_in_bash_session close\n`);
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    const lines: string[] = [];
    for (;;) {
      const next = await json<{ state: string; next: { step?: { line: string; chain: string[] } } }>('run', 'next');
      if (next.state !== 'EXECUTING') break;
      const { line, chain } = next.next.step!;
      lines.push(`${chain.at(-1)!}: ${line}`);
      if (line.startsWith('overwrite_file_with_block')) await write('research/greeting-conventions/report.md', `\n\n${'\n'.repeat(lines.length)}`);
      if (line === 'run_in_bash_session close' && chain.length === 2) {
        const refused = await ratchet('run', 'done');
        expect(refused.code).toBe(1);
        expect(refused.err).toContain('research/greeting-conventions/report.md is empty: write the findings of research/greeting-conventions/plan.txt into it');
        await write('research/greeting-conventions/report.md', `Say hello (${lines.length}).\n`);
      }
      expect((await ratchet('run', 'done', ...(line.startsWith('define_scope') ? ['-m', 'keywords: greeting'] : []))).code).toBe(0);
    }
    expect(lines.filter((l) => l.startsWith('research/'))).toHaveLength(9 * runs);
    expect(lines.at(-1)).toBe('plans/main.txt: run_in_bash_session close');
    const steps = (await activity()).filter((e) => e.action.type === 'STEP_COMPLETE');
    expect(steps).toHaveLength(lines.length);
  });
});

describe('run: registries, loops and links at run time; the log schema; the post-mortem feeds lessons', () => {
  beforeEach(async () => {
    await ratchet('init');
    await write('plans/verify.txt', VERIFY);
  });

  test('TASK_START, PLAN_ACCEPTED, STEP_COMPLETE and TASK_END lines match the documented activity-log schema', async () => {
    await write('plans/main.txt', 'set_plan x\nplan_step_complete go\nrun_in_bash_session close\n');
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    for (let i = 0; i < 3; i++) expect((await ratchet('run', 'done')).code).toBe(0);
    expect((await ratchet('task', 'close', '--task-id', 'T-1')).code).toBe(0);
    const lines = (await readFile(join(dir, 'logs/activity.log.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { action: { type: string } }).action.type)).toEqual(['TASK_START', 'PLAN_ACCEPTED', 'STEP_COMPLETE', 'STEP_COMPLETE', 'STEP_COMPLETE', 'TASK_END']);
    for (const line of lines) {
      const parsed = ActivityEntrySchema.safeParse(JSON.parse(line));
      expect(parsed.success, line).toBe(true);
    }
    const first = JSON.parse(lines[0]!) as Record<string, unknown>;
    // The seed's LOGGING_SCHEMA fields, and only Ratchet's `actor` (who acted, and through which channel) besides.
    expect(Object.keys(first).sort()).toEqual(['action', 'actor', 'log_id', 'outcome', 'phase', 'session_id', 'task', 'timestamp']);
    expect(first.actor).toEqual({ via: 'shell' });
    expect(first).toMatchObject({ phase: 'ORIENTING', task: { id: 'T-1', plan_step: null }, action: { type: 'TASK_START' }, outcome: { status: 'SUCCESS' } });
  });

  test('run plan --registry: the plan lints and later call_plan names resolve through that registry', async () => {
    expect((await ratchet('plan', 'registry', 'register', 'verify', 'plans/verify.txt', '--registry', 'conf/plans.json')).code).toBe(0);
    await write('plans/main.txt', MAIN);
    expect((await start()).code).toBe(0);
    await write('src/greet.ts', 'export const greeting = 1;\n');
    // Without it, "verify" is neither registered nor a file: the plan is rejected.
    const rejected = await ratchet('run', 'plan', 'plans/main.txt');
    expect(rejected.code).toBe(1);
    expect(rejected.out).toContain('call-plan-not-found');
    expect((await ratchet('run', 'plan', 'plans/main.txt', '--registry', 'conf/plans.json')).code).toBe(0);
    expect((await json<{ session: { registry?: string } }>('run', 'status')).session.registry).toBe('conf/plans.json');
    const chains: string[] = [];
    for (let i = 0; i < 20; i++) {
      const next = await json<{ next: { step?: { chain: string[] } } }>('run', 'next');
      if (!next.next.step) break;
      chains.push(next.next.step.chain.join('>'));
      await doStep((next.next.step as { line?: string }).line);
      expect((await ratchet('run', 'done')).code).toBe(0);
    }
    expect(chains).toContain('plans/main.txt>plans/verify.txt');
    expect((await json('run', 'status')).session).toMatchObject({ state: 'AWAITING_ANALYSIS' });
  });

  test('for_each_file expands at run time against the project, {file} substituted, sorted', async () => {
    await write('src/b.ts', 'b');
    await write('src/a.ts', 'a');
    await write('src/skip.md', 'x');
    await write('plans/loop.txt', 'set_plan loop\nplan_step_complete go\nfor_each_file src/*.ts\n  read_file {file}\n  replace_with_git_merge_diff {file}\nrun_in_bash_session close\n');
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/loop.txt')).code).toBe(0);
    const lines: string[] = [];
    for (let i = 0; i < 20; i++) {
      const next = await json<{ next: { step?: { line: string } } }>('run', 'next');
      if (!next.next.step) break;
      lines.push(next.next.step.line);
      await doStep(next.next.step.line);
      expect((await ratchet('run', 'done')).code).toBe(0);
    }
    expect(lines).toEqual([
      'set_plan loop',
      'plan_step_complete go',
      'read_file src/a.ts',
      'replace_with_git_merge_diff src/a.ts',
      'read_file src/b.ts',
      'replace_with_git_merge_diff src/b.ts',
      'run_in_bash_session close',
    ]);
  });

  test('a sub-plan swapped for a symbolic link out of the project after lint: the step fails, the task goes to ERROR', async () => {
    await write('plans/main.txt', 'set_plan x\nplan_step_complete go\ncall_plan plans/verify.txt\nrun_in_bash_session close\n');
    await write('src/greet.ts', 'x');
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    const outside = await mkdtemp(join(tmpdir(), 'ratchet-outside-'));
    try {
      await writeFile(join(outside, 'evil.txt'), 'set_plan evil\nplan_step_complete go\nrun_in_bash_session rm -rf /\nrun_in_bash_session close\n');
      await rm(join(dir, 'plans/verify.txt'));
      await symlink(join(outside, 'evil.txt'), join(dir, 'plans/verify.txt'));
      expect((await ratchet('run', 'done')).code).toBe(0);
      const r = await ratchet('run', 'done');
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/plans\/verify\.txt leads through a symbolic link to .*evil\.txt, outside the project root/);
      const status = await json<{ session: { state: string } }>('run', 'status');
      expect(status.session.state).toBe('ERROR');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  test('task close writes a post-mortem whose lessons section `ratchet lessons extract` reads (and the untouched template has none)', async () => {
    await write('plans/main.txt', 'set_plan x\nplan_step_complete go\nrun_in_bash_session close\n');
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    for (let i = 0; i < 3; i++) await ratchet('run', 'done');
    expect((await ratchet('task', 'close', '--task-id', 'T-1')).code).toBe(0);
    const pmPath = join(dir, 'postmortems/T-1.md');
    const template = await readFile(pmPath, 'utf8');
    // The template's own examples sit in a comment: extracting the untouched template finds nothing.
    const none = await json<{ added: unknown[] }>('lessons', 'extract', 'postmortems/T-1.md');
    expect(none.code).toBe(0);
    expect(none.added).toEqual([]);
    const filled = template.replace(
      '## 4. Follow-ups',
      "**Lesson:** The plan never read the file it changed.\n**Action:** add tool 'ratchet plan analyze' to protocol 'fdc'\n\n**Lesson:** Nobody knew who owns the release.\n**Action:** ask the team\n\n## 4. Follow-ups",
    );
    expect(filled).not.toBe(template);
    await writeFile(pmPath, filled);
    const r = await json<{ added: unknown[] }>('lessons', 'extract', 'postmortems/T-1.md');
    expect(r.code).toBe(0);
    expect(r.added).toHaveLength(2);
    const lessons = (await readFile(join(dir, 'knowledge_core/lessons.jsonl'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { task_id: string; insight: string; action: { type: string; command: string; parameters: Record<string, string> } });
    expect(lessons.map((l) => [l.task_id, l.insight, l.action.command])).toEqual([
      ['T-1', 'The plan never read the file it changed.', 'add-tool'],
      ['T-1', 'Nobody knew who owns the release.', expect.any(String)],
    ]);
    expect(lessons[0]!.action).toMatchObject({ type: 'UPDATE_PROTOCOL', parameters: { protocol_id: 'fdc', tool: 'ratchet plan analyze' } });
  });
});

describe('bad session files', () => {
  test('a session from a newer version: exit 2, the file untouched', async () => {
    await ratchet('init');
    const text = '{\n  "schemaVersion": 9,\n  "taskId": "T-1",\n  "state": "PLANNING"\n}\n';
    await write('.ratchet/session.json', text);
    for (const argv of [['run', 'status'], ['run', 'done'], ['task', 'start', '--task-id', 'T-1', '--no-network']]) {
      const r = await ratchet(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(/\.ratchet\/session\.json:2:\d+: .*newer version/);
    }
    expect(await readFile(join(dir, '.ratchet/session.json'), 'utf8')).toBe(text);
    expect(existsSync(join(dir, 'logs'))).toBe(false);
  });

  test('a truncated session: exit 2 with the place, untouched', async () => {
    const text = '{"schemaVersion": 1, "taskId": "T-1", "st';
    await write('.ratchet/session.json', text);
    const r = await ratchet('run', 'next');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/session\.json:1:\d+:/);
    expect(createHash('sha256').update(await readFile(join(dir, '.ratchet/session.json'))).digest('hex')).toBe(createHash('sha256').update(text).digest('hex'));
  });
});

describe('stuck sessions, the abandon reason, run status, and one exit-code rule', () => {
  beforeEach(async () => {
    await ratchet('init');
    await write('plans/short.txt', 'set_plan x\nplan_step_complete go\nrun_in_bash_session close\n');
  });
  async function as(actor: string, ...argv: string[]): Promise<Result> {
    let out = '';
    let err = '';
    const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: { PATH: '/usr/bin', HOME: '/home/x', RATCHET_ACTOR: actor }, cwd: dir, readStdin: () => Promise.resolve('') };
    const code = await run(argv, io);
    return { code, out, err };
  }
  /** What a person does by hand: edit the session file, then accept the edit with doctor. */
  async function handEdit(change: (s: Record<string, unknown>) => void): Promise<void> {
    const path = join(dir, '.ratchet/session.json');
    const s = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    change(s);
    await writeFile(path, `${JSON.stringify(s, null, 2)}\n`);
    expect((await as('user', 'doctor', '--accept', '.ratchet/session.json')).code).toBe(0);
  }

  test('a hand-edited AWAITING_SUBMISSION accepted by a person: submit, start and abandon say what is wrong; task reset (a person\'s command) gets it moving', async () => {
    expect((await start()).code).toBe(0);
    await handEdit((s) => {
      s.state = 'AWAITING_SUBMISSION';
    });
    const submit = await ratchet('task', 'submit', '--task-id', 'T-1');
    expect(submit.code).toBe(1);
    expect(submit.err).toContain('task T-1 has no post-mortem recorded');
    expect(submit.err).toContain('ratchet task reset --task-id T-1 --reason "<why>"');
    expect((await ratchet('task', 'start', '--task-id', 'T-1', '--no-network')).code).toBe(1);
    expect((await ratchet('task', 'close', '--task-id', 'T-1', '--abandon', '--reason', 'stuck')).code).toBe(1);
    expect((await json<{ next: { commands: string[] } }>('run', 'next')).next.commands).toContain('ratchet task reset --task-id T-1 --reason "<why>"');
    // The agent's shortcut: reset the task itself. Refused where the harness pins RATCHET_ACTOR=agent.
    const agent = await as('agent', 'task', 'reset', '--task-id', 'T-1', '--reason', 'I am done');
    expect(agent.code).toBe(2);
    expect(agent.err).toContain('ratchet task reset is for a person, from their own terminal; refused because this environment sets RATCHET_ACTOR=agent');
    expect((await json('run', 'status')).session).toMatchObject({ state: 'AWAITING_SUBMISSION' });
    // A person resets it (to ERROR by default), recorded in the history and the log with the reason.
    expect((await as('user', 'task', 'reset', '--task-id', 'T-1')).code).toBe(2); // the reason is required
    const reset = await as('user', 'task', 'reset', '--task-id', 'T-1', '--reason', 'the state was edited by hand');
    expect(reset.code).toBe(0);
    const status = await json<{ session: { state: string; history: { trigger: string; message?: string }[] } }>('run', 'status');
    expect(status.session.state).toBe('ERROR');
    expect(status.session.history.at(-1)).toMatchObject({ trigger: 'reset', message: 'reset by a person: the state was edited by hand' });
    expect((await activity()).at(-1)).toMatchObject({ action: { type: 'TASK_RESET' } });
    // From ERROR the lifecycle goes on: abandon with a FAILURE post-mortem (or re-orient).
    expect((await ratchet('task', 'close', '--task-id', 'T-1')).code).toBe(0);
    expect(await readFile(join(dir, 'postmortems/T-1.md'), 'utf8')).toContain('- **Abandoned:** abandoned after failure: reset by a person: the state was edited by hand');
  });

  test('task reset --to PLANNING drops the running plan; --to START ends the task; other states are refused', async () => {
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/short.txt')).code).toBe(0);
    expect((await as('user', 'task', 'reset', '--task-id', 'T-1', '--reason', 'replan', '--to', 'DONE')).code).toBe(2);
    expect((await as('user', 'task', 'reset', '--task-id', 'T-2', '--reason', 'replan')).code).toBe(2); // another task
    expect((await as('user', 'task', 'reset', '--task-id', 'T-1', '--reason', 'replan', '--to', 'PLANNING')).code).toBe(0);
    expect((await json('run', 'status')).session).toMatchObject({ state: 'PLANNING', stack: [] });
    expect((await as('user', 'task', 'reset', '--task-id', 'T-1', '--reason', 'wrong task', '--to', 'START')).code).toBe(0);
    expect((await ratchet('task', 'start', '--task-id', 'T-9', '--no-network')).code).toBe(0);
  });

  test('submit from AWAITING_SUBMISSION is a submit: the self-correction gate decides, not the state', async () => {
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/short.txt')).code).toBe(0);
    for (let i = 0; i < 3; i++) expect((await ratchet('run', 'done')).code).toBe(0);
    expect((await ratchet('task', 'close', '--task-id', 'T-1')).code).toBe(0);
    await handEdit((s) => {
      s.state = 'AWAITING_SUBMISSION';
    });
    const r = await ratchet('task', 'submit', '--task-id', 'T-1');
    expect(r.code).toBe(1);
    expect(r.err).toContain('cannot be submitted yet (AWAITING_SUBMISSION); missing:');
    expect(r.err).not.toContain('is not allowed while');
  });

  test('the abandon reason is in the post-mortem it asks for', async () => {
    expect((await start()).code).toBe(0);
    expect((await ratchet('task', 'close', '--task-id', 'T-1', '--abandon', '--reason', 'the API it needs does not exist')).code).toBe(0);
    const pm = await readFile(join(dir, 'postmortems/T-1.md'), 'utf8');
    expect(pm).toContain('- **Outcome:** failure\n- **Abandoned:** abandoned while planning: the API it needs does not exist\n');
  });

  test('a failed step abandoned without a reason: the failure is the reason in the post-mortem', async () => {
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/short.txt')).code).toBe(0);
    expect((await ratchet('run', 'done', '--failed', '-m', 'the build broke')).code).toBe(1);
    expect((await ratchet('task', 'close', '--task-id', 'T-1')).code).toBe(0);
    expect(await readFile(join(dir, 'postmortems/T-1.md'), 'utf8')).toContain('- **Abandoned:** abandoned after failure: the build broke\n');
  });

  test('run status lists the commands allowed now, not trigger names; re-orienting drops the failed run\'s stack', async () => {
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/short.txt')).code).toBe(0);
    const executing = await ratchet('run', 'status');
    expect(executing.out).toContain('\nAllowed  ratchet research plan, ratchet run done, ratchet run done --failed\n');
    expect(executing.out).not.toContain('step_complete');
    expect((await ratchet('run', 'done', '--failed', '-m', 'no')).code).toBe(1);
    expect((await json<{ session: { stack: unknown[] } }>('run', 'status')).session.stack).toHaveLength(1); // kept for inspection
    expect((await start()).code).toBe(0); // re-orient
    const after = await ratchet('run', 'status');
    expect(after.out).not.toContain('Stack');
    expect((await json<{ session: { state: string; stack: unknown[]; pins?: unknown }; allowed: string[] }>('run', 'status'))).toMatchObject({ session: { state: 'PLANNING', stack: [] }, allowed: expect.arrayContaining(['ratchet run plan']) as string[] });
    expect((await json<{ session: { pins?: unknown } }>('run', 'status')).session.pins).toBeUndefined();
  });

  test('one rule for a command the state does not allow: exit 1 from every orchestrator command (2 is for usage and input)', async () => {
    // No task at all.
    for (const argv of [['run', 'done'], ['run', 'next'], ['run', 'plan', 'plans/short.txt'], ['task', 'close', '--task-id', 'T-1'], ['task', 'submit', '--task-id', 'T-1'], ['research', 'done']]) {
      expect((await ratchet(...argv)).code, argv.join(' ')).toBe(1);
    }
    expect((await start()).code).toBe(0);
    // PLANNING.
    for (const argv of [['run', 'done'], ['run', 'next'], ['task', 'close', '--task-id', 'T-1'], ['task', 'submit', '--task-id', 'T-1'], ['research', 'done'], ['task', 'start', '--task-id', 'T-1', '--no-network']]) {
      expect((await ratchet(...argv)).code, argv.join(' ')).toBe(1);
    }
    expect((await ratchet('run', 'plan', 'plans/short.txt')).code).toBe(0);
    // EXECUTING.
    for (const argv of [['run', 'plan', 'plans/short.txt'], ['task', 'close', '--task-id', 'T-1'], ['task', 'submit', '--task-id', 'T-1'], ['research', 'done'], ['task', 'close', '--task-id', 'T-1', '--abandon', '--reason', 'x']]) {
      expect((await ratchet(...argv)).code, argv.join(' ')).toBe(1);
    }
    for (let i = 0; i < 3; i++) expect((await ratchet('run', 'done')).code).toBe(0);
    // AWAITING_ANALYSIS: research cannot start; nothing is written.
    const research = await ratchet('research', 'plan', 'late topic');
    expect(research.code).toBe(1);
    expect(existsSync(join(dir, 'research/late-topic'))).toBe(false);
    expect((await ratchet('run', 'next')).code).toBe(1);
    // Usage and input errors stay 2 (an input error where the state allows the command).
    expect((await ratchet('task', 'close', '--task-id', '../x')).code).toBe(2);
    expect((await ratchet('run', 'done', '--message', '')).code).toBe(2);
  });

  test('giving up research is a failure report like run done --failed: exit 1, the task in ERROR', async () => {
    expect((await start()).code).toBe(0);
    expect((await ratchet('research', 'plan', 'dead end')).code).toBe(0);
    const gave = await ratchet('research', 'done', '--failed', '-m', 'no sources exist');
    expect(gave.code).toBe(1);
    expect((await json('run', 'status')).session).toMatchObject({ state: 'ERROR' });
  });

  test('an input error where the state allows the command is exit 2: a plan file that does not exist', async () => {
    expect((await start()).code).toBe(0);
    expect((await ratchet('run', 'plan', 'plans/missing.txt')).code).toBe(2);
  });
});
