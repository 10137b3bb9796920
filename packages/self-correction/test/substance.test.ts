/**
 * A post-mortem is judged by what it says, not its shape: real words per section, the template's
 * own text and placeholders not counted, lessons that say nothing refused (issue 29: "x" in every
 * section and `Lesson: x / Action: y` was submitted to DONE).
 */
import { describe, expect, test } from 'vitest';
import { LESSON_MIN_WORDS, POSTMORTEM_SECTIONS, checkPostMortem, extractLessons, isBracketPlaceholder, realWords, renderPostMortemTemplate, templateLines } from '../src/index.js';
import { refusal } from './support.js';

const NOW = '2030-01-02T03:04:05.000Z';
const template = renderPostMortemTemplate({ taskId: 'T-1', startedAt: 'S', endedAt: 'E', outcome: 'success' });

/** The template with each section's comment preceded by `text[i]`. */
function fill(texts: { summary: string; went: string; lessons: string; followUps: string }): string {
  return template
    .replace('<!-- What was the task?', `${texts.summary}\n<!--`)
    .replace('<!-- Facts first', `${texts.went}\n<!--`)
    .replace('<!--\nWrite each lesson', `${texts.lessons}\n\n<!--\nWrite each lesson`)
    .replace('<!-- Open questions', `${texts.followUps}\n<!--`);
}

const GOOD = {
  summary: 'Added the greeting module and its tests; the task ended as planned.',
  went: 'Planning went quickly; the first plan failed lint because a file was read before it existed.',
  lessons: "**Lesson:** Plans were run before anyone linted them.\n**Action:** add tool 'ratchet plan lint' to protocol 'fdc'".replace('Plans were run before anyone linted them', 'Our plan read a file before creating it'),
  followUps: 'None.',
};

describe('real words', () => {
  test('letters in words of two or more, not one letter repeated; scripts without spaces count per word; markdown is no content', () => {
    expect(realWords('x')).toEqual([]);
    expect(realWords('x y z xx zzz')).toEqual([]);
    expect(realWords('It went to plan.')).toEqual(['it', 'went', 'to', 'plan']);
    expect(realWords('the THE The')).toEqual(['the']);
    expect(realWords('**Lesson:** `ratchet plan lint`')).toEqual(['lesson', 'ratchet', 'plan', 'lint']);
    expect(realWords('<!-- hidden comment --> [a link](https://example.com/very/long/path)')).toEqual(['link']);
    expect(realWords('计划在运行前没有检查').length).toBeGreaterThanOrEqual(3);
    expect(realWords('\u0000\u0001 \uFEFF')).toEqual([]);
  });

  test('bracketed slots are placeholders; a link is not', () => {
    expect(isBracketPlaceholder('[Description of the corrective action]')).toBe(true);
    expect(isBracketPlaceholder('`[TASK_ID]`')).toBe(true);
    expect(isBracketPlaceholder('[High | Medium | Low]')).toBe(true);
    expect(isBracketPlaceholder('See [the docs](https://x.y) for more')).toBe(false);
    expect(isBracketPlaceholder('Fix [the bug] in the parser')).toBe(false);
  });
});

describe('checkPostMortem', () => {
  test('the untouched template: every section is empty', () => {
    expect(checkPostMortem(template).map((p) => [p.code, p.section])).toEqual(POSTMORTEM_SECTIONS.map((s) => ['section-empty', s.title]));
  });

  test('the shortcut: "x" in every section is refused, each section named with what it lacks', () => {
    const problems = checkPostMortem(fill({ summary: 'x', went: 'x', lessons: '**Lesson:** x\n**Action:** y', followUps: 'x' }));
    expect(problems.map((p) => [p.code, p.section])).toEqual([
      ['section-thin', '1. Summary'],
      ['section-thin', '2. What Went Well and What Went Wrong'],
      ['section-thin', '4. Follow-ups'],
    ]);
    expect(problems[0]!.message).toBe(
      'section "1. Summary" says too little: 0 real words of its own, at least 3 needed ("x", placeholders and the template\'s guidance do not count)',
    );
    // ...and its lessons say nothing either: extraction refuses both the lesson and the action, at their line.
    const err = refusal(() => extractLessons(fill({ ...GOOD, lessons: '**Lesson:** x\n**Action:** y' }), { path: 'pm.md', now: NOW }));
    expect(err.code).toBe('no-substance');
    expect(err.diagnostics?.map((d) => d.message)).toEqual([
      `section "3. Corrective Actions & Lessons Learned": the lesson "x" says too little (0 real words; at least ${LESSON_MIN_WORDS}): write what was learned`,
      `section "3. Corrective Actions & Lessons Learned": the action "y" says too little (0 real words; at least ${LESSON_MIN_WORDS}): write what will change, or a recognised action`,
    ]);
    const md = fill({ ...GOOD, lessons: '**Lesson:** x\n**Action:** y' });
    expect(err.line).toBe(md.split('\n').indexOf('**Lesson:** x') + 1);
  });

  test("the template's own guidance with its comment markers removed is no content; nor are bracketed placeholders", () => {
    const uncommented = template.replace('<!-- What was the task? What was delivered, and how did it end? -->', 'What was the task? What was delivered, and how did it end?');
    expect(checkPostMortem(uncommented)[0]).toMatchObject({ code: 'section-thin', section: '1. Summary', message: expect.stringContaining("only the template's text or placeholders") as string });
    const slots = fill({ ...GOOD, summary: '[Summary of the task]' });
    expect(checkPostMortem(slots).map((p) => p.section)).toEqual(['1. Summary']);
  });

  test('a filled-in post-mortem passes; "None." is an answer for follow-ups; a renumbered or emphasised heading is the same section', () => {
    const good = fill(GOOD);
    expect(checkPostMortem(good)).toEqual([]);
    expect(extractLessons(good, { path: 'pm.md', now: NOW, strict: true }).lessons).toHaveLength(1);
    expect(checkPostMortem(good.replace('## 1. Summary', '## **Summary**'))).toEqual([]);
  });

  test('a deleted section is missing; a section a person added must not be empty', () => {
    const cut = fill(GOOD).replace(/## 2\. What Went Well[\s\S]*?(?=## 3\.)/, '');
    expect(checkPostMortem(cut).map((p) => [p.code, p.section])).toEqual([['section-missing', '2. What Went Well and What Went Wrong']]);
    const extra = fill(GOOD).replace('## 4. Follow-ups', '## 3b. Timeline\n\n<!-- later -->\n\n## 4. Follow-ups');
    expect(checkPostMortem(extra).map((p) => [p.code, p.section])).toEqual([['section-empty', '3b. Timeline']]);
  });

  test('CRLF, a BOM and a huge section do not change the verdict', () => {
    expect(checkPostMortem(`\uFEFF${fill(GOOD).replace(/\n/g, '\r\n')}`)).toEqual([]);
    const huge = fill({ ...GOOD, went: 'word '.repeat(200_000) });
    expect(checkPostMortem(huge).map((p) => p.section)).toEqual(['2. What Went Well and What Went Wrong']);
  });

  test('every template line is known to the check (so a copied line never counts)', () => {
    for (const line of templateLines()) expect(template).toContain(line);
  });
});

describe('strict extraction (what task submit asks)', () => {
  test('a lesson without an action, or an action without a lesson, is refused; lenient extraction keeps it as manual', () => {
    const md = fill({
      ...GOOD,
      lessons: '**Lesson:** The plan never read the file it changed.\n\n**Lesson:** Reviews waited two days for the release team.\n**Action:** ask the release team about faster reviews\n\n- keep a log of review wait times',
    });
    expect(extractLessons(md, { path: 'pm.md', now: NOW }).lessons.map((l) => [l.insight !== '', l.action.command])).toEqual([
      [true, 'manual'],
      [true, 'manual'],
      [false, 'manual'],
    ]);
    const err = refusal(() => extractLessons(md, { path: 'pm.md', now: NOW, strict: true }));
    expect(err.diagnostics?.map((d) => d.message)).toEqual([
      'section "3. Corrective Actions & Lessons Learned": the lesson "The plan never read the file it changed." has no **Action:**: say what changes (or name the protocol edit)',
      'section "3. Corrective Actions & Lessons Learned": a lesson has no **Lesson:** text: say what was learned',
    ]);
  });
});
