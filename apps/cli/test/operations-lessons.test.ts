/**
 * The lessons area's typed operations (src/operations/lessons.ts) called as a hook or any other
 * face calls them, and the edge that turns commander's option bag into their inputs
 * (src/commands/lessons/inputs.ts, src/option-values.ts): a value of the wrong kind or outside its
 * choices is a usage error naming the option, never a cast.
 */
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { applyInput, extractInput, listInput, resolveInput } from '../src/commands/lessons/inputs.js';
import { makeContext, type Context, type Io } from '../src/context.js';
import { CliError } from '../src/errors.js';
import { run } from '../src/main.js';
import { LESSONS_FILE, extractLessons, listLessons, resolveLesson } from '../src/operations/lessons.js';
import { choiceOption, stringOption, stringsOption } from '../src/option-values.js';

function io(cwd: string, env: Record<string, string | undefined> = {}): Io & { out: () => string } {
  let out = '';
  return { stdout: (t) => void (out += t), stderr: () => undefined, isTTY: false, env, cwd, readStdin: () => Promise.resolve(''), out: () => out };
}
const ctxAt = (cwd: string, env: Record<string, string | undefined> = {}): Context => makeContext(io(cwd, env), { json: false, quiet: true, cwd, color: false });

const POSTMORTEM = "# Post-Mortem\n\n## Lessons Learned\n\n**Lesson:** Plans should be analysed before they run.\n**Action:** add tool 'ratchet plan analyze' to protocol 'greeting'\n\n**Lesson:** Talk to the team about flaky tests.\n**Action:** discuss it in the retro\n";

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-ops-lessons-'));
  mkdirSync(join(dir, 'postmortems'));
  writeFileSync(join(dir, 'postmortems/pm.md'), POSTMORTEM);
  return dir;
}

describe('lessons operations: typed results, the same the commands print', () => {
  test('extract then list: typed lessons with their lines; a second extract adds nothing; list filters by status', async () => {
    const dir = project();
    const ctx = ctxAt(dir);
    const first = await extractLessons(ctx, { postmortem: 'postmortems/pm.md', lessonsFile: LESSONS_FILE, now: '2026-01-02T03:04:05.000Z' });
    expect(first.found.map((f) => [f.lesson.action.command, f.line])).toEqual([['add-tool', 5], ['manual', 8]]);
    expect(first.added).toHaveLength(2);
    expect((await extractLessons(ctx, { postmortem: 'postmortems/pm.md', lessonsFile: LESSONS_FILE, now: '2026-01-02T03:04:05.000Z' })).added).toEqual([]);
    const pending = await listLessons(ctx, { lessonsFile: LESSONS_FILE, status: 'pending' });
    expect(pending.lessons.map((l) => l.action.command)).toEqual(['add-tool']);
    expect(pending.path).toBe(join(dir, LESSONS_FILE));
    // The command prints the same lessons: its JSON is the operation's result.
    const c = io(dir);
    expect(await run(['--json', '--cwd', dir, 'lessons', 'list', '--status', 'pending'], c)).toBe(0);
    expect((JSON.parse(c.out()) as { lessons: unknown[] }).lessons).toEqual(pending.lessons);
  });

  test('a corrupt line is a problem with its line, not an exception; the good lessons still come back', async () => {
    const dir = project();
    await extractLessons(ctxAt(dir), { postmortem: 'postmortems/pm.md', lessonsFile: 'lessons.jsonl', now: '2026-01-02T03:04:05.000Z' });
    const copy = join(dir, 'copy.jsonl');
    writeFileSync(copy, `${readFileSync(join(dir, 'lessons.jsonl'), 'utf8')}{"lesson_id": \n`);
    const r = await listLessons(ctxAt(dir), { lessonsFile: 'copy.jsonl' });
    expect(r.lessons).toHaveLength(2);
    expect(r.problems.map((p) => p.line)).toEqual([3]);
  });

  test('resolve is a person\'s decision: refused for the agent, whatever face calls it; an unknown id is named', async () => {
    const dir = project();
    const first = await extractLessons(ctxAt(dir), { postmortem: 'postmortems/pm.md', lessonsFile: LESSONS_FILE, now: '2026-01-02T03:04:05.000Z' });
    const manual = first.added.find((l) => l.status === 'manual')!;
    const input = { lessonsFile: LESSONS_FILE, lessonId: manual.lesson_id, note: 'discussed', now: '2026-01-03T00:00:00.000Z' };
    await expect(resolveLesson(ctxAt(dir, { RATCHET_ACTOR: 'agent' }), input)).rejects.toMatchObject({ code: 'actor-pinned' });
    expect((await listLessons(ctxAt(dir), { lessonsFile: LESSONS_FILE, status: 'manual' })).lessons).toHaveLength(1);
    await expect(resolveLesson(ctxAt(dir), { ...input, lessonId: 'lesson-nope' })).rejects.toMatchObject({ code: 'unknown-lesson' });
    expect((await resolveLesson(ctxAt(dir), input)).status).toBe('resolved');
  });
});

describe("the edge: commander's options into typed inputs", () => {
  test('defaults, repeatable options and flags', () => {
    expect(listInput([], {})).toEqual({ lessonsFile: LESSONS_FILE, status: undefined });
    expect(applyInput([], { id: ['a', 'b'], dryRun: true, protocols: 'p' })).toMatchObject({ ids: ['a', 'b'], dryRun: true, applyCode: false, retryFailed: false, protocolsDir: 'p', lessonsFile: LESSONS_FILE });
    expect(extractInput(['pm.md'], { task: 'T-9' })).toMatchObject({ postmortem: 'pm.md', taskId: 'T-9' });
    expect(resolveInput(['lesson-1'], {})).toMatchObject({ lessonId: 'lesson-1', note: '' });
  });

  test('wrong kinds and values are usage errors naming the option; hostile values are not choices', () => {
    const usage = (fn: () => unknown): string => {
      try {
        fn();
      } catch (err) {
        expect(err).toBeInstanceOf(CliError);
        return (err as Error).message;
      }
      throw new Error('expected a usage error');
    };
    expect(usage(() => listInput([], { status: 'bogus' }))).toBe('--status must be one of pending, applied, failed, manual, resolved');
    for (const hostile of ['__proto__', 'constructor', 'pending\n', 'PENDING']) expect(usage(() => choiceOption({ status: hostile }, 'status', ['pending'] as const))).toContain('--status must be one of');
    expect(usage(() => stringOption({ lessons: true }, 'lessons'))).toBe('--lessons takes a value');
    expect(usage(() => stringsOption({ out: 'AGENTS.md' }, 'out'))).toBe('--out takes a value each time it is given');
    expect(usage(() => stringsOption({ dryRun: [1] }, 'dryRun'))).toBe('--dry-run takes a value each time it is given');
    expect(usage(() => resolveInput([], {}))).toBe('missing <lesson_id>');
  });

  test('through the CLI: a bad --status is exit 2 and writes nothing', async () => {
    const dir = project();
    const c = io(dir);
    expect(await run(['--cwd', dir, 'lessons', 'list', '--status', 'bogus'], c)).toBe(2);
  });
});
