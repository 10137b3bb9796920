/**
 * Post-mortem -> lessons. Finds the "Corrective Actions & Lessons Learned" section (any heading
 * level, numbered or not, "&" or "and", or just "Lessons Learned"), reads its Lesson/Action
 * pairs in document order and recognises the action phrases the template documents. HTML comments
 * (the template's examples) are skipped. Anything unrecognised becomes a `manual` lesson: shown to a
 * person, never dropped. Pure: the date and the file name come from the caller.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Heading, Nodes, Root, RootContent } from 'mdast';
import { LessonsError } from './errors.js';
import type { Lesson, LessonAction } from './types.js';

export interface ExtractOptions {
  /** Names the post-mortem in errors and in each lesson's `source`. */
  path?: string;
  /** Overrides the task id found in the post-mortem header (`**Task:** \`id\``) or its file name. */
  taskId?: string | undefined;
  /** ISO time of extraction (the injected clock); `date` is its day. */
  now: string;
}

export interface ExtractResult {
  taskId: string;
  /** Heading text of the section that was read. */
  heading: string;
  lessons: Lesson[];
}

const HEADING = /^(?:\d+(?:\.\d+)*[.)]?\s*)?(?:corrective\s+actions?\s*(?:&|and|\/)\s*lessons?\s+learned|lessons?\s+learned(?:\s*(?:&|and|\/)\s*corrective\s+actions?)?)\s*:?$/i;

/** True for the headings `extractLessons` accepts. */
export function isLessonsHeading(text: string): boolean {
  return HEADING.test(text.trim());
}

export function extractLessons(markdown: string, options: ExtractOptions): ExtractResult {
  const path = options.path ?? '<post-mortem>';
  const text = markdown.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const tree = fromMarkdown(text);
  const index = tree.children.findIndex((n) => n.type === 'heading' && isLessonsHeading(plainText(n)));
  if (index === -1) {
    throw new LessonsError(
      'no-section',
      path,
      'no "Corrective Actions & Lessons Learned" section: add a heading like "## 3. Corrective Actions & Lessons Learned" with **Lesson:**/**Action:** pairs under it',
    );
  }
  const heading = tree.children[index] as Heading;
  const section: RootContent[] = [];
  for (const node of tree.children.slice(index + 1)) {
    if (node.type === 'heading' && node.depth <= heading.depth) break;
    section.push(node);
  }
  const taskId = options.taskId ?? findTaskId(tree, text) ?? basename(path).replace(/\.[^.]*$/, '');
  const date = options.now.slice(0, 10);
  const drafts = readPairs(flatten(section, text));
  const lessons = drafts.map((draft): Lesson => {
    const action = parseAction(draft.action, draft.diff);
    const manual = action.type === 'MANUAL';
    return {
      lesson_id: lessonId(taskId, draft.insight, action),
      task_id: taskId,
      date,
      insight: draft.insight,
      action,
      status: manual ? 'manual' : 'pending',
      history: [{ status: manual ? 'manual' : 'pending', time: options.now, reason: `extracted from ${path}:${draft.line}` }],
      source: { file: path, line: draft.line },
    };
  });
  return { taskId, heading: plainText(heading), lessons };
}

/** Content-derived id: the same lesson extracted twice has the same id, so nothing is added twice. */
export function lessonId(taskId: string, insight: string, action: LessonAction): string {
  const hash = createHash('sha256').update(JSON.stringify([taskId, insight, action])).digest('hex');
  return `lesson-${hash.slice(0, 16)}`;
}

type Chunk = { kind: 'text'; text: string; line: number } | { kind: 'code'; lang: string; value: string; line: number };

// Document-order text and code chunks of the section; HTML (comments) is skipped.
function flatten(nodes: readonly Nodes[], source: string): Chunk[] {
  const out: Chunk[] = [];
  for (const node of nodes) {
    if (node.type === 'html') continue;
    if (node.type === 'code') {
      out.push({ kind: 'code', lang: (node.lang ?? '').toLowerCase(), value: node.value, line: node.position?.start.line ?? 1 });
    } else if (node.type === 'list' || node.type === 'listItem' || node.type === 'blockquote') {
      out.push(...flatten(node.children, source));
    } else if (node.position?.start.offset !== undefined && node.position.end.offset !== undefined) {
      const raw = source.slice(node.position.start.offset, node.position.end.offset).replace(/<!--[\s\S]*?-->/g, '');
      out.push({ kind: 'text', text: raw, line: node.position.start.line });
    }
  }
  return out;
}

interface Draft {
  insight: string;
  action: string;
  diff: string | undefined;
  line: number;
}

const MARK = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*|__)?(lesson|action)(?:\s+\d+)?\s*(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:|:)\s*(.*)$/i;

function readPairs(chunks: Chunk[]): Draft[] {
  const drafts: Draft[] = [];
  let current: Draft | undefined;
  let field: 'insight' | 'action' | undefined;
  for (const chunk of chunks) {
    if (chunk.kind === 'code') {
      // A fenced diff right after a code-change action belongs to it.
      if (current !== undefined && current.diff === undefined && /^(diff|patch)$/.test(chunk.lang)) current.diff = chunk.value;
      field = undefined;
      continue;
    }
    const lines = chunk.text.split('\n');
    for (const [i, line] of lines.entries()) {
      const m = MARK.exec(line);
      if (m !== null) {
        const kind = m[1]!.toLowerCase();
        if (kind === 'lesson' || current === undefined || current.action !== '') {
          current = { insight: '', action: '', diff: undefined, line: chunk.line + i };
          drafts.push(current);
        }
        field = kind === 'lesson' ? 'insight' : 'action';
        current[field] = m[2]!.trim();
      } else if (current !== undefined && field !== undefined && line.trim() !== '') {
        current[field] = `${current[field]} ${line.trim()}`.trim();
      }
    }
    // A paragraph ends continuation; the next marker starts a new field.
    field = undefined;
  }
  return drafts.filter((d) => d.insight !== '' || d.action !== '');
}

const Q = String.raw`(?:'([^']+)'|"([^"]+)"|\`([^\`]+)\`)`;
const ADD = new RegExp(String.raw`^add\s+(?:the\s+)?tool\s+${Q}\s+to\s+(?:the\s+)?protocol\s+${Q}\s*\.?$`, 'i');
const DEPRECATE = new RegExp(String.raw`^deprecate\s+(?:the\s+)?tool\s+${Q}\s+(?:in|from)\s+(?:the\s+)?protocol\s+${Q}\s*\.?$`, 'i');
const UPDATE = new RegExp(String.raw`^update\s+(?:the\s+)?rule\s+${Q}\s+in\s+(?:the\s+)?protocol\s+${Q}\s+to\s+(['"\`])([\s\S]+)\7\s*\.?$`, 'i');
const CODE = new RegExp(String.raw`^propose\s+(?:a\s+)?code\s+change\s+(?:to|for|in)\s+(?:the\s+)?(?:file\s+)?${Q}\s*[.:]?$`, 'i');

const pick = (m: RegExpExecArray, from: number): string => (m[from] ?? m[from + 1] ?? m[from + 2] ?? '').trim();

/** Recognises an action phrase; anything else is a manual action carrying the text. */
export function parseAction(raw: string, diff?: string): LessonAction {
  let text = stripEmphasis(raw.trim());
  if (/^`[^`]+`$/.test(text)) text = text.slice(1, -1).trim();
  let m = ADD.exec(text);
  if (m !== null) return { type: 'UPDATE_PROTOCOL', command: 'add-tool', parameters: { protocol_id: pick(m, 4), tool: pick(m, 1) } };
  m = DEPRECATE.exec(text);
  if (m !== null) return { type: 'UPDATE_PROTOCOL', command: 'deprecate-tool', parameters: { protocol_id: pick(m, 4), tool: pick(m, 1) } };
  m = UPDATE.exec(text);
  if (m !== null && m[8]!.trim() !== '') {
    return { type: 'UPDATE_PROTOCOL', command: 'update-rule', parameters: { protocol_id: pick(m, 4), rule_id: pick(m, 1), description: m[8]!.trim() } };
  }
  m = CODE.exec(text);
  if (m !== null) {
    if (diff !== undefined && diff.trim() !== '') return { type: 'PROPOSE_CODE_CHANGE', command: 'propose-code-change', parameters: { filepath: pick(m, 1), diff: diff.endsWith('\n') ? diff : `${diff}\n` } };
    return { type: 'MANUAL', command: 'manual', parameters: { text, note: 'a code change needs a fenced ```diff block right after the action' } };
  }
  return { type: 'MANUAL', command: 'manual', parameters: { text, ...(text === '' ? { note: 'the lesson has no **Action:**' } : {}) } };
}

function stripEmphasis(text: string): string {
  return text.replace(/^(\*\*|__)(.*)\1$/s, '$2').trim();
}

function plainText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(plainText).join('');
  return '';
}

// "- **Task:** `id`" in the template header, before the first second-level heading.
function findTaskId(tree: Root, source: string): string | undefined {
  const first = tree.children.find((n) => n.type === 'heading' && n.depth >= 2);
  const head = source.slice(0, first?.position?.start.offset ?? source.length);
  const m = /\*\*Task:\*\*\s*`([^`\n]+)`/.exec(head) ?? /\*\*Task:\*\*\s*([^\s*]+)/.exec(head);
  return m?.[1]?.trim() || undefined;
}
