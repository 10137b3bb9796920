/**
 * The gate out of self-correction (`ratchet task submit`), through the built binary, against the
 * shortcuts an agent takes (issue 29): a post-mortem of "x"s, the template's own text, a lesson set to
 * "applied" by hand (in place, or with the digest record removed too). Each is refused with what is
 * missing, and the task stays where it was; the honest path still reaches DONE.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fillPostMortem, ratchet, tempDir } from '../helpers.js';

const LONG = { timeout: 120_000 };

/** A project with one task closed: postmortems/T-1.md is the template `task close` wrote. */
function closedTask(): string {
  const dir = tempDir('ratchet-gate-');
  expect(ratchet(['init', '--quiet'], { cwd: dir }).status).toBe(0);
  mkdirSync(join(dir, 'plans'));
  writeFileSync(join(dir, 'plans/main.txt'), 'set_plan main\nplan_step_complete go\nlist_files src\nrun_in_bash_session close\n');
  expect(ratchet(['task', 'start', '--task-id', 'T-1', '--no-network'], { cwd: dir }).status).toBe(0);
  expect(ratchet(['run', 'plan', 'plans/main.txt'], { cwd: dir }).status).toBe(0);
  for (let i = 0; i < 4; i++) expect(ratchet(['run', 'done'], { cwd: dir }).status).toBe(0);
  expect(ratchet(['task', 'close', '--task-id', 'T-1'], { cwd: dir }).status).toBe(0);
  return dir;
}

const pmPath = (dir: string): string => join(dir, 'postmortems/T-1.md');
const state = (dir: string): string => (JSON.parse(readFileSync(join(dir, '.ratchet/session.json'), 'utf8')) as { state: string }).state;
const submit = (dir: string) => ratchet(['--json', 'task', 'submit', '--task-id', 'T-1'], { cwd: dir });
const missing = (r: { stdout: string }): { code: string; what: string }[] => (JSON.parse(r.stdout) as { missing: { code: string; what: string }[] }).missing;

/** A lesson that changes a protocol Ratchet's init wrote, so apply has something to record. */
const PROTOCOL_LESSON = "**Lesson:** Block-grammar plans were hard to review.\n**Action:** add tool 'ratchet plan fmt' to protocol 'fdc'";

describe('task submit refuses the self-correction shortcuts', () => {
  test('"x" in every section and "Lesson: x / Action: y": refused, every thin section and the empty lesson named; still POST_MORTEM', LONG, () => {
    const dir = closedTask();
    const template = readFileSync(pmPath(dir), 'utf8');
    const xs = template
      .replace('<!-- What was the task?', 'x\n<!--')
      .replace('<!-- Facts first', 'x\n<!--')
      .replace('<!--\nWrite each lesson', '**Lesson:** x\n**Action:** y\n\n<!--\nWrite each lesson')
      .replace('<!-- Open questions', 'x\n<!--');
    writeFileSync(pmPath(dir), xs);
    const r = submit(dir);
    expect(r.status).toBe(1);
    const gaps = missing(r);
    expect(gaps.map((g) => g.code)).toEqual(['postmortem-section-thin', 'postmortem-section-thin', 'postmortem-section-thin', 'no-lessons']);
    expect(gaps.map((g) => g.what).join('\n')).toContain('section "1. Summary" says too little');
    expect(gaps.at(-1)!.what).toContain('the lesson "x" says too little');
    expect(gaps.at(-1)!.what).toContain('the action "y" says too little');
    expect(state(dir)).toBe('POST_MORTEM');
    // The same in the text output: each gap and the command that closes it.
    const text = ratchet(['task', 'submit', '--task-id', 'T-1'], { cwd: dir });
    expect(text.stderr).toContain('postmortems/T-1.md: section "4. Follow-ups" says too little');
  });

  test("the template's own guidance and examples with the comment markers removed are no post-mortem", LONG, () => {
    const dir = closedTask();
    writeFileSync(pmPath(dir), readFileSync(pmPath(dir), 'utf8').replace(/<!--\s?|\s?-->/g, ''));
    const r = submit(dir);
    expect(r.status).toBe(1);
    const gaps = missing(r);
    expect(gaps.filter((g) => g.code === 'postmortem-section-thin').map((g) => g.what)).toHaveLength(3);
    expect(gaps.find((g) => g.code === 'no-lessons')?.what).toContain("is the template's example, not a lesson of this task");
    expect(state(dir)).toBe('POST_MORTEM');
  });

  test('a lesson set to "applied" by hand in lessons.jsonl: refused (exit 2, the file named); a person restores it; apply then submit reaches DONE', LONG, () => {
    const dir = closedTask();
    writeFileSync(pmPath(dir), fillPostMortem(readFileSync(pmPath(dir), 'utf8'), PROTOCOL_LESSON));
    expect(ratchet(['lessons', 'extract', 'postmortems/T-1.md'], { cwd: dir }).status).toBe(0);
    const lessons = join(dir, 'knowledge_core/lessons.jsonl');
    const extracted = readFileSync(lessons, 'utf8');
    writeFileSync(lessons, extracted.replace('"status":"pending"', '"status":"applied"'));
    const r = submit(dir);
    expect(r.status).toBe(2);
    expect(r.stdout).toContain('changed outside Ratchet');
    expect(r.stdout).toContain('knowledge_core/lessons.jsonl');
    expect(state(dir)).not.toBe('DONE');
    expect(ratchet(['doctor', '--restore', 'knowledge_core/lessons.jsonl'], { cwd: dir }).status).toBe(0);
    expect(ratchet(['lessons', 'apply'], { cwd: dir }).status).toBe(0);
    const ok = submit(dir);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(state(dir)).toBe('DONE');
    // The applied lesson carries what apply changed: the protocol file and its digests.
    const lesson = JSON.parse(readFileSync(lessons, 'utf8').trim()) as { history: { status: string; changes?: { file: string; before: string; after: string }[] }[] };
    expect(lesson.history.at(-1)).toMatchObject({ status: 'applied', changes: [{ file: 'protocols/04-fdc.protocol.json' }] });
  });

  test('the digest record removed too, then "applied" by hand: the lessons file is not Ratchet\'s and the lesson has no application record', LONG, () => {
    const dir = closedTask();
    writeFileSync(pmPath(dir), fillPostMortem(readFileSync(pmPath(dir), 'utf8'), PROTOCOL_LESSON));
    expect(ratchet(['lessons', 'extract', 'postmortems/T-1.md'], { cwd: dir }).status).toBe(0);
    const lessons = join(dir, 'knowledge_core/lessons.jsonl');
    const forged = readFileSync(lessons, 'utf8').replace('"status":"pending"', '"status":"applied"');
    rmSync(`${lessons}.digest`);
    rmSync(`${lessons}.prev`);
    writeFileSync(lessons, forged);
    // The store's journal (outside the project) knows Ratchet wrote the file: the edit reads as tampering.
    const stateBefore = state(dir);
    const caught = submit(dir);
    expect(caught.status).toBe(2);
    expect(caught.stdout + caught.stderr).toContain('lessons.jsonl');
    expect(caught.stdout + caught.stderr).toContain('changed outside Ratchet');
    expect(state(dir)).toBe(stateBefore);
    // Without the journal (RATCHET_JOURNAL=off), the substance checks still refuse it.
    const r = ratchet(['--json', 'task', 'submit', '--task-id', 'T-1'], { cwd: dir, env: { RATCHET_JOURNAL: 'off' } });
    expect(r.status).toBe(1);
    const gaps = missing(r);
    // (AGENTS.md was never compiled in this project: a lesson that claims to have changed a protocol makes that a gap too.)
    expect(gaps.map((g) => g.code)).toEqual(['lessons-untracked', 'lessons-unproven', 'agents-stale']);
    expect(gaps[1]!.what).toContain('marked applied without the record `ratchet lessons apply` writes');
    expect(state(dir)).toBe('SELF_CORRECTING');
  });

  test('applied by `lessons apply`, then the change undone by hand in the protocol: the lesson is unproven', LONG, () => {
    const dir = closedTask();
    writeFileSync(pmPath(dir), fillPostMortem(readFileSync(pmPath(dir), 'utf8'), PROTOCOL_LESSON));
    expect(ratchet(['lessons', 'extract', 'postmortems/T-1.md'], { cwd: dir }).status).toBe(0);
    expect(ratchet(['lessons', 'apply'], { cwd: dir }).status).toBe(0);
    const protocol = join(dir, 'protocols/04-fdc.protocol.json');
    const applied = readFileSync(protocol, 'utf8');
    expect(applied).toContain('"ratchet plan fmt"');
    writeFileSync(protocol, applied.replace(/,?\s*"ratchet plan fmt"/, ''));
    expect(ratchet(['protocol', 'compile'], { cwd: dir }).status).toBe(0);
    const r = submit(dir);
    expect(r.status).toBe(1);
    expect(missing(r)).toEqual([expect.objectContaining({ code: 'lessons-unproven', what: expect.stringContaining('does not list tool "ratchet plan fmt"') as string })]);
  });
});
