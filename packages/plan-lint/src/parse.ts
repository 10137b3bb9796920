/**
 * Plan text -> every syntax diagnostic and the plan in two shapes:
 * - `scanPlan`: the compact form lint walks, a few typed arrays over the original text (nodes in
 *   pre-order, a loop's body is the index range after it). A million-line plan is a handful of
 *   objects instead of three million, so the garbage collector has almost nothing to copy or mark
 *   and lint time grows linearly with the plan.
 * - `parsePlan`: the documented tree (schemas/plan.schema.json), built from the compact form.
 * One pass over the lines, an explicit stack of open for_each_file blocks (no recursion), so any
 * nesting depth is safe. Grammar: see README.md.
 */
import { RULES, type Finding, type RuleId } from './findings.js';
import { blockToLineForm, isBlockGrammarPlan, type PositionMap } from './grammars.js';
import { unboundPlaceholder, type ForEachNode, type Plan, type PlanNode } from './plan.js';

export interface ParseResult {
  plan: Plan;
  diagnostics: Finding[];
}

export const KIND_COMMAND = 0;
export const KIND_LOOP = 1;
export const KIND_CALL = 2;

/** The compact form of a plan: node `i` is described by the i-th entry of each array. */
export interface PlanCode {
  file: string;
  /** The plan text (BOM removed): `start`/`end` are offsets into it. */
  text: string;
  count: number;
  kind: Uint8Array;
  line: Int32Array;
  column: Int32Array;
  argsColumn: Int32Array;
  /** Commands: index into `names`. */
  name: Int32Array;
  /** The arguments (trimmed): `text.slice(start[i], end[i])`; the glob of a loop, the target of a call. */
  start: Int32Array;
  end: Int32Array;
  /** The index after node i and, for a loop, after its body: the body of loop i is [i + 1, next[i]). */
  next: Int32Array;
  names: string[];
  /** Index of the last top-level node, -1 for an empty plan. */
  last: number;
  /** Deepest for_each_file nesting (0: none). */
  loopDepth: number;
  /**
   * Set when the plan was written in the block form (block-grammar.ts): `text` and every position
   * above are those of its line-form rewrite; this maps them back to the file as written.
   */
  remap?: PositionMap;
}

export interface ScanResult {
  code: PlanCode;
  diagnostics: Finding[];
}

const WS = /\s+/;

interface Open {
  /** Index of the for_each_file node that opened the block; -1 for the plan itself. */
  header: number;
  indent: number;
}

/** Growable typed columns (doubling), trimmed to size at the end. */
class Columns {
  kind = new Uint8Array(1024);
  line = new Int32Array(1024);
  column = new Int32Array(1024);
  argsColumn = new Int32Array(1024);
  name = new Int32Array(1024);
  start = new Int32Array(1024);
  end = new Int32Array(1024);
  next = new Int32Array(1024);
  count = 0;

  push(kind: number, line: number, column: number, argsColumn: number, name: number, start: number, end: number): number {
    const i = this.count++;
    if (i === this.kind.length) this.grow();
    this.kind[i] = kind;
    this.line[i] = line;
    this.column[i] = column;
    this.argsColumn[i] = argsColumn;
    this.name[i] = name;
    this.start[i] = start;
    this.end[i] = end;
    this.next[i] = i + 1;
    return i;
  }

  private grow(): void {
    const size = this.kind.length * 2;
    const copy = <T extends Uint8Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.kind = copy(this.kind, (n) => new Uint8Array(n));
    this.line = copy(this.line, (n) => new Int32Array(n));
    this.column = copy(this.column, (n) => new Int32Array(n));
    this.argsColumn = copy(this.argsColumn, (n) => new Int32Array(n));
    this.name = copy(this.name, (n) => new Int32Array(n));
    this.start = copy(this.start, (n) => new Int32Array(n));
    this.end = copy(this.end, (n) => new Int32Array(n));
    this.next = copy(this.next, (n) => new Int32Array(n));
  }
}

/**
 * The compact form of a plan in either grammar. Positions (in `code` and in the diagnostics) are
 * those of the line form; `code.remap` turns them into positions in the original file when the
 * plan was written in the block form.
 */
export function scanPlan(source: string, file: string): ScanResult {
  if (!isBlockGrammarPlan(source)) return scanLineForm(source, file);
  const { text, map } = blockToLineForm(source);
  const result = scanLineForm(text, file);
  result.code.remap = map;
  return result;
}

function scanLineForm(source: string, file: string): ScanResult {
  const diagnostics: Finding[] = [];
  const report = (ruleId: RuleId, line: number, column: number, message: string): void => {
    diagnostics.push({ ruleId, severity: RULES[ruleId].severity, message, file, line, column });
  };
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const cols = new Columns();
  const names: string[] = [];
  const nameIds = new Map<string, number>();
  // The few command names a plan uses, matched in place instead of sliced: a million lines, a handful of strings.
  const recent: { name: string; id: number }[] = [];
  const stack: Open[] = [{ header: -1, indent: 0 }];
  let loopDepth = 0;
  let last = -1;
  // A header whose body has not started yet: the next content line must be 2 spaces deeper.
  let pending = -1;
  // Whether a line meant as that body was rejected (a tab, too deep): then the block is not also
  // reported empty, which would only repeat the same mistake.
  let pendingBodyRejected = false;
  const emptyBlock = (h: number): void => report('empty-block', cols.line[h]!, cols.column[h]!, 'for_each_file has no body: indent its commands 2 spaces deeper');
  const close = (): void => {
    const open = stack.pop()!;
    cols.next[open.header] = cols.count;
  };

  let pos = 0;
  let lineNo = 0;
  while (pos <= text.length) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = text.length;
    const stop = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    const base = pos;
    const len = stop - pos;
    pos = nl + 1;
    lineNo++;
    let indent = 0;
    while (text.charCodeAt(base + indent) === 32) indent++;
    if (isBlank(text, base + indent, stop)) continue;
    const first = text.charCodeAt(base + indent);
    if (first === 9) {
      report('tab-indentation', lineNo, indent + 1, 'indentation must use spaces, found a tab');
      if (pending >= 0) pendingBodyRejected = true;
      continue;
    }
    if (first === 35 /* # */) continue;

    // Close finished blocks; check the indentation against the open ones.
    if (pending >= 0) {
      const want = stack[stack.length - 1]!.indent + 2;
      if (indent === want) {
        stack.push({ header: pending, indent: want });
        if (stack.length - 1 > loopDepth) loopDepth = stack.length - 1;
      } else if (indent > want) {
        report('bad-indentation', lineNo, 1, `expected ${want} spaces (the body of the for_each_file on line ${cols.line[pending]!}), found ${indent}`);
        pendingBodyRejected = true;
        continue;
      } else if (!pendingBodyRejected) {
        emptyBlock(pending);
      }
      pending = -1;
    }
    let top = stack[stack.length - 1]!;
    if (indent !== top.indent) {
      while (stack.length > 1 && indent < top.indent) {
        close();
        top = stack[stack.length - 1]!;
      }
      if (indent !== top.indent) {
        report('bad-indentation', lineNo, 1, `expected ${top.indent} spaces, found ${indent}`);
        continue;
      }
    }

    // `<command> <args...>`
    let end = indent;
    while (end < len && !isSpace(text.charCodeAt(base + end))) end++;
    const column = indent + 1;
    let argStart = end;
    while (argStart < len && isSpace(text.charCodeAt(base + argStart))) argStart++;
    let rawEnd = len;
    while (rawEnd > argStart && isSpace(text.charCodeAt(base + rawEnd - 1))) rawEnd--;
    const id = nameId(recent, names, nameIds, text, base + indent, end - indent);
    if (id < 0) {
      report('malformed-line', lineNo, column, `expected "<command> <args...>", found ${JSON.stringify(text.slice(base + indent, base + end))}`);
      continue;
    }
    const from = base + argStart;
    const to = base + rawEnd;
    const argsColumn = argStart + 1;
    const depth = stack.length - 1;
    const unbound = unboundPlaceholder(text, from, to, depth);
    if (unbound !== undefined) {
      const message =
        depth === 0
          ? `${unbound.name} is only defined inside a for_each_file block`
          : `${unbound.name} is not bound here: {file1} to {file${depth}} name the files of the ${depth} enclosing for_each_file block(s), {file} the innermost`;
      report('unbound-placeholder', lineNo, argsColumn + unbound.offset - from, message);
    }
    const name = names[id]!;
    if (name === 'for_each_file' || name === 'call_plan') {
      const raw = text.slice(from, to);
      if (raw === '' || WS.test(raw)) {
        const message =
          name === 'for_each_file'
            ? raw === ''
              ? 'for_each_file needs a glob: for_each_file <glob>'
              : 'for_each_file takes exactly one glob (no spaces)'
            : raw === ''
              ? 'call_plan needs a plan name or path: call_plan <name-or-path>'
              : 'call_plan takes exactly one argument (no spaces)';
        report('malformed-line', lineNo, column, message);
        continue;
      }
      const i = cols.push(name === 'for_each_file' ? KIND_LOOP : KIND_CALL, lineNo, column, argsColumn, id, from, to);
      if (depth === 0) last = i;
      if (name === 'for_each_file') {
        pending = i;
        pendingBodyRejected = false;
      }
      continue;
    }
    const i = cols.push(KIND_COMMAND, lineNo, column, argsColumn, id, from, to);
    if (depth === 0) last = i;
  }
  if (pending >= 0 && !pendingBodyRejected) emptyBlock(pending);
  while (stack.length > 1) close();
  const n = cols.count;
  return {
    code: {
      file,
      text,
      count: n,
      kind: cols.kind.slice(0, n),
      line: cols.line.slice(0, n),
      column: cols.column.slice(0, n),
      argsColumn: cols.argsColumn.slice(0, n),
      name: cols.name.slice(0, n),
      start: cols.start.slice(0, n),
      end: cols.end.slice(0, n),
      next: cols.next.slice(0, n),
      names,
      last,
      loopDepth,
    },
    diagnostics,
  };
}

/** Plan text -> the tree (the documented parsed form) and every syntax diagnostic. */
export function parsePlan(text: string, file: string): ParseResult {
  const { code, diagnostics } = scanPlan(text, file);
  const remap = code.remap;
  if (remap === undefined) return { plan: toTree(code), diagnostics };
  return { plan: toTree(code), diagnostics: diagnostics.map((d) => ({ ...d, ...remap(d.line, d.column) })) };
}

/** The compact form as the documented tree. Iterative: nesting depth never touches the call stack. */
export function toTree(code: PlanCode): Plan {
  const root: PlanNode[] = [];
  const open: { body: PlanNode[]; end: number }[] = [{ body: root, end: code.count }];
  for (let i = 0; i < code.count; i++) {
    while (i >= open[open.length - 1]!.end) open.pop();
    const body = open[open.length - 1]!.body;
    const raw = code.text.slice(code.start[i], code.end[i]);
    const at = placeOf(code, i);
    if (code.kind[i] === KIND_COMMAND) {
      body.push({ kind: 'command', name: code.names[code.name[i]!]!, args: splitArgs(raw), raw, ...at });
    } else if (code.kind[i] === KIND_CALL) {
      body.push({ kind: 'call_plan', target: raw, ...at });
    } else {
      const node: ForEachNode = { kind: 'for_each_file', glob: raw, ...at, body: [] };
      body.push(node);
      open.push({ body: node.body, end: code.next[i]! });
    }
  }
  return { file: code.file, body: root, loopDepth: code.loopDepth };
}

/** Where node i stands in the file as written (block-form plans mapped back); `argsColumn` is on the line where its arguments start. */
function placeOf(code: PlanCode, i: number): { line: number; column: number; argsColumn: number } {
  const at = { line: code.line[i]!, column: code.column[i]!, argsColumn: code.argsColumn[i]! };
  if (code.remap === undefined) return at;
  const name = code.remap(at.line, at.column);
  return { ...name, argsColumn: code.remap(at.line, at.argsColumn).column };
}

/**
 * Argument `index` (0-based) of node `i`: its text and its offset in the plan text, or undefined
 * when the line has fewer arguments. Arguments are the whitespace-separated words of the rest of
 * the line; sliced on demand so the compact form keeps no per-line strings.
 */
export function argOf(code: PlanCode, i: number, index: number): { value: string; offset: number } | undefined {
  const text = code.text;
  const to = code.end[i]!;
  let at = code.start[i]!;
  for (let k = 0; ; k++) {
    if (at >= to) return undefined;
    let stop = at;
    while (stop < to && !isSpace(text.charCodeAt(stop))) stop++;
    if (k === index) return { value: text.slice(at, stop), offset: at };
    at = stop;
    while (at < to && isSpace(text.charCodeAt(at))) at++;
  }
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 11 || c === 12;
}

/** The id of the name at `at` (interned), or -1 when it is not a valid name. */
function nameId(recent: { name: string; id: number }[], names: string[], ids: Map<string, number>, text: string, at: number, length: number): number {
  for (const r of recent) if (r.name.length === length && text.startsWith(r.name, at)) return r.id;
  const name = text.slice(at, at + length);
  if (!isName(name)) return -1;
  let id = ids.get(name);
  if (id === undefined) {
    id = names.length;
    names.push(name);
    ids.set(name, id);
  }
  if (recent.length < 16) recent.push({ name, id });
  else recent[(at + length) & 15] = { name, id };
  return id;
}

/**
 * `[A-Za-z_][A-Za-z0-9_.:-]*`, without a RegExp on the hot path. The colon is for the original's
 * lines like `run:fdc_cli.py close` (see line-alphabet.ts); dialect command names never have one.
 */
function isName(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const alpha = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (alpha) continue;
    if (i > 0 && ((c >= 48 && c <= 57) || c === 46 || c === 45 || c === 58)) continue;
    return false;
  }
  return true;
}

/** Split trimmed args on runs of whitespace. */
function splitArgs(raw: string): string[] {
  if (raw.length === 0) return [];
  const out: string[] = [];
  let i = 0;
  const n = raw.length;
  while (i < n) {
    const from = i;
    while (i < n && !isSpace(raw.charCodeAt(i))) i++;
    out.push(from === 0 && i === n ? raw : raw.slice(from, i));
    while (i < n && isSpace(raw.charCodeAt(i))) i++;
  }
  return out;
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}
