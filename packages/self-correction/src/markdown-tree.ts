/**
 * A post-mortem's block structure, from markdown-it's block parser: the one CommonMark parser
 * Ratchet bundles (jixo-log reads logs with it too). Only the block phase runs; the lesson reader
 * takes every block's text from the source lines, as it did from mdast positions, so nothing is
 * re-rendered. Container markers are taken off those lines: a blockquote's `>` on every line, a
 * list item's marker on its first.
 */
import markdownIt, { type MarkdownIt, type Token } from 'markdown-it';

export interface MdNode {
  type: 'root' | 'heading' | 'paragraph' | 'list' | 'listItem' | 'blockquote' | 'code' | 'html' | 'other';
  /** Heading depth 1..6; 0 otherwise. */
  depth: number;
  /** A fenced code block's info string (`diff`); "" otherwise. */
  lang: string;
  /** Code: its content. Heading: its inline source. "" otherwise. */
  value: string;
  /** First line, 1-based. */
  line: number;
  /** Offset of the first line's start in the source. */
  offset: number;
  /** The block's source lines with container markers removed; "" for containers. */
  text: string;
  children: MdNode[];
}

let parser: MarkdownIt | undefined;

function blockParser(): MarkdownIt {
  // Inline parsing changes no block structure, and headings keep their source in `content`.
  parser ??= markdownIt('commonmark', { maxNesting: 200 }).disable(['inline', 'text_join']);
  return parser;
}

const TYPES: Record<string, MdNode['type']> = {
  heading: 'heading',
  paragraph: 'paragraph',
  bullet_list: 'list',
  ordered_list: 'list',
  list_item: 'listItem',
  blockquote: 'blockquote',
  fence: 'code',
  code_block: 'code',
  html_block: 'html',
};

const QUOTE = /^ {0,3}> ?/;
const ITEM_MARKER = /^\s*(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;

/** The block tree of `source` (LF line endings). */
export function parseMarkdownTree(source: string): MdNode {
  const lines = source.split('\n');
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  const root: MdNode = { type: 'root', depth: 0, lang: '', value: '', line: 1, offset: 0, text: '', children: [] };
  const stack: MdNode[] = [root];
  // Quote depth and the first line of each open list item, to strip their markers.
  let quotes = 0;
  const itemStarts: number[] = [];
  const node = (token: Token): MdNode => {
    const first = token.map?.[0] ?? 0;
    const type = TYPES[token.type.replace(/_open$/, '')] ?? 'other';
    return { type, depth: 0, lang: '', value: '', line: first + 1, offset: starts[first] ?? source.length, text: '', children: [] };
  };
  const sourceText = (token: Token): string => {
    const [from, to] = token.map ?? [0, 0];
    return lines
      .slice(from, to)
      .map((line, i) => {
        let out = line;
        for (let q = 0; q < quotes; q++) out = out.replace(QUOTE, '');
        if (i === 0 && itemStarts[itemStarts.length - 1] === from) out = out.replace(ITEM_MARKER, '');
        return out;
      })
      .join('\n')
      .replace(/\n+$/, '');
  };
  const tokens = blockParser().parse(source, {});
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const parent = stack[stack.length - 1]!;
    if (token.nesting === 1) {
      const open = node(token);
      if (open.type === 'heading') {
        open.depth = Number(token.tag.slice(1));
        open.value = tokens[i + 1]?.type === 'inline' ? tokens[i + 1]!.content : '';
      }
      if (open.type === 'paragraph' || open.type === 'heading') open.text = sourceText(token);
      parent.children.push(open);
      stack.push(open);
      if (token.type === 'blockquote_open') quotes++;
      if (token.type === 'list_item_open') itemStarts.push(token.map?.[0] ?? -1);
    } else if (token.nesting === -1) {
      stack.pop();
      if (token.type === 'blockquote_close') quotes--;
      if (token.type === 'list_item_close') itemStarts.pop();
    } else if (token.type !== 'inline') {
      const leaf = node(token);
      if (leaf.type === 'code') {
        leaf.lang = token.info.trim().split(/\s+/)[0] ?? '';
        leaf.value = token.content.replace(/\n$/, '');
      }
      leaf.text = leaf.type === 'code' ? '' : sourceText(token);
      parent.children.push(leaf);
    }
  }
  return root;
}

/** A heading's text without inline markup (`**`, `_`, backticks, links' targets). */
export function headingText(node: MdNode): string {
  return node.value
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*|__|`/g, '')
    .replace(/(^|\s)[*_]+|[*_]+(?=\s|$)/g, '$1')
    .trim();
}
