/**
 * The post-mortem template `ratchet task close` writes. It lives here, next to the parser that reads
 * it back (`extractLessons`), so the section heading and the action phrases the template teaches are
 * exactly the ones the parser recognises: a test extracts the template's own examples.
 */

export interface PostMortemTemplateInput {
  taskId: string;
  /** ISO timestamp (or any text) shown in the header; omitted when undefined. */
  startedAt?: string | undefined;
  endedAt?: string | undefined;
  /** E.g. "success", "failure", "abandoned". */
  outcome?: string | undefined;
}

/** Where `ratchet task close` writes post-mortems (postmortems/<task-id>.md) and orientation looks for the last one. */
export const POSTMORTEMS_DIR = 'postmortems';

/** The heading `lessons extract` looks for (variants are accepted too, see `isLessonsHeading`). */
export const LESSONS_HEADING = '## 3. Corrective Actions & Lessons Learned';

/**
 * Renders the Markdown template. Deterministic: no clock is read, the caller passes the times.
 * Examples of each action form sit inside an HTML comment, which the parser skips, so an untouched
 * template yields no lessons.
 */
export function renderPostMortemTemplate(input: PostMortemTemplateInput): string {
  const taskId = oneLine(input.taskId);
  const header = [`- **Task:** \`${taskId}\``];
  if (input.startedAt !== undefined) header.push(`- **Started:** ${oneLine(input.startedAt)}`);
  if (input.endedAt !== undefined) header.push(`- **Ended:** ${oneLine(input.endedAt)}`);
  if (input.outcome !== undefined) header.push(`- **Outcome:** ${oneLine(input.outcome)}`);
  return [
    `# Post-Mortem: ${taskId}`,
    '',
    ...header,
    '',
    '## 1. Summary',
    '',
    '<!-- What was the task? What was delivered, and how did it end? -->',
    '',
    '## 2. What Went Well and What Went Wrong',
    '',
    '<!-- Facts first: what happened, where time went, what broke and why (root cause, not symptom). -->',
    '',
    LESSONS_HEADING,
    '',
    '<!--',
    'Write each lesson as a **Lesson:** line followed by an **Action:** line.',
    '`ratchet lessons extract <this file>` turns them into knowledge_core/lessons.jsonl, and',
    '`ratchet lessons apply` carries the recognised actions out. Recognised action forms:',
    '',
    '**Lesson:** Plans were run before anyone linted them.',
    "**Action:** add tool 'ratchet plan lint' to protocol 'fdc'",
    '',
    '**Lesson:** The post-mortem rule did not say where the report goes.',
    "**Action:** update rule 'phase4-post-mortem' in protocol 'fdc' to 'Close the task with `ratchet task close` and fill in the generated post-mortem.'",
    '',
    '**Lesson:** The old plan validator script is superseded by `ratchet plan lint`.',
    "**Action:** deprecate tool 'tooling/fdc_cli.py' in protocol 'fdc'",
    '',
    '**Lesson:** The greeting was wrong.',
    "**Action:** propose code change to 'src/greet.ts'",
    '```diff',
    '--- a/src/greet.ts',
    '+++ b/src/greet.ts',
    '@@ -1 +1 @@',
    "-export const greeting = 'helo';",
    "+export const greeting = 'hello';",
    '```',
    '',
    'Any other action is kept as a "manual" lesson for a person to handle; it is shown, never dropped.',
    'No lesson ever makes Ratchet run a shell command.',
    '-->',
    '',
    '## 4. Follow-ups',
    '',
    '<!-- Open questions, tasks to schedule, people to tell. -->',
    '',
  ].join('\n');
}

// A task id or time with a newline in it would break the header (and could forge a heading).
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').trim();
}
