/**
 * What a lesson's action text means (the original's phrases: "add tool 'X' to protocol 'Y'",
 * "update rule 'R' in protocol 'P' to '...'", ...), and the content-derived lesson id. Shared by
 * post-mortem extraction and by the reader of lessons.jsonl lines in the original's other shapes;
 * kept apart from extract.ts so reading lessons.jsonl does not load the Markdown parser.
 */
import { createHash } from 'node:crypto';
import type { LessonAction } from './types.js';

/** Content-derived id: the same lesson extracted twice has the same id, so nothing is added twice. */
export function lessonId(taskId: string, insight: string, action: LessonAction): string {
  const hash = createHash('sha256').update(JSON.stringify([taskId, insight, action])).digest('hex');
  return `lesson-${hash.slice(0, 16)}`;
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

