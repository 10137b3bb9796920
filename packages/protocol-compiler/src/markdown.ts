/** Markdown that data cannot break out of: code spans and fences sized to their content. */
/**
 * Inline code that its content cannot break: a delimiter longer than any backtick run inside (with
 * spaces when the content touches a backtick), on one line.
 */
export function code(text: string): string {
  const body = text.replace(/[\r\n]+/g, ' ');
  let longest = 0;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const tick = '`'.repeat(longest + 1);
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : '';
  return `${tick}${pad}${body}${pad}${tick}`;
}

/** A code fence longer than any backtick run inside, so no content can close it early. */
export function fenced(lang: string, body: string): string[] {
  let longest = 0;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${lang}`, body, fence];
}

/** Code-unit order: the same on every machine and locale (the compiled block must be byte-stable). */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
