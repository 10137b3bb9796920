/**
 * `parsePlan`: plan text -> the parsed tree and every syntax diagnostic. One pass over the lines,
 * an explicit stack of open for_each_file blocks (no recursion), so a million lines parse in a
 * few hundred milliseconds and any nesting depth is safe. Grammar: see README.md.
 */
import { RULES, type Finding, type RuleId } from './findings.js';
import { PLACEHOLDER, type ForEachNode, type Plan, type PlanNode } from './plan.js';

export interface ParseResult {
  plan: Plan;
  diagnostics: Finding[];
}

const WS = /\s+/;

interface Open {
  node: ForEachNode | undefined;
  body: PlanNode[];
  indent: number;
}

export function parsePlan(text: string, file: string): ParseResult {
  const diagnostics: Finding[] = [];
  const report = (ruleId: RuleId, line: number, column: number, message: string): void => {
    diagnostics.push({ ruleId, severity: RULES[ruleId].severity, message, file, line, column });
  };
  const root: PlanNode[] = [];
  const stack: Open[] = [{ node: undefined, body: root, indent: 0 }];
  let loopDepth = 0;
  // A header whose body has not started yet: the next content line must be 2 spaces deeper.
  let pendingHeader: ForEachNode | undefined;
  // Whether a line meant as that body was rejected (a tab, too deep): then the block is not also
  // reported empty, which would only repeat the same mistake.
  let pendingBodyRejected = false;
  // The few command names a plan uses, reused instead of sliced again: a million lines, a handful of strings.
  const recent: string[] = [];

  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
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
      if (pendingHeader !== undefined) pendingBodyRejected = true;
      continue;
    }
    if (first === 35 /* # */) continue;

    // Close finished blocks; check the indentation against the open ones.
    if (pendingHeader !== undefined) {
      const want = stack[stack.length - 1]!.indent + 2;
      if (indent === want) {
        stack.push({ node: pendingHeader, body: pendingHeader.body, indent: want });
        if (stack.length - 1 > loopDepth) loopDepth = stack.length - 1;
      } else if (indent > want) {
        report('bad-indentation', lineNo, 1, `expected ${want} spaces (the body of the for_each_file on line ${pendingHeader.line}), found ${indent}`);
        pendingBodyRejected = true;
        continue;
      } else if (!pendingBodyRejected) {
        report('empty-block', pendingHeader.line, pendingHeader.column, 'for_each_file has no body: indent its commands 2 spaces deeper');
      }
      pendingHeader = undefined;
    }
    let top = stack[stack.length - 1]!;
    if (indent !== top.indent) {
      while (stack.length > 1 && indent < top.indent) {
        stack.pop();
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
    const name = recentName(recent, text, base + indent, end - indent);
    const column = indent + 1;
    let argStart = end;
    while (argStart < len && isSpace(text.charCodeAt(base + argStart))) argStart++;
    let rawEnd = len;
    while (rawEnd > argStart && isSpace(text.charCodeAt(base + rawEnd - 1))) rawEnd--;
    const raw = text.slice(base + argStart, base + rawEnd);
    const argsColumn = argStart + 1;
    if (name === undefined) {
      report('malformed-line', lineNo, column, `expected "<command> <args...>", found ${JSON.stringify(text.slice(base + indent, base + end))}`);
      continue;
    }
    const depth = stack.length - 1;
    if (depth === 0 && raw.includes(PLACEHOLDER)) {
      report('unbound-placeholder', lineNo, argsColumn + raw.indexOf(PLACEHOLDER), `${PLACEHOLDER} is only defined inside a for_each_file block`);
    }
    if (name === 'for_each_file') {
      if (raw === '' || WS.test(raw)) {
        report('malformed-line', lineNo, column, raw === '' ? 'for_each_file needs a glob: for_each_file <glob>' : 'for_each_file takes exactly one glob (no spaces)');
        continue;
      }
      const node: ForEachNode = { kind: 'for_each_file', glob: raw, line: lineNo, column, argsColumn, body: [] };
      top.body.push(node);
      pendingHeader = node;
      pendingBodyRejected = false;
      continue;
    }
    if (name === 'call_plan') {
      if (raw === '' || WS.test(raw)) {
        report('malformed-line', lineNo, column, raw === '' ? 'call_plan needs a plan name or path: call_plan <name-or-path>' : 'call_plan takes exactly one argument (no spaces)');
        continue;
      }
      top.body.push({ kind: 'call_plan', target: raw, line: lineNo, column, argsColumn });
      continue;
    }
    top.body.push({ kind: 'command', name, args: splitArgs(raw), raw, line: lineNo, column, argsColumn });
  }
  if (pendingHeader !== undefined && !pendingBodyRejected) report('empty-block', pendingHeader.line, pendingHeader.column, 'for_each_file has no body: indent its commands 2 spaces deeper');
  return { plan: { file, body: root, loopDepth }, diagnostics };
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 11 || c === 12;
}

/** The name at `at`, reused from `recent` when seen before; undefined when it is not a valid name. */
function recentName(recent: string[], text: string, at: number, length: number): string | undefined {
  for (const n of recent) if (n.length === length && text.startsWith(n, at)) return n;
  const name = text.slice(at, at + length);
  if (!isName(name)) return undefined;
  if (recent.length < 16) recent.push(name);
  else recent[(at + length) & 15] = name;
  return name;
}

/** `[A-Za-z_][A-Za-z0-9_.-]*`, without a RegExp on the hot path. */
function isName(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const alpha = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (alpha) continue;
    if (i > 0 && ((c >= 48 && c <= 57) || c === 46 || c === 45)) continue;
    return false;
  }
  return true;
}

/** Split trimmed args on runs of whitespace. */
function splitArgs(raw: string): string[] {
  if (raw.length === 0) return [];
  // Fast path, most lines: one argument (indexOf is much faster than a character loop).
  if (raw.indexOf(' ') < 0 && raw.indexOf('\t') < 0 && raw.indexOf('\v') < 0 && raw.indexOf('\f') < 0 && raw.indexOf('\r') < 0) return [raw];
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

/** True when the parsed plan has no command at all (blank, comments only). */
export function isEmptyPlan(plan: Plan): boolean {
  return plan.body.length === 0;
}
