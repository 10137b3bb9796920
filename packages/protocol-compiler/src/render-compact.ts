/**
 * The compact block: what an agent reads at the start of every session, so it is kept small. It
 * names every protocol and every rule id, in protocol order, each rule with its first sentence; the
 * prose, enforcement, JSON and command usage stay one command away (`ratchet protocol show <id>`).
 * Deterministic like the full block: the same set and options give the same bytes.
 */
import { COMPACT_MARKER, GENERATED_NOTICE } from './detail.js';
import { code, compare } from './markdown.js';
import type { ProtocolSet, ProtocolSource } from './types.js';
import type { PlanVocabulary } from './vocabulary.js';

export interface CompactOptions {
  timestamp?: string | undefined;
  sourceLabel?: string | undefined;
  title?: string | undefined;
  vocabularies?: readonly PlanVocabulary[] | undefined;
}

export function renderCompact(set: ProtocolSet, options: CompactOptions = {}): string {
  const label = options.sourceLabel ?? 'protocols/';
  const out: string[] = [`<!-- ${GENERATED_NOTICE} Sources: ${label} -->`, COMPACT_MARKER, ''];
  out.push(`# ${options.title ?? 'Agent Protocols'}`, '');
  if (set.version !== undefined) out.push(`**Version:** ${set.version}`, '');
  if (options.timestamp !== undefined) out.push(`**Compiled at:** ${oneLine(options.timestamp)}`, '');
  const n = set.sources.length;
  out.push(
    `Compiled from ${n} protocol source${n === 1 ? '' : 's'} in ${code(label)}, in brief: every rule by its id with its first sentence. ` +
      'Each rule binds in full: before you act on one, read its protocol with `ratchet protocol show <id>` ' +
      '(prose, each rule with how it is enforced, the usage of its commands), or everything with `ratchet protocol show --all`. ' +
      'When a command refuses, its message names the exact command to run next.',
    '',
  );
  const parts: ({ name: string; source: ProtocolSource } | { name: string; text: string })[] = [...set.sources.map((source) => ({ name: source.name, source })), ...(set.prose ?? [])];
  parts.sort((a, b) => compare(a.name, b.name));
  for (const part of parts) {
    if ('source' in part) out.push(...compactOne(part.source), '');
    else out.push(...compactProse(part.name, part.text), '');
  }
  out.push(...compactVocabularies(options.vocabularies ?? []));
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function compactOne(source: ProtocolSource): string[] {
  const p = source.protocol;
  const title = source.prose === undefined ? undefined : headingOf(source.prose.text);
  const out = [`## ${code(p.protocol_id)}${title === undefined ? '' : `: ${title}`}`, ''];
  if ((p.description ?? '').trim() !== '') out.push(oneLine(p.description), '');
  for (const rule of p.rules ?? []) out.push(`- ${code(rule.rule_id ?? '(no rule_id)')}: ${firstSentence(rule.description ?? '')}`);
  const tools = p.associated_tools ?? [];
  const retired = p.deprecated_tools ?? [];
  const lines: string[] = [];
  if (tools.length > 0) lines.push(`Commands: ${tools.map(code).join(', ')}`);
  if (retired.length > 0) lines.push(`Do not use: ${retired.map(code).join(', ')}`);
  if (lines.length > 0) out.push('', lines.join('. '));
  return out;
}

// Prose of its own (an introduction): its title and where to read it, by the name `show` takes.
function compactProse(name: string, text: string): string[] {
  const id = name.replace(/\.md$/i, '');
  return [`## ${headingOf(text) ?? code(id)}`, '', `Read it with ${code(`ratchet protocol show ${id}`)}.`];
}

function compactVocabularies(vocabularies: readonly PlanVocabulary[]): string[] {
  if (vocabularies.length === 0) return [];
  const out = ['## Plan vocabulary', '', 'A plan holds one of these commands per line; `ratchet protocol show --all` gives what each one means.', ''];
  for (const v of vocabularies) {
    const usages = v.entries.map((e) => code(e.usage)).join(', ');
    out.push(`- ${code(v.id)} (${code(v.source)}): ${firstSentence(v.purpose)} ${usages}`);
  }
  out.push('');
  return out;
}

/** The first Markdown heading of a prose text, without its hashes; undefined when it has none. */
function headingOf(text: string): string | undefined {
  const m = /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(text);
  return m === null ? undefined : m[1]!.trim();
}

// A period ends a sentence only outside inline code, before a space and a capital (or a code span,
// emphasis, a parenthesis), and not after a common abbreviation.
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf)$/i;

/** The first sentence of a rule's description, on one line: the rule in brief. */
export function firstSentence(text: string): string {
  const flat = oneLine(text);
  let inCode = 0;
  for (let i = 0; i < flat.length; i++) {
    const ch = flat[i]!;
    if (ch === '`') {
      let run = 1;
      while (flat[i + run] === '`') run++;
      inCode = inCode === 0 ? run : inCode === run ? 0 : inCode;
      i += run - 1;
      continue;
    }
    if (inCode !== 0 || (ch !== '.' && ch !== '!' && ch !== '?')) continue;
    if (flat[i + 1] !== ' ' || !/[A-Z`*(["]/.test(flat[i + 2] ?? '')) continue;
    if (ch === '.' && ABBREVIATION.test(flat.slice(Math.max(0, i - 5), i))) continue;
    return flat.slice(0, i + 1);
  }
  return flat;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
