/**
 * CommonMark block structure with line ranges, from markdown-it's block parser.
 *
 * Only the block phase runs: which lines form which headings, lists, list items, paragraphs, code
 * and HTML blocks is settled before (and independently of) inline parsing, so skipping inline
 * parsing changes no structure and keeps a 5,000-task log within budget (markdown-it's block phase
 * is linear; micromark, under mdast-util-from-markdown, re-splices its whole event list whenever a
 * nested list closes, which is quadratic on a long roadmap: see CONTRIBUTING, design notes).
 * Readers take the text of a block from the source lines (`start`/`end`), so nothing is re-rendered.
 */
import markdownIt, { type MarkdownIt, type StateBlock, type Token } from 'markdown-it';

/**
 * The blocks a JIXO reader needs: every top-level block, bullet lists in bullet list items, and their
 * items. What is inside other blocks (paragraphs, code, HTML, quotes, ordered lists) is read back
 * from the source lines; an item only records what its first block is.
 */
export interface Block {
  /** markdown-it's type without `_open`: heading, paragraph, bullet_list, list_item, hr, fence, html_block... */
  type: string;
  /** First line, 0-based, of the parsed text. */
  start: number;
  /** One past the last line (list items may include trailing blank lines). */
  end: number;
  /** Heading depth (1..6); 0 for other blocks. */
  depth: number;
  /** `#`.. for ATX headings, `=`/`-` for setext ones, the bullet, the fence; "" otherwise. */
  markup: string;
  /** Heading text (inline source); "" for other blocks. */
  content: string;
  children: Block[];
  /** markdown-it type of the item's first block (`paragraph`, `fence`...), and its first line; "" / -1 when empty. */
  firstType: string;
  firstStart: number;
}

let parser: MarkdownIt | undefined;

/**
 * Container depth (a list and its item count 2) past which markdown-it stops parsing and drops the
 * rest of the input into the deepest block. Readers must refuse such a file: see `tooDeepAt`.
 */
export const MAX_NESTING = 200;

function blockParser(): MarkdownIt {
  if (parser === undefined) {
    // `inline` and `text_join` are the core rules after `block`; without them tokens keep their source.
    parser = markdownIt('commonmark', { maxNesting: MAX_NESTING }).disable(['inline', 'text_join']);
    parser.block.ruler.at('paragraph', paragraph);
    parser.block.State = lightState(parser.block.State);
  }
  return parser;
}

/**
 * Block state whose tokens are plain objects with Token's fields. markdown-it's Token class sets its
 * thirteen fields through a define-property helper, which with 50,000+ tokens was a tenth of the
 * parse; the block rules only read and write those fields (none calls a Token method).
 */
function lightState(Base: typeof StateBlock): typeof StateBlock {
  return class LightState extends Base {
    override push(type: string, tag: string, nesting: -1 | 0 | 1): Token {
      const token = { type, tag, attrs: null, map: null, nesting, level: 0, children: null, content: '', markup: '', info: '', meta: null, block: true, hidden: false } as unknown as Token;
      if (nesting < 0) this.level--;
      token.level = this.level;
      if (nesting > 0) this.level++;
      this.tokens.push(token);
      return token;
    }
  };
}

/**
 * markdown-it's paragraph rule, deciding where a paragraph ends exactly as it does, but recording it
 * as one `paragraph` token with its line map instead of open/inline/close tokens with the joined
 * text: readers take text from the source lines, and on a 5,000-task log the three tokens, two maps
 * and the text of every paragraph were most of the garbage the parse made.
 */
function paragraph(state: StateBlock, startLine: number, endLine: number): boolean {
  const terminators = state.md.block.ruler.getRules('paragraph');
  const parentType = state.parentType;
  let next = startLine + 1;
  state.parentType = 'paragraph';
  outer: for (; next < endLine && !state.isEmpty(next); next++) {
    // A line indented 4+ past the block (no indented code inside a paragraph) or inside a container's indentation continues it.
    if (state.sCount[next]! - state.blkIndent > 3 || state.sCount[next]! < 0) continue;
    for (const rule of terminators) if (rule(state, next, endLine, true)) break outer;
  }
  state.line = next;
  state.push('paragraph', 'p', 0).map = [startLine, next];
  state.parentType = parentType;
  return true;
}

export interface ParsedBlocks {
  blocks: Block[];
  /** 0-based line where nesting reached MAX_NESTING (the structure after it is unknown), if it did. */
  tooDeepAt: number | undefined;
}

const NO_CHILDREN: Block[] = [];

function newBlock(type: string, map: [number, number] | null, depth: number, markup: string): Block {
  return { type, start: map?.[0] ?? 0, end: map?.[1] ?? 0, depth, markup, content: '', children: NO_CHILDREN, firstType: '', firstStart: -1 };
}

function attach(parent: Block, block: Block): void {
  if (parent.children === NO_CHILDREN) parent.children = [block];
  else parent.children.push(block);
}

/** The top-level headings and bullet lists of `text` (LF line endings), lists with their items. */
export function parseBlocks(text: string): ParsedBlocks {
  const tokens = blockParser().parse(text, {});
  let tooDeepAt: number | undefined;
  const root = newBlock('root', null, 0, '');
  // `undefined` on the stack: a container whose inside the readers do not look at.
  const stack: (Block | undefined)[] = [root];
  // Only the blocks above become objects: a 5,000-task log has some 60,000 tokens.
  for (const token of tokens) {
    const nesting = token.nesting;
    if (nesting === -1) {
      stack.pop();
      continue;
    }
    if (token.level >= MAX_NESTING - 1 && tooDeepAt === undefined) tooDeepAt = token.map?.[0] ?? 0;
    const parent = stack[stack.length - 1];
    const type = token.type;
    if (type === 'inline') {
      if (parent?.type === 'heading') parent.content = token.content;
      continue;
    }
    if (parent !== undefined && parent.type === 'list_item' && parent.firstStart < 0) {
      parent.firstType = type;
      parent.firstStart = token.map?.[0] ?? parent.start;
    }
    let block: Block | undefined;
    if (parent === root) {
      const name = nesting === 1 ? type.slice(0, -5) : type;
      block = newBlock(name, token.map, name === 'heading' ? token.tag.charCodeAt(1) - 48 : 0, token.markup);
    } else if (parent !== undefined && ((type === 'bullet_list_open' && parent.type === 'list_item') || (type === 'list_item_open' && parent.type === 'bullet_list'))) {
      block = newBlock(type.slice(0, -5), token.map, 0, token.markup);
    }
    if (block !== undefined && parent !== undefined) attach(parent, block);
    if (nesting === 1) stack.push(block);
  }
  return { blocks: root.children, tooDeepAt };
}

/** A line with leading tabs expanded to 4-column stops (CommonMark's rule for indentation). */
export function expandIndent(line: string): string {
  if (!line.includes('\t')) return line;
  let col = 0;
  let i = 0;
  for (; i < line.length; i++) {
    const c = line[i];
    if (c === ' ') col++;
    else if (c === '\t') col += 4 - (col % 4);
    else break;
  }
  return ' '.repeat(col) + line.slice(i);
}

export function indentOf(line: string): number {
  let n = 0;
  while (n < line.length && line.charCodeAt(n) === 32) n++;
  return n;
}

/** Remove up to `by` columns of leading spaces from each line. */
export function dedentLines(lines: readonly string[], by: number): string[] {
  return lines.map((raw) => {
    const line = expandIndent(raw);
    return line.slice(Math.min(by, indentOf(line)));
  });
}

/**
 * Where a list item's content starts (CommonMark: marker, then 1-4 spaces; 5+ spaces or nothing
 * after the marker count as one), from the item's first line.
 */
export function itemContentColumn(firstLine: string): number {
  const line = expandIndent(firstLine);
  const m = /^( *)(?:[-*+]|\d{1,9}[.)])( *)/.exec(line);
  if (!m) return indentOf(line);
  const marker = m[0].length - m[2]!.length;
  const spaces = m[2]!.length;
  if (spaces === 0 || spaces > 4 || m[0].length === line.length) return marker + 1;
  return marker + spaces;
}

/** Drop leading and trailing blank lines, join with "\n". */
export function trimBlock(lines: readonly string[]): string {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a]!.trim() === '') a++;
  while (b > a && lines[b - 1]!.trim() === '') b--;
  return lines.slice(a, b).join('\n');
}

/**
 * Text that will be written right after a list (an outro, an entry's extra text, an item's block
 * notes). There an indented first line would continue the list's last item, so: a first line
 * indented 1-3 columns (which CommonMark ignores at a block's start) is dedented with the lines
 * after it, and a leading indented code block becomes a fenced one with the same code.
 */
export function unindentFirst(text: string): string {
  const lines = text.split('\n');
  const by = indentOf(expandIndent(lines[0] ?? ''));
  if (by === 0) return text;
  if (by < 4) return dedentLines(lines, by).join('\n');
  let end = lines.findIndex((l) => l.trim() !== '' && indentOf(expandIndent(l)) < 4);
  if (end < 0) end = lines.length;
  const code = dedentLines(lines.slice(0, end), 4);
  while (code.length > 0 && code[code.length - 1]!.trim() === '') code.pop();
  const longest = Math.max(0, ...code.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((run) => run.length))));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence, ...code, fence, ...(end < lines.length ? ['', ...lines.slice(end)] : [])].join('\n');
}
