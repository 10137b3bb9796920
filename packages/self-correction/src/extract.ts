/**
 * Post-mortem -> lessons. Reads every "Corrective Actions & Lessons Learned" section (any heading
 * level, numbered or not, "&" / "and" / "/", "Lessons Learned" alone, "Proposed Corrective Actions"
 * as the original's later template had it, "Lessons Learned & Action Items") and, in document order:
 *
 * - Lesson/Action pairs (bold, bold with the colon outside, plain labels, numbered
 *   "Lesson 2:", in list items, wrapped lines, both on one line);
 * - an item with only an Action label takes the text before it as its lesson (the original's form);
 * - a list item with no label at all is an action of its own (the "Proposed Corrective Actions"
 *   form), unless it continues a lesson still waiting for its action;
 * - a fenced ```json block of lesson objects (the original's JSON-block template), in any shape a
 *   lessons.jsonl line may take (seed-lesson.ts).
 *
 * Recognised action phrases become protocol edits or code changes; anything else becomes a `manual`
 * lesson, shown to a person and never dropped. HTML comments (the template's examples) are skipped.
 * The task id and date come from the header (`**Task:**` / `**Task ID:**`, `**Completion Date:**` /
 * `**Ended:**`), else from the file name and the clock. Pure: the clock and the file name come from
 * the caller.
 */
import { basename } from 'node:path';
import { headingText, parseMarkdownTree, type MdNode } from './markdown-tree.js';
import { LessonsError } from './errors.js';
import { parseJson } from '@ratchet/store';
import { lessonId, parseAction } from './action-phrase.js';
import { checkLesson } from './check-lesson.js';
import { upgradeSeedLesson } from './seed-lesson.js';
import type { Lesson, LessonAction } from './types.js';

export interface ExtractOptions {
  /** Names the post-mortem in errors and in each lesson's first history entry. */
  path?: string;
  /** Overrides the task id found in the post-mortem header (`**Task:** \`id\``) or its file name. */
  taskId?: string | undefined;
  /** ISO time of extraction (the injected clock); `date` is its day unless the header has one. */
  now: string;
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
  /^(?:\d+(?:\.\d+)*[.)]?\s*)?(?:(?:proposed\s+)?corrective\s+actions?(?:\s*(?:&|and|\/)\s*lessons?\s+learned)?|lessons?\s+learned(?:\s*(?:&|and|\/)\s*(?:corrective\s+actions?|action\s+items?))?)\s*:?$/i;

/** True for the headings `extractLessons` accepts. */
export function isLessonsHeading(text: string): boolean {
  return HEADING.test(text.trim());
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
    throw new LessonsError(
      'no-section',
      path,
      'no "Corrective Actions & Lessons Learned" section: add a heading like "## 3. Corrective Actions & Lessons Learned" with **Lesson:**/**Action:** pairs under it',
    );
  }
  const header = headerText(tree, text);
  const taskId = options.taskId ?? findTaskId(header) ?? basename(path).replace(/\.[^.]*$/, '');
  const date = findDate(header) ?? options.now.slice(0, 10);
  const reader = new PairReader(path);
  for (const section of sections) reader.read(section.nodes);
  const drafts = reader.drafts.filter((d) => d.insight !== '' || d.action !== '');
  const lessons = drafts.map((draft): Lesson => {
    const action = draft.parsed ?? parseAction(draft.action, draft.diff);
    const status = action.type === 'MANUAL' ? 'manual' : 'pending';
    return {
      lesson_id: lessonId(taskId, draft.insight, action),
      task_id: taskId,
      date,
      insight: draft.insight,
      action,
      status,
      history: [{ status, time: options.now, reason: `extracted from ${path}:${draft.line}` }],
    };
  });
  return { taskId, heading: headingText(sections[0]!.heading), lessons, lines: drafts.map((d) => d.line) };
}

interface Draft {
  insight: string;
  action: string;
  diff: string | undefined;
  line: number;
  /** An action given as data (a JSON block's lesson in the original's lessons.jsonl shape). */
  parsed?: LessonAction;
}

// A label at the start of a line: "**Lesson:**", "**Lesson**:", "Lesson:", "- **Action 2:**", "1. Lesson:".
const MARK = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*|__)?(lesson|action)(?:\s+\d+)?\s*(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:|:)\s*(.*)$/i;
// A bold action label inside a line ("... **Action:** ..."): only bold, so prose mentioning "action:" is left alone.
const INLINE_ACTION = /(?:\*\*|__)action(?:\s+\d+)?\s*(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:)\s*(.*)$/i;

class PairReader {
  readonly drafts: Draft[] = [];
  private current: Draft | undefined;
  private field: 'insight' | 'action' | undefined;
  /** A lesson whose paragraph ended before its action: a following bare list continues it. */
  private insightOpen = false;

  constructor(private readonly path: string) {}

  read(nodes: readonly MdNode[]): void {
    for (const node of nodes) {
      if (node.type === 'html') continue;
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
      const kind = m[1]!.toLowerCase();
      if (kind === 'lesson' || this.current === undefined || this.current.action !== '') this.start(line);
      const current = this.current!;
      let rest = m[2]!.trim();
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
   * shapes lessons.jsonl lines take (seed-lesson.ts). Malformed JSON is an error at its line.
   */
  private jsonBlock(body: string, firstLine: number): void {
    const chunks = body.trim().startsWith('[') || !body.trim().includes('\n') ? [{ text: body, line: firstLine }] : jsonLines(body, firstLine);
    for (const chunk of chunks) {
      let value: unknown;
      try {
        value = parseJson(chunk.text, { path: this.path, firstLine: chunk.line });
      } catch (err) {
        const e = err as { reason?: string; line?: number; column?: number; message: string };
        throw new LessonsError('bad-lesson', this.path, `the JSON lessons block is not valid JSON: ${e.reason ?? e.message}`, { line: e.line ?? chunk.line, column: e.column });
      }
      for (const item of Array.isArray(value) ? value : [value]) {
        const lesson = upgradeSeedLesson(item) as Partial<Lesson> | undefined;
        const insight = typeof lesson?.insight === 'string' ? lesson.insight : '';
        if (lesson?.action === undefined || checkLesson({ ...lesson, lesson_id: 'x', task_id: 'x', date: '2000-01-01', status: 'pending', history: [] }) !== undefined) {
          throw new LessonsError('bad-lesson', this.path, 'a lesson in the JSON block needs an insight (or "lesson"/"failure") and an action (or "actionable_change")', { line: chunk.line });
        }
        this.drafts.push({ insight, action: '', diff: undefined, line: chunk.line, parsed: lesson.action });
      }
    }
  }

  private start(line: number): void {
    this.current = { insight: '', action: '', diff: undefined, line };
    this.drafts.push(this.current);
  }

  // A paragraph ends continuation; the next label starts a new field.
  private endParagraph(): void {
    this.insightOpen = this.field === 'insight' && this.current !== undefined && this.current.action === '';
    this.field = undefined;
  }

  /** A list item without any label: the rest of an open lesson, or an action of its own. */
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
    this.drafts.push({ insight: '', action: text, diff: code?.value, line: item.line });
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



// The header: everything before the first second-level (or deeper) heading.
function headerText(tree: MdNode, source: string): string {
  const first = tree.children.find((n) => n.type === 'heading' && n.depth >= 2);
  return source.slice(0, first?.offset ?? source.length);
}

// "- **Task:** `id`" (Ratchet's template) or "**Task ID:** `id`" (the original's).
function findTaskId(head: string): string | undefined {
  const m = /\*\*Task(?:\s+ID)?:\*\*\s*`([^`\n]+)`/i.exec(head) ?? /\*\*Task(?:\s+ID)?:\*\*\s*([^\s*`]+)/i.exec(head);
  const id = m?.[1]?.trim();
  return id === undefined || id === '' || /^\[.*\]$/.test(id) ? undefined : id;
}

// "**Completion Date:** `2025-10-07`" (the original's) or "- **Ended:** 2030-01-02T..." (Ratchet's).
function findDate(head: string): string | undefined {
  const m = /\*\*(?:Completion\s+Date|Ended|Date):\*\*\s*`?(\d{4}-\d{2}-\d{2})/i.exec(head);
  return m?.[1];
}
