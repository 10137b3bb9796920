/**
 * The plan grammars of the original Jules toolchain, read (and written) by Ratchet.
 *
 * It had two plan syntaxes that rejected each other: the line form Ratchet uses (`<command>
 * <args...>` on one line) and `plan_parser.py`'s block form, where a command's name stands on its
 * own line, its arguments follow on the next lines, blocks are separated by `---` lines and `#`
 * lines are comments:
 *
 *     # FSM: tooling/fdc_fsm.json
 *     set_plan
 *     Rename the helper
 *     ---
 *     run_in_bash_session
 *     python tooling/fdc_cli.py close --task-id T1
 *
 * Ratchet reads both and writes one. A block plan is rewritten here into the line form (one line
 * per block: the name, then every argument line, joined by single spaces; comments kept in place),
 * together with a map from each position of the rewritten text back to the line and column of the
 * original, so every finding still points into the file the user wrote. `formatPlan` writes the
 * one-line form; `planDirectives` reads the `# FSM:` line the original put at a plan's top.
 */
import type { Finding } from './findings.js';
import { parsePlan } from './parse.js';

/** A position in the rewritten (line-form) text -> the same character in the original text. */
export type PositionMap = (line: number, column: number) => { line: number; column: number };

export interface LineForm {
  /** The plan in the line form (LF line ends, a final newline). */
  text: string;
  map: PositionMap;
  /** For each line of `text`, the input lines it was joined from (a command, then its argument lines). */
  inputLines: number[][];
}

/** A `---` line (spaces, tabs and a CR around it allowed): only the block form has them. */
const SEPARATOR = /^[ \t]*---[ \t\r]*$/m;

/**
 * Whether `text` is a plan in the block form: it has a `---` separator line. The line form never
 * does (`---` is not a command name), and every useful block plan has one, since even the smallest
 * plan has three commands (open, step, close).
 */
export function isBlockGrammarPlan(text: string): boolean {
  return SEPARATOR.test(text);
}

/** One run of rewritten text that came from one original line: it starts at `column` of the rewritten line. */
interface Segment {
  column: number;
  line: number;
  origColumn: number;
}

/** The block form rewritten into the line form, with its position map. */
export function blockToLineForm(source: string): LineForm {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const lines = text.split('\n');
  const out: string[] = [];
  const segments: Segment[][] = [];
  let block: { text: string; segs: Segment[] } | undefined;
  const flush = (): void => {
    if (block === undefined) return;
    out.push(block.text);
    segments.push(block.segs);
    block = undefined;
  };
  lines.forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const lineNo = index + 1;
    if (/^[ \t]*---[ \t]*$/.test(line)) return flush();
    const lead = line.length - line.trimStart().length;
    const content = line.trim();
    if (content === '') return;
    if (content.startsWith('#')) {
      // A comment stays a comment line of its own, in place (before the command being collected).
      out.push(content);
      segments.push([{ column: 1, line: lineNo, origColumn: lead + 1 }]);
      return;
    }
    if (block === undefined) block = { text: content, segs: [{ column: 1, line: lineNo, origColumn: lead + 1 }] };
    else {
      const column = block.text.length + 2;
      block.text += ` ${content}`;
      block.segs.push({ column, line: lineNo, origColumn: lead + 1 });
    }
  });
  flush();
  const map: PositionMap = (line, column) => {
    const segs = segments[line - 1];
    if (segs === undefined || segs.length === 0) return { line, column };
    let seg = segs[0]!;
    for (const s of segs) if (s.column <= column) seg = s;
    return { line: seg.line, column: seg.origColumn + Math.max(0, column - seg.column) };
  };
  return { text: out.length === 0 ? '' : `${out.join('\n')}\n`, map, inputLines: segments.map((segs) => segs.map((seg) => seg.line)) };
}

// ---- `# FSM:` and other directives in the leading comments ----

/**
 * The original let a plan name the state machine it follows on a comment line at its top,
 * `# FSM: tooling/research_fsm.json`; to every other reader the line is an ordinary comment.
 */
export interface PlanDirective {
  /** The value as written (a path, relative to the project root for `FSM`). */
  value: string;
  line: number;
  /** 1-based column where the value starts. */
  column: number;
}

export interface PlanDirectives {
  /** `# FSM: <file>`: the FSM definition the plan follows. */
  fsm?: PlanDirective;
}

const FSM_DIRECTIVE = /^([ \t]*#[ \t]*FSM[ \t]*:[ \t]*)(\S.*?)[ \t\r]*$/;

/**
 * The directives in the comment lines before the plan's first command (blank lines and `---`
 * separators allowed among them). Only the head of the plan is read, so this costs nothing on
 * large plans.
 */
export function planDirectives(source: string): PlanDirectives {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const out: PlanDirectives = {};
  let pos = 0;
  for (let line = 1; pos <= text.length; line++) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = text.length;
    const raw = text.slice(pos, nl);
    pos = nl + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed === '---') continue;
    if (!trimmed.startsWith('#')) break;
    const m = FSM_DIRECTIVE.exec(raw);
    if (m !== null && out.fsm === undefined) out.fsm = { value: m[2]!, line, column: m[1]!.length + 1 };
  }
  return out;
}

// ---- formatting: the one canonical grammar ----

export interface FormatPlanResult {
  /** The plan in the one-line form: LF line ends, no trailing spaces, one final newline, no BOM. */
  text: string;
  /** Whether `text` differs from the input. */
  changed: boolean;
  /** Which grammar the input was written in. */
  grammar: 'line' | 'block';
  /** Syntax errors of the input (positions in the input): a plan with any must not be rewritten. */
  errors: Finding[];
  /**
   * Block-grammar commands whose arguments span several lines (a file's content, say): the one-line
   * form joins them with spaces, which reads the same to lint but loses the line breaks, so such a
   * plan must not be rewritten. The line of each such command, in the input.
   */
  multiLineArguments: number[];
}

export function formatPlan(source: string, file: string): FormatPlanResult {
  const errors = parsePlan(source, file).diagnostics.filter((d) => d.severity === 'error');
  const block = isBlockGrammarPlan(source);
  const lineForm = block ? blockToLineForm(source) : undefined;
  const body = lineForm !== undefined ? lineForm.text : source.replace(/^\uFEFF/, '');
  const lines = body.split('\n').map((l) => l.replace(/[ \t\r]+$/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const text = lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  // A command line plus one argument line joins without loss; a second argument line loses its break.
  const multiLineArguments = lineForm?.inputLines.flatMap((from) => (from.length > 2 ? [from[0]!] : [])) ?? [];
  return { text, changed: text !== source, grammar: block ? 'block' : 'line', errors, multiLineArguments };
}
