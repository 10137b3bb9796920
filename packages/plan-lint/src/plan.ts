/**
 * The parsed form of a plan: plain JSON (its JSON Schema is schemas/plan.schema.json). The node and
 * plan types are the zod schemas' (schema.ts, `import type` only: the main entry never loads zod);
 * the recursive `for_each_file` node is written out once here, and schema.ts's `PlanNodeSchema` is
 * declared as a `z.ZodType<PlanNode>`, so the compiler holds the two together.
 */
import type { z } from 'zod';
import type { CallNodeSchema, CommandNodeSchema, PlanSchema } from './schema.js';

/**
 * A command line: `name` the first word, `args` split on whitespace, `raw` the rest of the line
 * trimmed (what `when.argsMatch` tests); `argsColumn` is where `raw` starts (1-based; the end of the
 * line + 1 when there are no args).
 */
export type CommandNode = z.infer<typeof CommandNodeSchema>;

export interface ForEachNode {
  kind: 'for_each_file';
  glob: string;
  line: number;
  column: number;
  argsColumn: number;
  body: PlanNode[];
}

export type CallNode = z.infer<typeof CallNodeSchema>;

export type PlanNode = CommandNode | ForEachNode | CallNode;

/** A parsed plan: `file` its project-relative path, `loopDepth` the deepest for_each_file nesting (0: none). */
export type Plan = z.infer<typeof PlanSchema>;

export const PLACEHOLDER = '{file}';

/**
 * Loop variables: `{file}` is the file of the innermost for_each_file around the line; `{file1}`,
 * `{file2}`, ... name the file of each enclosing loop, outermost first (the original Jules
 * toolchain wrote nested loops this way). Anything else in braces is literal text.
 */
const LOOP_VARIABLE = /\{file(\d*)\}/g;

/**
 * `value` with every loop variable replaced from `bindings` (the files of the enclosing loops,
 * outermost first). A variable with no binding is left as written (the parser reported it).
 */
export function bindPlaceholders(value: string, bindings: readonly string[]): string {
  // Fast paths: most arguments hold no brace at all, and a loop body's file argument is often just
  // `{file}`; lint binds every argument of every iteration, so this is on its hottest path.
  if (bindings.length === 0) return value;
  const first = value.indexOf('{file');
  if (first < 0) return value;
  if (first === 0 && value.length === 6 && value.charCodeAt(5) === 125 /* } */) return bindings[bindings.length - 1]!;
  return value.replace(LOOP_VARIABLE, (whole, n: string) => {
    const bound = n === '' ? bindings[bindings.length - 1] : bindings[Number(n) - 1];
    return n !== '' && Number(n) < 1 ? whole : (bound ?? whole);
  });
}

/**
 * Where `text[from, to)` uses a loop variable that `depth` enclosing loops do not bind (`{file}`
 * outside any loop, `{file3}` inside two): the offset and the variable, or undefined.
 */
export function unboundPlaceholder(text: string, from: number, to: number, depth: number): { offset: number; name: string } | undefined {
  // A bounded scan, not indexOf: indexOf would search the rest of a million-line plan on every line.
  for (let k = from; k + 6 <= to; k++) {
    if (text.charCodeAt(k) !== 123 /* { */ || !text.startsWith('{file', k)) continue;
    let e = k + 5;
    while (e < to && text.charCodeAt(e) >= 48 && text.charCodeAt(e) <= 57) e++;
    if (e < to && text.charCodeAt(e) === 125 /* } */) {
      const digits = text.slice(k + 5, e);
      const n = digits === '' ? 1 : Number(digits);
      if (n < 1 || n > depth) return { offset: k, name: text.slice(k, e + 1) };
    }
  }
  return undefined;
}

/** Whether `value` uses any loop variable (`{file}`, `{file1}`, ...). */
export function hasPlaceholder(value: string): boolean {
  return value.includes('{file') && /\{file\d*\}/.test(value);
}
