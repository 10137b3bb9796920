// Which part of a package README is its runnable example (CONTRIBUTING.md, "README examples"):
// the first fenced js, ts or sh block of the "## Example" section. When the next fenced block of
// the section follows a line that says only "prints" or "Output:", it is the example's exact
// standard output. check-packages.mjs requires the example, check-installed.mjs runs it.

export const EXAMPLE_LANGUAGES = ['js', 'ts', 'sh'];

/**
 * The example of a README, or a reason there is none: `{ lang, code, expected?, line }`, where
 * `line` is the 1-based line of the opening fence and `expected` the documented stdout.
 */
export function readmeExample(text) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^## Example\s*$/u.test(l));
  if (start < 0) return { error: 'no "## Example" section' };
  let end = lines.findIndex((l, i) => i > start && /^## /u.test(l));
  if (end < 0) end = lines.length;

  // Fenced blocks of the section, with the prose between each and the one before.
  const blocks = [];
  let prose = [];
  for (let i = start + 1; i < end; i++) {
    const open = /^```(\S*)\s*$/u.exec(lines[i]);
    if (!open) {
      prose.push(lines[i]);
      continue;
    }
    const close = lines.findIndex((l, j) => j > i && /^```\s*$/u.test(l));
    if (close < 0 || close >= end) return { error: `unclosed code fence at line ${i + 1}` };
    blocks.push({ lang: open[1], code: `${lines.slice(i + 1, close).join('\n')}\n`, line: i + 1, before: prose.join('\n').trim() });
    prose = [];
    i = close;
  }
  const at = blocks.findIndex((b) => EXAMPLE_LANGUAGES.includes(b.lang));
  if (at < 0) return { error: `the "## Example" section has no fenced ${EXAMPLE_LANGUAGES.join('/')} block` };
  const example = blocks[at];
  const next = blocks[at + 1];
  const expected = next && /^(prints|Output:)$/u.test(next.before) ? next.code : undefined;
  return { lang: example.lang, code: example.code, line: example.line, expected };
}
