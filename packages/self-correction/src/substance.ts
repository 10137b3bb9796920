/**
 * Whether a piece of a post-mortem says something: measured in real words, not by matching a list of
 * bad answers. A real word is a word of at least two letters that is not one letter repeated
 * ("xx"); in scripts written without spaces (Han, kana, Thai, ...) each character counts. Markdown
 * syntax (emphasis, link targets, HTML comments) is not content; what is inside backticks is.
 * A placeholder is text that holds nothing but bracketed slots (`[Description of the corrective
 * action]`, `[TASK_ID]`): the convention of the original's templates. Ratchet's own template is
 * recognised by its text (see postmortem-template.ts), so a copied comment or example is no content.
 */

/** Distinct words a lesson's text needs (its insight; an action that is not a recognised command). */
export const LESSON_MIN_WORDS = 3;

// Not Intl.Segmenter: iterating its segments is quadratic in Node 20 (12 s for 20,000 words).
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
const NO_SPACES = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const NO_SPACES_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/gu;
const LETTER = /\p{L}/gu;

/** The text without Markdown that carries no words: HTML comments, link and image targets, emphasis marks, label colons. */
export function plainText(text: string): string {
  return text
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/<https?:[^>\s]*>/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/[*_~`#>|]+/g, ' ');
}

/** The distinct real words of `text` (lower case, in order of appearance). */
export function realWords(text: string): string[] {
  const seen = new Set<string>();
  for (const [match] of plainText(text).matchAll(WORD)) {
    const word = match.toLowerCase();
    if (NO_SPACES.test(word)) {
      // A script written without spaces: each of its characters stands for a word (a lower bound).
      for (const [char] of word.matchAll(NO_SPACES_CHAR)) seen.add(char);
      continue;
    }
    const letters = word.match(LETTER) ?? [];
    if (letters.length >= 2 && new Set(letters).size > 1) seen.add(word);
  }
  return [...seen];
}

/** How many distinct real words `text` has. */
export function wordCount(text: string): number {
  return realWords(text).length;
}

/** Text made only of bracketed slots (and punctuation): `[TASK_ID]`, `[Description of the corrective action]`. */
export function isBracketPlaceholder(text: string): boolean {
  const stripped = text.replace(/[*_`]/g, '').trim();
  if (!/\[[^\]\n]+\](?!\()/.test(stripped)) return false;
  return wordCount(stripped.replace(/\[[^\]\n]*\](?!\()/g, ' ')) === 0;
}

/** Lines compared as content: case, spacing, Markdown emphasis, list markers and a final full stop aside. */
export function normaliseLine(line: string): string {
  return line
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.:]$/, '')
    .toLowerCase();
}
