/**
 * Post-mortem -> lessons. Reads every "Corrective Actions & Lessons Learned" section (any heading
 * level, numbered or not, "&" / "and" / "/", "Lessons Learned" alone, "Proposed Corrective Actions"
 * as the original's later template had it, "Lessons Learned & Action Items", "Generation of
 * Structured Lessons") and, in document order:
 *
 * - Lesson/Action pairs (bold, bold with the colon outside, plain labels, numbered
 *   "Lesson 2:", a titled `**Lesson 1: Title.** text`, in list items, wrapped lines, both on one line);
 * - an item with only an Action label takes the text before it as its lesson (the original's form);
 * - a list item with no label at all is an action of its own in a corrective-actions section, a
 *   lesson of its own in a lessons-learned section, unless it continues a lesson still waiting for
 *   its action;
 * - a fenced ```json block of lesson objects (the original's JSON-block and structured templates),
 *   in any shape a lessons.jsonl line may take (original-lesson.ts).
 *
 * Recognised action phrases become protocol edits or code changes; anything else becomes a `manual`
 * lesson, shown to a person and never dropped. HTML comments (the template's examples) are skipped.
 *
 * A lesson must say something: a template placeholder (`[Description of the corrective action]`),
 * the template's own text or examples, or a lesson or action of fewer than LESSON_MIN_WORDS real
 * words ("x", "y") is refused, every such lesson at its line with its section, and nothing is
 * extracted (substance.ts). With `strict` (what `task submit` asks), every lesson also needs both
 * its text and its action.
 *
 * The task id and date come from the report a section belongs to (a file may hold several, each
 * under its own `#` title): `**Task:**` / `**Task ID:**` (the colon inside or outside the bold) with
 * an id (in backticks, or one word: a sentence is a title, not an id), else a `Task 'id'` title,
 * `**Completion Date:**` / `**Ended:**` / `**Task Completed:**`; else the file name and the clock.
 * Pure: the clock and the file name come from the caller.
 */
import { basename } from 'node:path';
import { headingText, parseMarkdownTree, type MdNode } from './markdown-tree.js';
import { LessonsError } from './errors.js';
import { parseJson } from '@ratchet/store';
import { lessonId, parseAction } from './action-phrase.js';
import { checkLesson } from './check-lesson.js';
import { readOriginalLesson } from './original-lesson.js';
import { TEMPLATE_EXAMPLES, templateLines } from './postmortem-template.js';
import { LESSON_MIN_WORDS, isBracketPlaceholder, normaliseLine, wordCount } from './substance.js';
import type { Lesson, LessonAction } from './types.js';

export interface ExtractOptions {
  /** Names the post-mortem in errors and in each lesson's first history entry. */
  path?: string;
  /** Overrides the task id found in the post-mortem header (`**Task:** \`id\``) or its file name. */
  taskId?: string | undefined;
  /** ISO time of extraction (the injected clock); `date` is its day unless the header has one. */
  now: string;
  /** Every lesson needs both its text and its action (the post-mortem of a task being submitted). */
  strict?: boolean;
}

export interface ExtractResult {
  taskId: string;
  /** Heading text of the (first) section that was read. */
  heading: string;
  lessons: Lesson[];
  /** The line each lesson starts on, by position in `lessons`. */
  lines: number[];
}

const HEADING =
  /^(?:\d+(?:\.\d+)*[.)]?\s*)?(?:(?:proposed\s+)?corrective\s+actions?(?:\s*(?:&|and|\/)\s*lessons?\s+learned)?|lessons?\s+learned(?:\s*(?:&|and|\/)\s*(?:corrective\s+actions?|action\s+items?))?|(?:generation\s+of\s+)?structured\s+lessons)\s*:?$/i;

/** True for the headings `extractLessons` accepts. */
export function isLessonsHeading(text: string): boolean {
  return HEADING.test(text.trim());
}

/** What an unlabelled list item in a section is: an action (corrective actions), a lesson (lessons learned), or either. */
type SectionKind = 'actions' | 'lessons' | 'both';

function sectionKind(heading: string): SectionKind {
  const lessons = /lessons?/i.test(heading);
  const actions = /actions?/i.test(heading);
  return lessons && !actions ? 'lessons' : actions && !lessons ? 'actions' : 'both';
}

export function extractLessons(markdown: string, options: ExtractOptions): ExtractResult {
  const path = options.path ?? '<post-mortem>';
  const text = markdown.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const tree = parseMarkdownTree(text);
  const sections: { heading: MdNode; nodes: MdNode[] }[] = [];
  for (let i = 0; i < tree.children.length; i++) {
    const node = tree.children[i]!;
    if (node.type !== 'heading' || !isLessonsHeading(headingText(node))) continue;
    const nodes: MdNode[] = [];
    while (i + 1 < tree.children.length) {
      const next = tree.children[i + 1]!;
      if (next.type === 'heading' && next.depth <= node.depth) break;
      nodes.push(next);
      i++;
    }
    sections.push({ heading: node, nodes });
  }
  if (sections.length === 0) {
    const found = tree.children.filter((n) => n.type === 'heading' && n.depth >= 2).map((n) => `"${headingText(n)}"`);
    throw new LessonsError(
      'no-section',
      path,
      'no "Corrective Actions & Lessons Learned" section: add a heading like "## 3. Corrective Actions & Lessons Learned" with **Lesson:**/**Action:** pairs under it' +
        (found.length > 0 ? ` (the sections found: ${found.slice(0, 8).join(', ')}${found.length > 8 ? ', ...' : ''})` : ''),
    );
  }
  const reports = new ReportScope(tree, text, path);
  const reader = new PairReader(path);
  for (const section of sections) {
    reader.section = { title: headingText(section.heading), kind: sectionKind(headingText(section.heading)) };
    reader.read(section.nodes);
  }
  const drafts = reader.drafts.filter((d) => d.insight !== '' || d.action !== '' || d.parsed !== undefined);
  const problems = [...reader.problems, ...drafts.flatMap((d) => substanceProblems(d, options.strict === true))].sort((a, b) => a.line - b.line);
  if (problems.length > 0) {
    const first = problems[0]!;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    throw new LessonsError('no-substance', path, `${first.message}${more}`, { line: first.line, column: 1 }, problems.map((p) => ({ message: p.message, line: p.line, column: 1 })));
  }
  const lessons = drafts.map((draft): Lesson => {
    const scope = reports.of(draft.line);
    const taskId = options.taskId ?? scope.taskId;
    const action = draft.parsed ?? parseAction(draft.action, draft.diff);
    const status = action.type === 'MANUAL' ? 'manual' : 'pending';
    return {
      lesson_id: lessonId(taskId, draft.insight, action),
      task_id: taskId,
      date: scope.date ?? options.now.slice(0, 10),
      insight: draft.insight,
      action,
      status,
      history: [{ status, time: options.now, reason: `extracted from ${path}:${draft.line}` }],
    };
  });
  const taskId = options.taskId ?? lessons[0]?.task_id ?? reports.of(sections[0]!.heading.line).taskId;
  return { taskId, heading: headingText(sections[0]!.heading), lessons, lines: drafts.map((d) => d.line) };
}

/** Where in the post-mortem a problem is, and what it is. */
interface Placed {
  line: number;
  message: string;
}

const TEMPLATE_TEXT = new Set(templateLines().map(normaliseLine));
const EXAMPLE_LESSONS = new Set(TEMPLATE_EXAMPLES.map((e) => normaliseLine(e.lesson)));

/** Why a lesson says nothing (empty: it says something). */
function substanceProblems(draft: Draft, strict: boolean): Placed[] {
  const where = `section "${draft.section}": `;
  const out: string[] = [];
  const action = draft.parsed ?? parseAction(draft.action, draft.diff);
  const actionText = action.command === 'manual' ? action.parameters.text : undefined;
  const insight = draft.insight;
  if (insight !== '') {
    if (isBracketPlaceholder(insight)) out.push(`the lesson ${quote(insight)} is a template placeholder, not a lesson: write what was learned`);
    else if (EXAMPLE_LESSONS.has(normaliseLine(insight))) out.push(`the lesson ${quote(insight)} is the template's example, not a lesson of this task`);
    else if (TEMPLATE_TEXT.has(normaliseLine(insight))) out.push(`the lesson ${quote(insight)} is the template's own text, not a lesson`);
    else if (wordCount(insight) < LESSON_MIN_WORDS) out.push(`the lesson ${quote(insight)} says too little (${words(wordCount(insight))}; at least ${LESSON_MIN_WORDS}): write what was learned`);
  } else if (strict) out.push('a lesson has no **Lesson:** text: say what was learned');
  if (actionText !== undefined && actionText !== '') {
    if (isBracketPlaceholder(actionText)) out.push(`the action ${quote(actionText)} is a template placeholder, not an action: write what will change`);
    else if (TEMPLATE_TEXT.has(normaliseLine(actionText))) out.push(`the action ${quote(actionText)} is the template's own text, not an action`);
    else if (wordCount(actionText) < LESSON_MIN_WORDS) out.push(`the action ${quote(actionText)} says too little (${words(wordCount(actionText))}; at least ${LESSON_MIN_WORDS}): write what will change, or a recognised action`);
  } else if (actionText === '' && (strict || insight === '')) out.push(`${insight === '' ? 'an entry' : `the lesson ${quote(insight)}`} has no **Action:**: say what changes (or name the protocol edit)`);
  return out.map((message) => ({ line: draft.line, message: `${where}${message}` }));
}

function quote(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(one.length > 80 ? `${one.slice(0, 79)}…` : one);
}

function words(n: number): string {
  return `${n} real word${n === 1 ? '' : 's'}`;
}

interface Draft {
  insight: string;
  action: string;
  diff: string | undefined;
  line: number;
  /** The heading of the section it is in. */
  section: string;
  /** An action given as data (a JSON block's lesson in the original's lessons.jsonl shape). */
  parsed?: LessonAction;
}

// A label at the start of a line: "**Lesson:**", "**Lesson**:", "Lesson:", "- **Action 2:**", "1. Lesson:",
// and a titled one whose emphasis closes after the title: "**Lesson 1: Toolchain Fragility.** text".
const MARK = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?(\*\*|__)?(lesson|action)(?:\s+\d+)?\s*(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:|:)\s*(.*)$/i;
// A bold action label inside a line ("... **Action:** ..."): only bold, so prose mentioning "action:" is left alone.
const INLINE_ACTION = /(?:\*\*|__)action(?:\s+\d+)?\s*(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:)\s*(.*)$/i;

class PairReader {
  readonly drafts: Draft[] = [];
  /** Lessons in a JSON block that hold none (the unfilled template's, or empty ones). */
  readonly problems: Placed[] = [];
  /** The section being read: its heading, and what an unlabelled list item in it is. */
  section: { title: string; kind: SectionKind } = { title: '', kind: 'both' };
  private current: Draft | undefined;
  private field: 'insight' | 'action' | undefined;
  /** A lesson whose paragraph ended before its action: a following bare list continues it. */
  private insightOpen = false;

  constructor(private readonly path: string) {}

  read(nodes: readonly MdNode[]): void {
    for (const node of nodes) {
      if (node.type === 'html') continue;
      if (node.type === 'heading') {
        // A sub-heading ("### Lesson 1:" above a JSON block) is structure, not a lesson's text; but a
        // paragraph followed by a `---` line is a (setext) heading too: its lines are read as a paragraph.
        const lines = node.text.replace(/<!--[\s\S]*?-->/g, '').split('\n');
        if (lines.length > 1) for (const [i, text] of lines.slice(0, -1).entries()) this.line(text, node.line + i);
        this.endParagraph();
        continue;
      }
      if (node.type === 'code' && /^(json|jsonl)$/i.test(node.lang)) {
        // The original's JSON-block template: the lessons as JSON objects in a fenced block.
        this.jsonBlock(node.value, node.line + 1);
        this.endParagraph();
        continue;
      }
      if (node.type === 'code') {
        // A fenced diff right after a code-change action belongs to it.
        if (this.current !== undefined && this.current.diff === undefined && /^(diff|patch)$/i.test(node.lang)) this.current.diff = node.value;
        this.endParagraph();
        continue;
      }
      if (node.type === 'list') {
        for (const item of node.children) {
          if (hasLabel(this.raw(item))) this.read(item.children);
          else this.bareItem(item);
        }
        continue;
      }
      if (node.type === 'listItem' || node.type === 'blockquote') {
        this.read(node.children);
        continue;
      }
      const raw = this.raw(node);
      if (raw === undefined) continue;
      const line = node.line;
      for (const [i, text] of raw.split('\n').entries()) this.line(text, line + i);
      this.endParagraph();
    }
  }

  private line(text: string, line: number): void {
    const m = MARK.exec(text);
    if (m !== null) {
      const kind = m[2]!.toLowerCase();
      if (kind === 'lesson' || this.current === undefined || this.current.action !== '') this.start(line);
      const current = this.current!;
      let rest = m[3]!.trim();
      // "**Lesson 1: Title.** text": the emphasis opened before the label closes after the title.
      const open = m[1];
      const label = m[0].slice(0, m[0].length - m[3]!.length);
      if (open !== undefined && label.split(open).length - 1 < 2 && rest.includes(open)) rest = rest.replace(open, '').replace(/\s+/g, ' ').trim();
      this.field = kind === 'lesson' ? 'insight' : 'action';
      const inline = kind === 'lesson' ? INLINE_ACTION.exec(rest) : null;
      if (inline !== null) {
        current.insight = rest.slice(0, inline.index).trim();
        rest = inline[1]!.trim();
        this.field = 'action';
      }
      current[this.field] = rest;
      return;
    }
    const inline = INLINE_ACTION.exec(text);
    if (inline !== null) {
      const before = text.slice(0, inline.index).replace(/^\s*(?:[-*+]\s+|\d+[.)]\s+)/, '').trim();
      if (this.current === undefined || this.current.action !== '' || this.field !== 'insight') {
        this.start(line);
        this.current!.insight = before;
      } else if (before !== '') this.current.insight = `${this.current.insight} ${before}`.trim();
      this.current!.action = inline[1]!.trim();
      this.field = 'action';
      return;
    }
    if (this.current !== undefined && this.field !== undefined && text.trim() !== '') {
      this.current[this.field] = `${this.current[this.field]} ${text.trim()}`.trim();
    }
  }

  /**
   * Lessons as JSON: an array of objects, one object, or one object per line, each in one of the
   * shapes lessons.jsonl lines take (original-lesson.ts). Malformed JSON is an error at its line; the
   * structured template's unfilled example (`"lesson_id": "[UUID]"`) is no lesson.
   */
  private jsonBlock(body: string, firstLine: number): void {
    // One JSON value (an array, or an object over several lines), else one object per line (JSONL).
    const lines = jsonLines(body, firstLine);
    const jsonl = lines.length > 1 && lines.every((l) => l.text.trim().startsWith('{') && l.text.trim().endsWith('}'));
    const chunks = jsonl ? lines : [{ text: body, line: firstLine }];
    for (const chunk of chunks) {
      let value: unknown;
      try {
        value = parseJson(chunk.text, { path: this.path, firstLine: chunk.line });
      } catch (err) {
        const e = err as { reason?: string; line?: number; column?: number; message: string };
        throw new LessonsError('bad-lesson', this.path, `the JSON lessons block is not valid JSON: ${e.reason ?? e.message}`, { line: e.line ?? chunk.line, column: e.column });
      }
      for (const item of Array.isArray(value) ? value : [value]) {
        const where = `section "${this.section.title}": `;
        const ids = ['lesson_id', 'task_id'].map((k) => (item as Record<string, unknown> | null)?.[k]).filter((v): v is string => typeof v === 'string' && isBracketPlaceholder(v));
        if (ids.length > 0) {
          this.problems.push({ line: chunk.line, message: `${where}the JSON lesson is the template's unfilled example (${ids.map((v) => JSON.stringify(v)).join(', ')}): write the task's own lesson` });
          continue;
        }
        const read = readOriginalLesson(item);
        if (read.kind === 'empty') {
          this.problems.push({ line: chunk.line, message: `${where}the JSON lesson is ${read.problem.replace(/; remove the line$/, '')}` });
          continue;
        }
        const lesson = read.value as Partial<Lesson> | undefined;
        const insight = typeof lesson?.insight === 'string' ? lesson.insight : '';
        if (lesson?.action === undefined || checkLesson({ ...lesson, lesson_id: 'x', task_id: 'x', date: '2000-01-01', status: 'pending', history: [] }) !== undefined) {
          throw new LessonsError('bad-lesson', this.path, 'a lesson in the JSON block needs an insight (or "lesson"/"description"/"failure") and an action (or "actionable_change")', { line: chunk.line });
        }
        this.drafts.push({ insight, action: '', diff: undefined, line: chunk.line, section: this.section.title, parsed: lesson.action });
      }
    }
  }

  private start(line: number): void {
    this.current = { insight: '', action: '', diff: undefined, line, section: this.section.title };
    this.drafts.push(this.current);
  }

  // A paragraph ends continuation; the next label starts a new field.
  private endParagraph(): void {
    this.insightOpen = this.field === 'insight' && this.current !== undefined && this.current.action === '';
    this.field = undefined;
  }

  /** A list item without any label: the rest of an open lesson, or a lesson or an action of its own (by the section). */
  private bareItem(item: MdNode): void {
    const text = item.children
      .filter((c) => c.type !== 'code' && c.type !== 'html')
      .map((c) => this.raw(c) ?? '')
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    const code = item.children.find((c) => c.type === 'code' && /^(diff|patch)$/i.test(c.lang));
    if (text === '') return;
    if (this.insightOpen && this.current !== undefined) {
      this.current.insight = `${this.current.insight} ${text}`.trim();
      return;
    }
    if (this.section.kind === 'lessons') this.drafts.push({ insight: text, action: '', diff: undefined, line: item.line, section: this.section.title });
    else this.drafts.push({ insight: '', action: text, diff: code?.value, line: item.line, section: this.section.title });
  }

  // A leaf block's source text, HTML comments removed; a container's is its blocks' text.
  private raw(node: MdNode): string | undefined {
    const text = node.children.length > 0 ? node.children.map((c) => this.raw(c) ?? '').join('\n') : node.text;
    return node.type === 'code' ? undefined : text.replace(/<!--[\s\S]*?-->/g, '');
  }
}

/** The non-blank lines of a JSONL block, each with its line in the post-mortem. */
function jsonLines(body: string, firstLine: number): { text: string; line: number }[] {
  return body
    .split('\n')
    .map((text, i) => ({ text, line: firstLine + i }))
    .filter((l) => l.text.trim() !== '');
}

function hasLabel(text: string | undefined): boolean {
  return text !== undefined && text.split('\n').some((l) => MARK.test(l) || INLINE_ACTION.test(l));
}



/**
 * The task and date of each report in the file: a report runs from one top-level `#` title to the
 * next (text before the first title belongs to the first report), so a file holding several
 * post-mortems gives each one's lessons its own task. Fields are read from the report's text before
 * the line asked about.
 */
class ReportScope {
  private readonly lines: string[];
  private readonly starts: number[];
  private readonly fileTask: string;

  constructor(tree: MdNode, text: string, path: string) {
    this.lines = text.split('\n');
    const titles = tree.children.filter((n) => n.type === 'heading' && n.depth === 1).map((n) => n.line);
    this.starts = titles.length > 0 && titles[0]! > 1 ? [1, ...titles.slice(1)] : titles.length > 0 ? titles : [1];
    this.fileTask = basename(path).replace(/\.[^.]*$/, '');
  }

  of(line: number): { taskId: string; date: string | undefined } {
    const start = this.starts.filter((s) => s <= line).at(-1) ?? 1;
    const head = this.lines.slice(start - 1, line - 1).join('\n');
    return { taskId: findTaskId(head) ?? this.fileTask, date: findDate(head) };
  }
}

// "**Task:** `id`", "**Task ID:** `id`", "- **Task ID**: `id`", "**Task:** id" (one word: a sentence
// after **Task:** is the task's title, not its id).
const TASK_FIELD = /\*\*Task(?:[ _]?ID)?(?::\*\*|\*\*[ \t]*:)[ \t]*([^\n]*)/gi;
// A title naming the task: "# Post-Mortem Report: Task 'feat/x'", "# Post-Mortem Report for Task: task-1".
const TASK_TITLE = /^#[ \t]+.*?\bTask\b(?:[ \t]*:[ \t]*(?:'([^'\n]+)'|"([^"\n]+)"|`([^`\n]+)`|([^\s'"`[\]]+))[ \t]*$|[ \t]+(?:'([^'\n]+)'|"([^"\n]+)"|`([^`\n]+)`))/im;

function findTaskId(head: string): string | undefined {
  for (const m of head.matchAll(TASK_FIELD)) {
    const value = m[1]!.trim();
    const quoted = /^(?:`([^`]+)`|'([^']+)'|"([^"]+)")/.exec(value);
    const id = quoted !== null ? (quoted[1] ?? quoted[2] ?? quoted[3])!.trim() : /^[^\s*`]+$/.test(value) ? value : undefined;
    if (id !== undefined && id !== '' && !isBracketPlaceholder(id)) return id;
  }
  const title = TASK_TITLE.exec(head);
  const id = title?.slice(1).find((g) => g !== undefined)?.trim();
  return id === undefined || id === '' || isBracketPlaceholder(id) ? undefined : id;
}

// "**Completion Date:** `2025-10-07`" (the original's), "- **Ended:** 2030-01-02T..." (Ratchet's), "**Task Completed:** 2025-10-05".
function findDate(head: string): string | undefined {
  const m = /\*\*(?:Completion\s+Date|Ended|Date|Task\s+Completed)(?::\*\*|\*\*[ \t]*:)[ \t]*`?(\d{4}-\d{2}-\d{2})/i.exec(head);
  return m?.[1];
}
