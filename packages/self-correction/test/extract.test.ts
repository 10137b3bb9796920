import { describe, expect, test } from 'vitest';
import { extractLessons, isLessonsHeading, LESSONS_HEADING, parseAction, renderPostMortemTemplate, TEMPLATE_EXAMPLES, type LessonsError } from '../src/index.js';
import { NOW, postMortem } from './support.js';

const extract = (md: string, taskId?: string) => extractLessons(md, { path: 'pm.md', now: NOW, taskId });

describe('renderPostMortemTemplate', () => {
  test('header fields, the lessons heading, and no lessons from an untouched template', () => {
    const text = renderPostMortemTemplate({ taskId: 'task-7', startedAt: 'S', endedAt: 'E', outcome: 'success' });
    expect(text).toContain('# Post-Mortem: task-7');
    expect(text).toContain('- **Task:** `task-7`');
    expect(text).toContain('- **Outcome:** success');
    expect(text).toContain(`\n${LESSONS_HEADING}\n`);
    const result = extract(text);
    expect(result.taskId).toBe('task-7');
    expect(result.lessons).toEqual([]);
    expect(renderPostMortemTemplate({ taskId: 'x' })).not.toContain('Started');
  });

  test("the template's commented examples are exactly the four recognised actions, and, uncommented, are no lessons of a task", () => {
    // The examples sit between "Recognised action forms:" and the closing remark, inside the comment.
    const template = renderPostMortemTemplate({ taskId: 'task-7' });
    const examples = template.slice(template.indexOf('Recognised action forms:') + 24, template.indexOf('Any other action'));
    const text = template.replace(/<!--\nWrite each lesson[\s\S]*?-->/, examples);
    // The shortcut: take the comment markers away and submit the template's own examples.
    expect(() => extract(text)).toThrow(/is the template's example, not a lesson of this task \(and 3 more\)/);
    // The same actions with the task's own lessons are read as the four recognised actions.
    const own = TEMPLATE_EXAMPLES.reduce((t, e, i) => t.replace(`**Lesson:** ${e.lesson}`, `**Lesson:** our own lesson number ${i} here`), text);
    const lessons = extract(own).lessons;
    expect(lessons.map((l) => l.action.command)).toEqual(['add-tool', 'update-rule', 'deprecate-tool', 'propose-code-change']);
    expect(lessons[0]!.action.parameters).toEqual({ protocol_id: 'fdc', tool: 'ratchet plan lint' });
    expect(lessons[1]!.action.parameters).toMatchObject({ protocol_id: 'fdc', rule_id: 'phase4-post-mortem' });
    expect((lessons[1]!.action.parameters as { description: string }).description).toContain('`ratchet task close`');
    expect(lessons[3]!.action.parameters).toMatchObject({ filepath: 'src/greet.ts' });
    expect((lessons[3]!.action.parameters as { diff: string }).diff).toContain("+export const greeting = 'hello';");
  });

  test('a task id with a newline cannot forge a heading', () => {
    const text = renderPostMortemTemplate({ taskId: 'a\n## 3. Corrective Actions & Lessons Learned\n**Lesson:** x' });
    expect(text.match(/^## 3\. Corrective/gm)).toHaveLength(1);
  });
});

describe('extractLessons', () => {
  test('only the section is read; pairs in order with source lines; ids stable', () => {
    const md = postMortem("**Lesson:** the first lesson\n**Action:** add tool 'ratchet plan lint' to protocol 'fdc'\n\n**Lesson:** the second lesson\n**Action:** deprecate tool \"old.py\" from protocol `fdc`");
    const result = extract(md);
    expect(result.lessons.map((l) => l.insight)).toEqual(['the first lesson', 'the second lesson']);
    expect(result.lessons[1]!.action).toEqual({ type: 'UPDATE_PROTOCOL', command: 'deprecate-tool', parameters: { protocol_id: 'fdc', tool: 'old.py' } });
    expect(result.lines).toEqual([12, 15]);
    expect(Object.keys(result.lessons[0]!)).toEqual(['lesson_id', 'task_id', 'date', 'insight', 'action', 'status', 'history']);
    expect(Object.keys(result.lessons[0]!.action)).toEqual(['type', 'command', 'parameters']);
    expect(result.lessons[0]).toMatchObject({ task_id: 't1', date: '2030-01-02', status: 'pending' });
    expect(result.lessons[0]!.history).toEqual([{ status: 'pending', time: NOW, reason: 'extracted from pm.md:12' }]);
    expect(extract(md).lessons.map((l) => l.lesson_id)).toEqual(result.lessons.map((l) => l.lesson_id));
    expect(extract(md, 'other').lessons[0]!.lesson_id).not.toBe(result.lessons[0]!.lesson_id);
  });

  test.each([
    '## 3. Corrective Actions & Lessons Learned',
    '### Corrective Actions and Lessons Learned',
    '## Lessons Learned',
    '## 3) Lessons learned & corrective actions',
    '## 4.1 Corrective actions / lessons learned:',
    '## 5. Proposed Corrective Actions',
    '#### Corrective Actions',
  ])('heading variant %s', (heading) => {
    expect(isLessonsHeading(heading.replace(/^#+\s*/, ''))).toBe(true);
    expect(extract(postMortem("**Lesson:** plans ran unlinted\n**Action:** add tool 'a' to protocol 'b'", heading)).lessons).toHaveLength(1);
  });

  test('formats: list items, colon outside the bold, plain labels, wrapped lines, nested lists', () => {
    const md = postMortem(
      [
        "- **Lesson:** written in a list",
        "  **Action:** add tool 'a' to protocol 'p'",
        '',
        '- **Lesson**: the colon outside',
        "- **Action**: update rule 'r' in protocol 'p' to 'It's fine: quotes inside',",
        '',
        'Lesson: plain label that',
        'wraps onto a second line',
        "Action: update rule 'r2' in protocol 'p' to \"two",
        'lines"',
      ].join('\n'),
    );
    const lessons = extract(md).lessons;
    expect(lessons.map((l) => l.insight)).toEqual(['written in a list', 'the colon outside', 'plain label that wraps onto a second line']);
    expect(lessons[1]!.action.command).toBe('manual'); // trailing comma: not the documented phrase
    expect(lessons[2]!.action.parameters).toEqual({ protocol_id: 'p', rule_id: 'r2', description: 'two lines' });
  });

  test("the original's formats: numbered items, an action without a lesson label, unlabelled items, both labels on one line", () => {
    const md = [
      '# Post-Mortem Report',
      '',
      '**Task ID:** `feature/knowledge-compiler`',
      '**Completion Date:** `2025-10-07`',
      '',
      '## 5. Proposed Corrective Actions',
      '',
      "1.  **Lesson:** Plans ran unlinted.",
      "    **Action:** add tool 'ratchet plan lint' to protocol 'fdc'",
      "2.  The old validator is superseded. **Action:** deprecate tool 'tooling/fdc_cli.py' from protocol 'fdc'",
      "3.  Add tool 'ratchet plan analyze' to protocol 'fdc'",
      '4.  Talk to the team about reviews',
      '',
      "**Lesson:** all on one line **Action:** update rule 'r' in protocol 'fdc' to 'Lint first.'",
      '',
      '---',
    ].join('\n');
    const result = extractLessons(md, { path: 'pm.md', now: NOW });
    expect(result.taskId).toBe('feature/knowledge-compiler');
    expect(result.lessons.map((l) => l.date)).toEqual(Array(5).fill('2025-10-07'));
    expect(result.lessons.map((l) => [l.insight, l.action.command])).toEqual([
      ['Plans ran unlinted.', 'add-tool'],
      ['The old validator is superseded.', 'deprecate-tool'],
      ['', 'add-tool'],
      ['', 'manual'],
      ['all on one line', 'update-rule'],
    ]);
    expect(result.lessons[3]!.action.parameters).toEqual({ text: 'Talk to the team about reviews' });
    expect(result.lines).toEqual([8, 10, 11, 12, 14]);
  });

  test('an unlabelled list right after a lesson continues it; one after a complete pair stands alone', () => {
    const lessons = extract(
      postMortem("**Lesson:** Two things hurt:\n\n- flaky tests\n- slow CI\n\n**Action:** add tool 'ratchet plan lint' to protocol 'fdc'\n\n- also: call the vendor"),
    ).lessons;
    expect(lessons.map((l) => [l.insight, l.action.command])).toEqual([
      ['Two things hurt: flaky tests slow CI', 'add-tool'],
      ['', 'manual'],
    ]);
  });

  test('every matching section is read, a nested heading is not read twice', () => {
    const md =
      '# PM\n\n## Lessons Learned\n\n**Lesson:** we learned lesson a\n**Action:** do the thing x\n\n### Corrective actions\n\n**Lesson:** we learned lesson b\n**Action:** do the thing y\n\n## Notes\n\n**Lesson:** not read\n\n## Corrective Actions\n\n- do the thing z\n';
    expect(extract(md).lessons.map((l) => l.insight || l.action.parameters)).toEqual(['we learned lesson a', 'we learned lesson b', { text: 'do the thing z' }]);
  });

  test("update-rule descriptions may contain the quote character", () => {
    expect(parseAction("update rule 'r' in protocol 'p' to 'don't stop'")).toMatchObject({ parameters: { description: "don't stop" } });
  });

  test('unrecognised actions, a lesson without action, a code change without diff: manual, never dropped', () => {
    const lessons = extract(postMortem("**Lesson:** we learned lesson a\n**Action:** talk to the team\n\n**Lesson:** we learned lesson b\n\n**Lesson:** we learned lesson c\n**Action:** propose code change to 'x.ts'")).lessons;
    expect(lessons.map((l) => [l.insight, l.action.command, l.status])).toEqual([
      ['we learned lesson a', 'manual', 'manual'],
      ['we learned lesson b', 'manual', 'manual'],
      ['we learned lesson c', 'manual', 'manual'],
    ]);
    expect((lessons[1]!.action.parameters as { note?: string }).note).toContain('no **Action:**');
    expect((lessons[2]!.action.parameters as { note?: string }).note).toContain('diff');
  });

  test('a lesson asking for a shell command is just a manual lesson', () => {
    const lessons = extract(postMortem('**Lesson:** clean up the tree\n**Action:** run `rm -rf /` in the shell')).lessons;
    expect(lessons[0]!.action).toEqual({ type: 'MANUAL', command: 'manual', parameters: { text: 'run `rm -rf /` in the shell' } });
  });

  test('CRLF and BOM; HTML comments skipped; task id from the file name when the header has none', () => {
    const md = "\uFEFF## Lessons Learned\r\n\r\n<!-- **Lesson:** hidden\r\n**Action:** add tool 'h' to protocol 'p' -->\r\n\r\n**Lesson:** this one is shown\r\n**Action:** add tool 'a' to protocol 'p'\r\n";
    const result = extractLessons(md, { path: 'dir/task-9.md', now: NOW });
    expect(result.taskId).toBe('task-9');
    expect(result.lessons.map((l) => l.insight)).toEqual(['this one is shown']);
  });

  test('no section: a clear error naming the file', () => {
    try {
      extract('# Post-mortem\n\n## Summary\n\n**Lesson:** x\n');
      throw new Error('expected failure');
    } catch (err) {
      expect((err as LessonsError).code).toBe('no-section');
      expect((err as LessonsError).path).toBe('pm.md');
    }
  });

  test('containers: a quoted lesson over several lines, ordered items, a bare item continuing a lesson, an emphasised heading', () => {
    const md = [
      '# Post-mortem',
      '',
      '## **3. Corrective Actions & Lessons Learned**',
      '',
      '> **Lesson:** the quoted insight',
      '> wraps onto a second line.',
      "> **Action:** add tool 'q' to protocol 'p'",
      '',
      "1. **Lesson:** the numbered one **Action:** add tool 'n1' to protocol 'p'",
      '2. Lesson: the numbered two',
      "   Action: deprecate tool 'n2' in protocol 'p'",
      '',
      '**Lesson:** an insight whose paragraph ends early',
      '',
      '- and continues in a bare item',
      '',
      '**Action:** do it by hand',
      '',
      '## Next',
      '**Lesson:** not in the section',
    ].join('\n');
    const result = extract(md);
    expect(result.heading).toBe('3. Corrective Actions & Lessons Learned');
    expect(result.lessons.map((l) => [l.insight, l.action.command])).toEqual([
      ['the quoted insight wraps onto a second line.', 'add-tool'],
      ['the numbered one', 'add-tool'],
      ['the numbered two', 'deprecate-tool'],
      ['an insight whose paragraph ends early and continues in a bare item', 'manual'],
    ]);
    expect(result.lines).toEqual([5, 9, 10, 13]);
  });

  // Parsing takes well under a millisecond per lesson; the CLI caps post-mortems at 1 MiB.
  test('large and binary-ish input does not break it', () => {
    const many = Array.from({ length: 300 }, (_, i) => `**Lesson:** lesson number ${i} learned\n**Action:** add tool 't${i}' to protocol 'p'`).join('\n\n');
    expect(extract(postMortem(many)).lessons).toHaveLength(300);
    // Control characters: no label is found, or the lesson is refused for saying nothing; never a crash.
    let outcome: unknown;
    try {
      outcome = extract(postMortem('\u0000\u0001**Lesson:** x')).lessons.length;
    } catch (err) {
      outcome = (err as LessonsError).code;
    }
    expect([0, 'no-substance']).toContain(outcome);
  });
});
