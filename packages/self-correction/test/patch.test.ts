import fc from 'fast-check';
import { unifiedDiff } from '@ratchet/protocol-compiler';
import { describe, expect, test } from 'vitest';
import { applyPatch, parsePatch, type LessonsError } from '../src/index.js';

const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as LessonsError).code;
  }
  return 'none';
};

describe('patches', () => {
  test('applies at the stated line or one unambiguous offset; refuses mismatches whole', () => {
    const patch = parsePatch('--- a/f\n+++ b/f\n@@ -2,2 +2,2 @@\n b\n-c\n+C\n');
    expect(patch.oldPath).toBe('f');
    expect(applyPatch('a\nb\nc\nd\n', patch)).toBe('a\nb\nC\nd\n');
    expect(applyPatch('x\ny\na\nb\nc\n', patch)).toBe('x\ny\na\nb\nC\n');
    expect(code(() => applyPatch('a\nb\nX\n', patch))).toBe('diff-does-not-apply');
    expect(code(() => applyPatch('b\nc\nb\nc\n', parsePatch('@@ -5,2 +5,2 @@\n b\n-c\n+C\n')))).toBe('diff-does-not-apply');
    expect(code(() => applyPatch(undefined, patch))).toBe('diff-does-not-apply');
  });

  test('creation, CRLF files, no-newline markers', () => {
    const create = parsePatch('--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n');
    expect(create.creates).toBe(true);
    expect(applyPatch(undefined, create)).toBe('one\ntwo\n');
    expect(code(() => applyPatch('exists\n', create))).toBe('diff-does-not-apply');
    expect(applyPatch('a\r\nb\r\n', parsePatch('@@ -1,2 +1,2 @@\n a\n-b\n+B\n'))).toBe('a\r\nB\r\n');
    expect(applyPatch('a\nb', parsePatch('@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n'))).toBe('a\nc');
  });

  test('malformed diffs: several files, truncated hunks, garbage, none at all', () => {
    expect(code(() => parsePatch('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n'))).toBe('bad-diff');
    expect(code(() => parsePatch('@@ -1,3 +1,3 @@\n a\n'))).toBe('bad-diff');
    expect(code(() => parsePatch('@@ -1 +1 @@\n?x\n'))).toBe('bad-diff');
    expect(code(() => parsePatch('just text\n'))).toBe('bad-diff');
  });

  test('property: a diff from unifiedDiff applies back to the new text', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 30 });
    fc.assert(
      fc.property(lines, lines, (x, y) => {
        const before = x.length ? `${x.join('\n')}\n` : '';
        const after = y.length ? `${y.join('\n')}\n` : '';
        if (before === after || before === '') return;
        expect(applyPatch(before, parsePatch(unifiedDiff(before, after)))).toBe(after);
      }),
      { numRuns: 300 },
    );
  });
});
