/**
 * Unified diffs for one file: parsed strictly, applied only when every hunk's context and removed
 * lines match (at the stated line, or at one unambiguous other place). Never partially applied.
 */
import { LessonsError } from './errors.js';

export interface Hunk {
  oldStart: number;
  oldLines: string[];
  newLines: string[];
  /** 1-based line of the "@@" header in the diff text. */
  line: number;
}

export interface ParsedPatch {
  /** Path from the ---/+++ headers (a/ b/ prefixes stripped), if present. */
  oldPath: string | undefined;
  newPath: string | undefined;
  /** The diff creates the file (--- /dev/null). */
  creates: boolean;
  /** The diff deletes the file (+++ /dev/null). */
  deletes: boolean;
  hunks: Hunk[];
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function parsePatch(diff: string, label = '<diff>'): ParsedPatch {
  const lines = diff.replace(/\r\n/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let oldPath: string | undefined;
  let newPath: string | undefined;
  let headers = 0;
  const hunks: Hunk[] = [];
  const bad = (line: number, why: string): never => {
    throw new LessonsError('bad-diff', label, why, { line });
  };
  let i = 0;
  while (i < lines.length) {
    const text = lines[i]!;
    if (text.startsWith('--- ')) {
      if (++headers > 1) bad(i + 1, 'the diff touches more than one file; one code-change lesson changes one file');
      oldPath = headerPath(text.slice(4));
      if (!lines[i + 1]?.startsWith('+++ ')) bad(i + 2, 'a "---" header must be followed by a "+++" header');
      newPath = headerPath(lines[i + 1]!.slice(4));
      i += 2;
      continue;
    }
    const m = HUNK.exec(text);
    if (m === null) {
      if (hunks.length === 0 && !text.startsWith('@@')) {
        i++; // preamble such as "diff --git" or "index" lines
        continue;
      }
      bad(i + 1, `expected a hunk header "@@ -l,n +l,n @@", found "${text.slice(0, 40)}"`);
    }
    const oldCount = m![2] === undefined ? 1 : Number(m![2]);
    const newCount = m![4] === undefined ? 1 : Number(m![4]);
    const hunk: Hunk = { oldStart: Number(m![1]), oldLines: [], newLines: [], line: i + 1 };
    i++;
    while (hunk.oldLines.length < oldCount || hunk.newLines.length < newCount) {
      const body = lines[i];
      if (body === undefined) bad(i, `the hunk at line ${hunk.line} is truncated: expected ${oldCount} old and ${newCount} new lines`);
      const tag = body![0];
      const rest = body!.slice(1);
      if (tag === ' ' || body === '') {
        hunk.oldLines.push(rest);
        hunk.newLines.push(rest);
      } else if (tag === '-') hunk.oldLines.push(rest);
      else if (tag === '+') hunk.newLines.push(rest);
      else if (tag === '\\') {
        i++;
        continue;
      } else bad(i + 1, `unexpected line in hunk: "${body!.slice(0, 40)}"`);
      i++;
      if (hunk.oldLines.length > oldCount || hunk.newLines.length > newCount) bad(hunk.line, 'the hunk has more lines than its header says');
    }
    while (lines[i]?.startsWith('\\')) i++;
    hunks.push(hunk);
  }
  if (hunks.length === 0) bad(1, 'the diff has no hunks ("@@ -l,n +l,n @@")');
  return { oldPath, newPath, creates: oldPath === '/dev/null', deletes: newPath === '/dev/null', hunks };
}

function headerPath(text: string): string {
  const path = text.split('\t')[0]!.trim();
  if (path === '/dev/null') return path;
  return path.replace(/^[ab]\//, '');
}

/**
 * Applies the patch to `content` (undefined: the file does not exist). Returns the new content, or
 * throws `diff-does-not-apply` naming the first hunk that does not match.
 */
export function applyPatch(content: string | undefined, patch: ParsedPatch, label = '<file>'): string {
  if (patch.creates && content !== undefined) throw new LessonsError('diff-does-not-apply', label, 'the diff creates the file, but it already exists');
  if (!patch.creates && content === undefined) throw new LessonsError('diff-does-not-apply', label, 'the file does not exist');
  const eol = content !== undefined && /\r\n/.test(content) ? '\r\n' : '\n';
  const source = content === undefined || content === '' ? [] : content.replace(/\r\n/g, '\n').split('\n');
  const trailing = source.length > 0 && source[source.length - 1] === '';
  if (trailing) source.pop();
  const out: string[] = [];
  let cursor = 0;
  let delta = 0;
  for (const hunk of patch.hunks) {
    const want = Math.max(0, hunk.oldStart - 1 + (hunk.oldLines.length === 0 ? 1 : 0));
    const at = findHunk(source, hunk.oldLines, want + 0, cursor);
    if (at === undefined) {
      throw new LessonsError('diff-does-not-apply', label, `hunk at diff line ${hunk.line} (@@ -${hunk.oldStart}) does not match the file: its context or removed lines differ`);
    }
    out.push(...source.slice(cursor, at), ...hunk.newLines);
    cursor = at + hunk.oldLines.length;
    delta += hunk.newLines.length - hunk.oldLines.length;
  }
  void delta;
  out.push(...source.slice(cursor));
  if (patch.deletes) return '';
  return out.length === 0 ? '' : `${out.join(eol)}${trailing || content === undefined ? eol : ''}`;
}

// Exact position first; otherwise the unique match after the previous hunk.
function findHunk(source: string[], old: string[], want: number, from: number): number | undefined {
  const matches = (at: number): boolean => at >= from && at + old.length <= source.length && old.every((l, k) => source[at + k] === l);
  if (old.length === 0) return Math.min(Math.max(want, from), source.length);
  if (matches(want)) return want;
  const found: number[] = [];
  for (let at = from; at + old.length <= source.length; at++) if (matches(at)) found.push(at);
  return found.length === 1 ? found[0] : undefined;
}
