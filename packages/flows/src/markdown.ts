/**
 * The Markdown a gate reads. A required heading counts only where Markdown shows it as a line: inside
 * a fenced code block it is an example (or a pasted template), not the section itself.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** Every line outside fenced code blocks, right-trimmed. An unclosed fence runs to the end (as CommonMark has it). */
export function linesOutsideFences(text: string): Set<string> {
  const out = new Set<string>();
  let open: { char: string; length: number } | undefined;
  for (const line of text.split(/\r?\n/)) {
    const m = FENCE.exec(line);
    if (open === undefined) {
      // A backtick fence's info string may not contain a backtick; such a line is text.
      if (m && !(m[1]![0] === '`' && m[2]!.includes('`'))) open = { char: m[1]![0]!, length: m[1]!.length };
      else out.add(line.trimEnd());
    } else if (m && m[1]![0] === open.char && m[1]!.length >= open.length && m[2]!.trim() === '') open = undefined;
  }
  return out;
}
