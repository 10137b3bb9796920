/**
 * A small unified diff of two texts by lines, for `--check` and `--dry-run` output. Common prefix
 * and suffix are trimmed first, so the LCS table only covers the changed middle.
 */

export function unifiedDiff(before: string, after: string, labels: { from?: string; to?: string } = {}, context = 3): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);

  // Edit script over the middle: ' ' keep, '-' delete, '+' insert.
  const ops: { op: ' ' | '-' | '+'; text: string }[] = [];
  for (let i = 0; i < pre; i++) ops.push({ op: ' ', text: a[i]! });
  ops.push(...lcsScript(am, bm));
  for (let i = a.length - suf; i < a.length; i++) ops.push({ op: ' ', text: a[i]! });

  const out = [`--- ${labels.from ?? 'before'}`, `+++ ${labels.to ?? 'after'}`];
  // Group changes into hunks with `context` lines around them.
  let i = 0;
  let aLine = 1;
  let bLine = 1;
  const posA: number[] = [];
  const posB: number[] = [];
  for (const o of ops) {
    posA.push(aLine);
    posB.push(bLine);
    if (o.op !== '+') aLine++;
    if (o.op !== '-') bLine++;
  }
  while (i < ops.length) {
    if (ops[i]!.op === ' ') {
      i++;
      continue;
    }
    const start = Math.max(0, i - context);
    let end = i;
    // Extend while the next change is within 2*context keeps.
    for (;;) {
      while (end < ops.length && ops[end]!.op !== ' ') end++;
      let k = end;
      while (k < ops.length && ops[k]!.op === ' ' && k - end < 2 * context) k++;
      if (k < ops.length && ops[k]!.op !== ' ') end = k;
      else break;
    }
    const stop = Math.min(ops.length, end + context);
    const slice = ops.slice(start, stop);
    const aCount = slice.filter((o) => o.op !== '+').length;
    const bCount = slice.filter((o) => o.op !== '-').length;
    const aStart = aCount === 0 ? posA[start]! - 1 : posA[start]!;
    const bStart = bCount === 0 ? posB[start]! - 1 : posB[start]!;
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const o of slice) out.push(`${o.op}${o.text}`);
    i = stop;
  }
  return `${out.join('\n')}\n`;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  else lines[lines.length - 1] += '\n\\ No newline at end of file';
  return lines;
}

function lcsScript(a: string[], b: string[]): { op: ' ' | '-' | '+'; text: string }[] {
  const n = a.length;
  const m = b.length;
  // Very large middles: plain replace (still a correct diff, just not minimal).
  if (n * m > 4_000_000) return [...a.map((text) => ({ op: '-' as const, text })), ...b.map((text) => ({ op: '+' as const, text }))];
  const table = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] = a[i] === b[j] ? table[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(table[(i + 1) * (m + 1) + j]!, table[i * (m + 1) + j + 1]!);
    }
  }
  const ops: { op: ' ' | '-' | '+'; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ op: ' ', text: a[i]! });
      i++;
      j++;
    } else if (table[(i + 1) * (m + 1) + j]! >= table[i * (m + 1) + j + 1]!) ops.push({ op: '-', text: a[i++]! });
    else ops.push({ op: '+', text: b[j++]! });
  }
  while (i < n) ops.push({ op: '-', text: a[i++]! });
  while (j < m) ops.push({ op: '+', text: b[j++]! });
  return ops;
}
