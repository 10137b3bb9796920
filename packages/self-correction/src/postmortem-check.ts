/**
 * Was the post-mortem filled in? Every section of the template must be there and say something of
 * its own: its real words (substance.ts) are counted without HTML comments, bracketed placeholders
 * and any line that is the template's own text (a guidance comment with its markers removed, a
 * copied example), and must reach the section's `minWords` (postmortem-template.ts). Sections a
 * person added must not be empty. The lessons section is judged by its lessons (`extractLessons`
 * with `strict`), not here. Pure.
 */
import { headingText, parseMarkdownTree } from './markdown-tree.js';
import { isLessonsHeading } from './extract.js';
import { POSTMORTEM_SECTIONS, templateLines } from './postmortem-template.js';
import { isBracketPlaceholder, normaliseLine, wordCount } from './substance.js';

export interface PostMortemProblem {
  /** `section-missing`, `section-empty` (nothing but comments), `section-thin` (too few words of its own). */
  code: 'section-missing' | 'section-empty' | 'section-thin';
  /** The section's heading text (the template's, for a missing one). */
  section: string;
  /** The heading's line (1 for a missing section). */
  line: number;
  message: string;
}

let templateText: Set<string> | undefined;

/** Every problem with the post-mortem's sections, in the template's order, then the added sections'. */
export function checkPostMortem(markdown: string): PostMortemProblem[] {
  templateText ??= new Set(templateLines().map(normaliseLine));
  const text = markdown.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lines = text.split('\n');
  const tree = parseMarkdownTree(text);
  // Level-2 sections, each up to the next heading of level 1 or 2.
  const headings = tree.children.filter((n) => n.type === 'heading' && n.depth <= 2);
  const sections = headings
    .map((h, i) => ({ heading: h, end: headings[i + 1]?.line ?? lines.length + 1 }))
    .filter((s) => s.heading.depth === 2)
    .map((s) => ({ title: headingText(s.heading), line: s.heading.line, body: lines.slice(s.heading.line, s.end - 1) }));

  const problems: PostMortemProblem[] = [];
  const matched = new Set<number>();
  for (const expected of POSTMORTEM_SECTIONS) {
    const found = sections.findIndex((s, i) => !matched.has(i) && (expected.lessons === true ? isLessonsHeading(s.title) : sameTitle(s.title, expected.title)));
    if (found < 0) {
      problems.push({ code: 'section-missing', section: expected.title, line: 1, message: `section "${expected.title}" is missing: keep the template's sections and write in them` });
      continue;
    }
    matched.add(found);
    const section = sections[found]!;
    const problem = judge(section.title, section.body, expected.minWords);
    // The lessons section is judged by its lessons (extractLessons, strict); here only whether it is empty.
    if (expected.lessons === true && problem?.code !== 'section-empty') continue;
    if (problem !== undefined) problems.push({ ...problem, line: section.line });
  }
  for (const [i, section] of sections.entries()) {
    if (matched.has(i) || isLessonsHeading(section.title)) continue;
    const problem = judge(section.title, section.body, 0);
    if (problem !== undefined) problems.push({ ...problem, line: section.line });
  }
  return problems;
}

/** The section's own words: no comments, placeholders or template lines. */
function ownText(body: readonly string[]): { raw: string; own: string } {
  const raw = body.join('\n').replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  const own = raw
    .split('\n')
    .filter((line) => line.trim() !== '' && !isBracketPlaceholder(line) && !templateText!.has(normaliseLine(line)))
    .join('\n');
  return { raw, own };
}

function judge(title: string, body: readonly string[], minWords: number): Omit<PostMortemProblem, 'line'> | undefined {
  const { raw, own } = ownText(body);
  // Headings below this one (### subsections) count as its content: the original's layout nests them.
  if (raw.replace(/^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/gm, '').trim() === '') return { code: 'section-empty', section: title, message: `section "${title}" is empty` };
  const words = wordCount(own);
  const needed = Math.max(minWords, 1);
  if (words >= needed) return undefined;
  const what = own.trim() === '' ? 'only the template\'s text or placeholders' : `${words} real word${words === 1 ? '' : 's'} of its own`;
  return { code: 'section-thin', section: title, message: `section "${title}" says too little: ${what}, at least ${needed} needed ("x", placeholders and the template's guidance do not count)` };
}

// "1. Summary" matches "Summary", "1) Summary:" and "**1. Summary**": the number and emphasis aside.
function sameTitle(found: string, expected: string): boolean {
  const bare = (t: string): string => t.replace(/^\d+(?:\.\d+)*[.)]?\s*/, '').replace(/[*_:]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
  return bare(found) === bare(expected);
}
