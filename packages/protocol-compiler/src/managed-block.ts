/**
 * Ratchet owns only the block between two marker lines in a target file; everything outside it is
 * the author's and survives every recompile byte for byte. A file without markers gets the block
 * appended; a file with broken markers (one without the other, two blocks, end before begin) is an
 * error, never "repaired" by guessing.
 */
import { ProtocolError } from './errors.js';

export const BEGIN_MARKER = '<!-- ratchet:protocols:begin -->';
export const END_MARKER = '<!-- ratchet:protocols:end -->';

export interface BlockLocation {
  /** Offset of the start of the begin-marker line. */
  start: number;
  /** Offset just past the end-marker line (including its newline, if any). */
  end: number;
}

/** Finds the managed block; undefined when the file has no markers. Throws on broken markers. */
export function findManagedBlock(text: string, path = '<target>'): BlockLocation | undefined {
  const begins: { offset: number; line: number }[] = [];
  const ends: { offset: number; endOffset: number; line: number }[] = [];
  let offset = 0;
  let line = 1;
  let inFence: string | undefined;
  while (offset <= text.length) {
    const nl = text.indexOf('\n', offset);
    const stop = nl === -1 ? text.length : nl;
    const content = text.slice(offset, stop).replace(/\r$/, '').trim();
    // Markers quoted in a code block (e.g. documentation about Ratchet) are not markers.
    const fence = /^(`{3,}|~{3,})/.exec(content);
    if (fence !== null) {
      if (inFence === undefined) inFence = fence[1]![0]!.repeat(fence[1]!.length);
      else if (content.startsWith(inFence) && content.slice(inFence.length).trim() === '') inFence = undefined;
    } else if (inFence === undefined) {
      if (content === BEGIN_MARKER) begins.push({ offset, line });
      else if (content === END_MARKER) ends.push({ offset, endOffset: nl === -1 ? text.length : nl + 1, line });
    }
    if (nl === -1) break;
    offset = nl + 1;
    line++;
  }
  if (begins.length === 0 && ends.length === 0) return undefined;
  if (begins.length !== 1 || ends.length !== 1) {
    const [what, at] =
      begins.length === 0 ? ['an end marker without a begin marker', ends[0]!.line]
      : ends.length === 0 ? ['a begin marker without an end marker', begins[0]!.line]
      : begins.length > 1 ? ['a second begin marker (only one managed block per file)', begins[1]!.line]
      : ['a second end marker (only one managed block per file)', ends[1]!.line];
    throw new ProtocolError('bad-markers', path, `${what}; fix the ${BEGIN_MARKER} / ${END_MARKER} lines by hand`, { line: at, column: 1 });
  }
  if (ends[0]!.offset < begins[0]!.offset) {
    throw new ProtocolError('bad-markers', path, 'the end marker comes before the begin marker', { line: ends[0]!.line, column: 1 });
  }
  return { start: begins[0]!.offset, end: ends[0]!.endOffset };
}

/**
 * Returns `existing` with its managed block replaced by `body` (or the block appended / a new file
 * when there is none). Keeps the file's line endings (CRLF stays CRLF) and BOM.
 */
export function replaceManagedBlock(existing: string | undefined, body: string, path = '<target>'): string {
  if (existing === undefined || existing === '') return `${BEGIN_MARKER}\n${body.trimEnd()}\n${END_MARKER}\n`;
  const crlf = /\r\n/.test(existing);
  const eol = crlf ? '\r\n' : '\n';
  const block = `${BEGIN_MARKER}\n${body.trimEnd()}\n${END_MARKER}`.replace(/\n/g, eol);
  const where = findManagedBlock(existing, path);
  if (where === undefined) {
    const sep = /\n\s*\n$/.test(existing) ? '' : existing.endsWith('\n') ? eol : `${eol}${eol}`;
    return `${existing}${sep}${block}${eol}`;
  }
  const after = existing.slice(where.end);
  const hadNewline = /\n$/.test(existing.slice(where.start, where.end));
  return `${existing.slice(0, where.start)}${block}${hadNewline ? eol : ''}${after}`;
}

/** True when `body` contains a marker line (it would break the block on the next compile). */
export function containsMarker(body: string): boolean {
  // Splitting a megabyte of output into lines costs ~100 ms; almost no text mentions the markers.
  if (!body.includes('ratchet:protocols:')) return false;
  return body.split(/\r?\n/).some((l) => l.trim() === BEGIN_MARKER || l.trim() === END_MARKER);
}
