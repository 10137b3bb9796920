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

/** An ATX heading: up to 3 spaces, 1-6 `#`, then its text (or nothing). */
const ATX = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?[ \t]*$/;

/**
 * The text of an ATX heading line as a reader sees it: without the closing `#`s and an emphasis
 * wrapping it whole (`**...**`), whitespace runs as one space, lower case. Undefined for a line that
 * is no heading.
 */
export function headingText(line: string): string | undefined {
  const m = ATX.exec(line);
  if (m === null) return undefined;
  let text = (m[1] ?? '').replace(/(?:^|[ \t]+)#+$/, '').trim();
  const wrapped = /^(\*\*|__)(.*)\1$/.exec(text);
  if (wrapped !== null) text = wrapped[2]!.trim();
  return text.replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Whether `lines` (outside code fences) hold the required heading. A heading counts as Markdown
 * shows it: at any level, in any case, and with a qualifier after it (`### Section 0: CONTEXT
 * LOADED (Verification Format)` is the section "## Section 0: Context Loaded"), the way the
 * original's memory-file verifier read sections; not a longer word (`Context Loadedness`) or a
 * longer title (`## Share what I know` is not `## SHARE`), not a heading mentioned inside a line. A required line that is no heading must appear exactly.
 */
export function hasHeading(lines: ReadonlySet<string>, required: string): boolean {
  const want = headingText(required.trimEnd());
  if (want === undefined || want === '') return lines.has(required.trimEnd());
  for (const line of lines) {
    const text = headingText(line);
    if (text === undefined || !text.startsWith(want)) continue;
    const rest = text.slice(want.length);
    // A qualifier is set off by punctuation: "(JSON)", "- verified", ": done"; more words would be another heading.
    if (rest === '' || /^\s*[([:\-\u2013\u2014|,.]/.test(rest)) return true;
  }
  return false;
}
