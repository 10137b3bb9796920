/**
 * A unified diff of two texts, for `--check` and `--dry-run` output and for lessons' suggested
 * changes: jsdiff (the `diff` package) computes it; this only fixes the shape Ratchet prints (file
 * headers without jsdiff's `Index:`/`===` preamble, empty when nothing changed).
 */
import { FILE_HEADERS_ONLY, createTwoFilesPatch } from 'diff';

export function unifiedDiff(before: string, after: string, labels: { from?: string; to?: string } = {}, context = 3): string {
  if (before === after) return '';
  return createTwoFilesPatch(labels.from ?? 'before', labels.to ?? 'after', before, after, undefined, undefined, { context, headerOptions: FILE_HEADERS_ONLY });
}
