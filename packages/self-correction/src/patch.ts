/**
 * Unified diffs for one file, parsed and applied by jsdiff (the `diff` package). What Ratchet adds
 * on top: one file per diff, errors that name the diff line (exit 2), creation and deletion checked
 * against whether the file exists, and one safety rule jsdiff does not have: a hunk whose context is
 * not at its stated line applies only where it matches exactly once (jsdiff takes the nearest
 * match, which in a file of repeated blocks can be the wrong one). Never partially applied.
 */
import { applyPatch as applyStructured, parsePatch as parseUnified, type StructuredPatch } from 'diff';
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
  /** jsdiff's form of the same patch, which applyPatch hands back to it. */
  structured: StructuredPatch;
}

export function parsePatch(diff: string, label = '<diff>'): ParsedPatch {
  const text = diff.replace(/\r\n/g, '\n');
  const bad = (line: number, why: string): never => {
    throw new LessonsError('bad-diff', label, why, { line });
  };
  let files: StructuredPatch[];
  try {
    files = parseUnified(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return bad(Number(/line (\d+)/u.exec(message)?.[1] ?? 1), `not a unified diff: ${message}`);
  }
  const withHunks = files.filter((f) => f.hunks.length > 0);
  if (files.length > 1) bad(headerLine(text, 1), 'the diff touches more than one file; one code-change lesson changes one file');
  if (withHunks.length === 0) bad(1, 'the diff has no hunks ("@@ -l,n +l,n @@")');
  const structured = withHunks[0]!;
  const headers = hunkHeaderLines(text);
  const hunks = structured.hunks.map((h, k): Hunk => {
    const oldLines: string[] = [];
    const newLines: string[] = [];
    for (const l of h.lines) {
      if (l.startsWith(' ')) {
        oldLines.push(l.slice(1));
        newLines.push(l.slice(1));
      } else if (l.startsWith('-')) oldLines.push(l.slice(1));
      else if (l.startsWith('+')) newLines.push(l.slice(1));
    }
    return { oldStart: h.oldStart, oldLines, newLines, line: headers[k] ?? 1 };
  });
  const oldPath = headerPath(structured.oldFileName);
  const newPath = headerPath(structured.newFileName);
  return { oldPath, newPath, creates: oldPath === '/dev/null', deletes: newPath === '/dev/null', hunks, structured };
}

/** 1-based lines of the "@@" headers, in order. */
function hunkHeaderLines(text: string): number[] {
  return text.split('\n').flatMap((l, i) => (l.startsWith('@@') ? [i + 1] : []));
}

/** 1-based line of the n-th (0-based) "--- " header. */
function headerLine(text: string, n: number): number {
  return text.split('\n').flatMap((l, i) => (l.startsWith('--- ') ? [i + 1] : []))[n] ?? 1;
}

function headerPath(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const path = name.split('\t')[0]!.trim();
  if (path === '/dev/null') return path;
  return path.replace(/^[ab]\//u, '');
}

/**
 * Applies the patch to `content` (undefined: the file does not exist). Returns the new content, or
 * throws `diff-does-not-apply` naming the first hunk that does not match.
 */
export function applyPatch(content: string | undefined, patch: ParsedPatch, label = '<file>'): string {
  if (patch.creates && content !== undefined) throw new LessonsError('diff-does-not-apply', label, 'the diff creates the file, but it already exists');
  if (!patch.creates && content === undefined) throw new LessonsError('diff-does-not-apply', label, 'the file does not exist');
  if (patch.deletes) return '';
  const source = content ?? '';
  const lines = source.replace(/\r\n/g, '\n').split('\n');
  let from = 0;
  for (const hunk of patch.hunks) {
    const at = placeOf(lines, hunk, from);
    if (at === undefined) throw new LessonsError('diff-does-not-apply', label, `hunk at diff line ${hunk.line} (@@ -${hunk.oldStart}) does not match the file: its context or removed lines differ, or match in more than one place`);
    from = at + hunk.oldLines.length;
  }
  const out = applyStructured(source, patch.structured);
  if (out === false) throw new LessonsError('diff-does-not-apply', label, 'the diff does not apply to the file');
  return out;
}

/** Where a hunk goes: its stated line if it matches there, else its only match after `from`. */
function placeOf(lines: readonly string[], hunk: Hunk, from: number): number | undefined {
  const old = hunk.oldLines;
  const want = Math.max(0, hunk.oldStart - 1 + (old.length === 0 ? 1 : 0));
  if (old.length === 0) return Math.max(want, from);
  const matches = (at: number): boolean => at >= from && at + old.length <= lines.length && old.every((l, k) => lines[at + k] === l);
  if (matches(want)) return want;
  const found: number[] = [];
  for (let at = from; at + old.length <= lines.length && found.length < 2; at++) if (matches(at)) found.push(at);
  return found.length === 1 ? found[0] : undefined;
}
