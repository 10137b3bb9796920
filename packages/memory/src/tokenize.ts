/**
 * Tokenising for lexical relevance and near-duplicate detection. A hand-written character loop
 * (no regex split): it runs over every entry when a query builds its index, so it must be cheap.
 * Splits on anything that is not a letter or digit, and inside words on camelCase humps
 * ("ImportError" -> import, error); lowercases; drops stop words; strips a few English suffixes so
 * "failing", "failed" and "fails" meet at "fail".
 */

const STOP = new Set(
  'a an and are as at be but by can did do does for from had has have he her his how i if in into is it its me my no not of on or our she so than that the their them then there these they this to too was we were what when where which while who why will with you your'.split(
    ' ',
  ),
);

/** Tokens of `text`, in order, duplicates kept. `raw`: lowercased words, no stop words dropped, no stemming. */
export function tokenize(text: string, raw = false): string[] {
  const out: string[] = [];
  forEachWord(text, (word) => {
    if (raw) out.push((word.length > 64 ? word.slice(0, 64) : word).toLowerCase());
    else {
      const term = termOf(word);
      if (term !== undefined) out.push(term);
    }
  });
  return out;
}

/**
 * Calls `fn` with each word of `text` as written (case kept, camelCase humps split). The index
 * memoises termOf per distinct written word, so most words cost one Map lookup.
 */
export function forEachWord(text: string, fn: (word: string) => void): void {
  const n = text.length;
  let start = -1;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    const isLower = c >= 97 && c <= 122;
    const isUpper = c >= 65 && c <= 90;
    const isDigit = c >= 48 && c <= 57;
    // Letters outside ASCII count as word characters (surrogates too: emoji stay inside a token), but
    // not punctuation, spaces, the BOM or specials.
    const isWord = isLower || isUpper || isDigit || (c >= 0xc0 && c !== 0xd7 && c !== 0xf7 && !(c >= 0x2000 && c <= 0x2bff) && !(c >= 0x3000 && c <= 0x303f) && c !== 0xfeff && c < 0xfff0);
    if (!isWord) {
      if (start >= 0) fn(text.slice(start, i));
      start = -1;
      continue;
    }
    if (start < 0) {
      start = i;
      continue;
    }
    // camelCase hump: lower followed by upper ("importError"), or the end of an acronym ("HTTPServer").
    if (isUpper) {
      const prev = text.charCodeAt(i - 1);
      const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if ((prev >= 97 && prev <= 122) || (prev >= 65 && prev <= 90 && next >= 97 && next <= 122)) {
        fn(text.slice(start, i));
        start = i;
      }
    }
  }
}

/** The index term of one written word, or undefined for stop words and single letters. */
export function termOf(written: string): string | undefined {
  const word = (written.length > 64 ? written.slice(0, 64) : written).toLowerCase(); // a base64 blob is not a word
  if (word.length < 2 && !(word >= '0' && word <= '9')) return undefined;
  if (STOP.has(word)) return undefined;
  return stem(word);
}

/** A deliberately small suffix stripper: predictable, and enough to join inflections. */
export function stem(word: string): string {
  const n = word.length;
  if (n > 5 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (n > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (n > 5 && word.endsWith('ed') && !word.endsWith('eed')) return word.slice(0, -2);
  if (n > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

/** Lowercased, whitespace-collapsed text: what "the same trigger" means before similarity. */
export function normalizeText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}
