/** Task sequence numbers: FTL writes "001", plans may write 1; both are the integer 1. */

export const MAX_SEQ = 999_999_999;

/** The integer for a seq given as a number or a digit string; undefined when it is not one. */
export function normalizeSeq(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 && value <= MAX_SEQ ? value : undefined;
  if (typeof value !== 'string') return undefined;
  // Hand-rolled digit scan (the regex it replaces dominated add-tasks on 100,000-task plans).
  let n = 0;
  let digits = 0;
  let i = 0;
  const len = value.length;
  while (i < len && isSpace(value.charCodeAt(i))) i++;
  for (; i < len; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) break;
    n = n * 10 + (c - 48);
    if (++digits > 9) return undefined;
  }
  while (i < len && isSpace(value.charCodeAt(i))) i++;
  return digits > 0 && i === len ? n : undefined;
}

/** "001": at least three digits, as in FTL's file names. */
export function formatSeq(seq: number): string {
  return String(seq).padStart(3, '0');
}

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;
