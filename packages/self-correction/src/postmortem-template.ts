/**
 * The post-mortem template `ratchet task close` writes. It lives here, next to the parser that reads
 * it back (`extractLessons`) and the check that it was filled in (`checkPostMortem`), so the section
 * headings, the guidance, the examples and the action phrases the template teaches are exactly the
 * ones the parser and the check know: a test extracts the template's own examples, and the check
 * refuses the template's text (guidance or examples) as content.
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

/** One section of the template, and how much a filled-in one must say. */
export interface PostMortemSection {
  /** The heading's text, without the `## `. */
  title: string;
  /** The guidance the template leaves in the section (an HTML comment). */
  guidance: string;
  /**
   * Distinct real words (see substance.ts) the section needs. The lessons section is measured by
   * its lessons instead (each one needs an insight and an action that say something).
   */
  minWords: number;
  lessons?: true;
}

/** The template's sections, in order. */
export const POSTMORTEM_SECTIONS: readonly PostMortemSection[] = [
  { title: '1. Summary', guidance: 'What was the task? What was delivered, and how did it end?', minWords: 3 },
  { title: '2. What Went Well and What Went Wrong', guidance: 'Facts first: what happened, where time went, what broke and why (root cause, not symptom).', minWords: 3 },
  { title: LESSONS_HEADING.slice(3), guidance: '', minWords: 0, lessons: true },
  // "None." is an answer; "x" is not.
  { title: '4. Follow-ups', guidance: 'Open questions, tasks to schedule, people to tell.', minWords: 1 },
];

/** An example lesson the template shows (inside its comment): never a lesson of a task. */
export interface TemplateExample {
  lesson: string;
  action: string;
  /** The fenced diff that follows a code-change action. */
  diff?: string[];
}

export const TEMPLATE_EXAMPLES: readonly TemplateExample[] = [
  { lesson: 'Plans were run before anyone linted them.', action: "add tool 'ratchet plan lint' to protocol 'fdc'" },
  {
    lesson: 'The post-mortem rule did not say where the report goes.',
    action: "update rule 'phase4-post-mortem' in protocol 'fdc' to 'Close the task with `ratchet task close` and fill in the generated post-mortem.'",
  },
  { lesson: 'The old plan validator script is superseded by `ratchet plan lint`.', action: "deprecate tool 'tooling/fdc_cli.py' in protocol 'fdc'" },
  {
    lesson: 'The greeting was wrong.',
    action: "propose code change to 'src/greet.ts'",
    diff: ['--- a/src/greet.ts', '+++ b/src/greet.ts', '@@ -1 +1 @@', "-export const greeting = 'helo';", "+export const greeting = 'hello';"],
  },
];

const LESSONS_GUIDANCE = [
  'Write each lesson as a **Lesson:** line followed by an **Action:** line.',
  '`ratchet lessons extract <this file>` turns them into knowledge_core/lessons.jsonl, and',
  '`ratchet lessons apply` carries the recognised actions out. Recognised action forms:',
];
const LESSONS_CLOSING = ['Any other action is kept as a "manual" lesson for a person to handle; it is shown, never dropped.', 'No lesson ever makes Ratchet run a shell command.'];

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
  const body: string[] = [];
  for (const section of POSTMORTEM_SECTIONS) {
    body.push(`## ${section.title}`, '');
    if (section.lessons === true) body.push('<!--', ...lessonsComment(), '-->', '');
    else body.push(`<!-- ${section.guidance} -->`, '');
  }
  return [`# Post-Mortem: ${taskId}`, '', ...header, '', ...body].join('\n');
}

function lessonsComment(): string[] {
  const examples = TEMPLATE_EXAMPLES.flatMap((e) => ['', `**Lesson:** ${e.lesson}`, `**Action:** ${e.action}`, ...(e.diff === undefined ? [] : ['```diff', ...e.diff, '```'])]);
  return [...LESSONS_GUIDANCE, ...examples, '', ...LESSONS_CLOSING];
}

/**
 * Every line of text the template itself supplies (guidance, examples, closing remarks), as
 * `normaliseLine` gives them: a section whose lines are all among these says nothing of its own.
 */
export function templateLines(): string[] {
  return [...POSTMORTEM_SECTIONS.map((s) => s.guidance).filter((g) => g !== ''), ...lessonsComment().filter((l) => l.trim() !== '')];
}

// A task id or time with a newline in it would break the header (and could forge a heading).
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').trim();
}
