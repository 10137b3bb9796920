/**
 * Rendering a protocol set as Markdown: a person reads each protocol's prose and rules as a list; a
 * machine reads its JSON in a fenced block. Pure and deterministic: the same set and options give the
 * same bytes (no clock is read; a timestamp appears only when the caller passes one).
 */
import { code, compare, fenced } from './markdown.js';
import { GENERATED_NOTICE } from './detail.js';
import type { Protocol, ProtocolSet, ProtocolSource } from './types.js';
import { renderVocabularies, type PlanVocabulary } from './vocabulary.js';
import { renderCompact } from './render-compact.js';
import type { Detail } from './detail.js';

export { code, fenced };

/** Returns the usage text of a tool, or undefined when it is not a command the provider knows. */
export type UsageProvider = (tool: string) => string | undefined;

export interface RenderOptions {
  /** Embeds the usage of associated tools (the CLI passes its own command definitions). */
  usageFor?: UsageProvider | undefined;
  /** Shown as "Compiled at"; omitted by default so recompiling unchanged sources changes nothing. */
  timestamp?: string | undefined;
  /** How the header names the sources (e.g. "protocols/"). */
  sourceLabel?: string | undefined;
  /** Title of the compiled section. */
  title?: string | undefined;
  /**
   * Plan languages to list after the protocols ("Plan vocabulary"): the CLI passes the dialects the
   * project's plans are linted against, so the block goes stale when one of them changes.
   */
  vocabularies?: readonly PlanVocabulary[] | undefined;
  /**
   * `full` (the default): every protocol's prose, rules with their enforcement, JSON and the usage of
   * its commands. `compact`: the rules in brief (id and first sentence, in protocol order), for an
   * agent to read every session; `renderProtocolDetail` gives one protocol in full on demand.
   */
  detail?: Detail | undefined;
}

export type { Detail };

export { GENERATED_NOTICE };

export function renderProtocols(set: ProtocolSet, options: RenderOptions = {}): string {
  if (options.detail === 'compact') return renderCompact(set, options);
  const label = options.sourceLabel ?? 'protocols/';
  const out: string[] = [];
  out.push(`<!-- ${GENERATED_NOTICE} Sources: ${label} -->`, '');
  out.push(`# ${options.title ?? 'Agent Protocols'}`, '');
  if (set.version !== undefined) out.push(`**Version:** ${set.version}`, '');
  if (options.timestamp !== undefined) out.push(`**Compiled at:** ${oneLine(options.timestamp)}`, '');
  out.push(
    `Compiled from ${set.sources.length} protocol source${set.sources.length === 1 ? '' : 's'} in \`${label}\`. ` +
      'Each protocol lists its rules for you to read, followed by its JSON definition for tools to parse.',
    '',
  );

  const usages = new Map<string, string>();
  // Protocols and prose of their own (an introduction) in file-name order, as the author numbered them.
  const parts: ({ name: string; source: ProtocolSource } | { name: string; text: string })[] = [...set.sources.map((source) => ({ name: source.name, source })), ...(set.prose ?? [])];
  parts.sort((a, b) => compare(a.name, b.name));
  for (const part of parts) {
    out.push('---', '');
    if ('source' in part) out.push(...renderOne(part.source, options.usageFor, usages), '');
    else out.push(part.text.trimEnd(), '');
  }

  out.push(...renderVocabularies(options.vocabularies ?? []));
  out.push(...toolReference(usages, 'Usage of the `ratchet` commands the protocols name, taken from the CLI itself.'));
  return tidy(out);
}

/**
 * One protocol in full, as `renderProtocols` shows it (prose, rules with their enforcement, JSON),
 * followed by the usage of the `ratchet` commands it names: what `ratchet protocol show <id>` prints.
 */
export function renderProtocolDetail(source: ProtocolSource, options: Pick<RenderOptions, 'usageFor'> = {}): string {
  const usages = new Map<string, string>();
  const out = renderOne(source, options.usageFor, usages);
  out.push('', ...toolReference(usages, `Usage of the \`ratchet\` commands protocol ${code(source.protocol.protocol_id)} names, taken from the CLI itself.`));
  return tidy(out);
}

function toolReference(usages: ReadonlyMap<string, string>, intro: string): string[] {
  if (usages.size === 0) return [];
  const out = ['---', '', '## Tool reference', '', intro, ''];
  for (const tool of [...usages.keys()].sort(compare)) out.push(`### ${code(tool)}`, '', ...fenced('text', usages.get(tool)!), '');
  return out;
}

function tidy(lines: readonly string[]): string {
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function renderOne(source: ProtocolSource, usageFor: UsageProvider | undefined, usages: Map<string, string>): string[] {
  const p = source.protocol;
  const out: string[] = [];
  if (source.prose !== undefined) {
    // Prose that opens with its own title keeps it alone: adding ours would duplicate it (the
    // original's bug). Prose without one gets ours, so every protocol starts a section.
    if (!/^#{1,6}[ \t]/.test(source.prose.text)) out.push(`## Protocol ${code(p.protocol_id)}`, '');
    out.push(source.prose.text.trimEnd(), '', `**Protocol ${code(p.protocol_id)}:** ${inline(p.description ?? '')}`, '');
  } else {
    out.push(`## Protocol ${code(p.protocol_id)}`, '', inline(p.description ?? ''), '');
  }
  // A project's own schema may make any of these optional.
  const rules = p.rules ?? [];
  if (rules.length > 0) {
    out.push('**Rules:**', '');
    for (const rule of rules) {
      out.push(`- **${code(rule.rule_id ?? '(no rule_id)')}**: ${indentMore(rule.description ?? '')}`);
      if (rule.enforcement !== undefined) out.push(`  - *Enforcement:* ${indentMore(rule.enforcement, '    ')}`);
    }
    out.push('');
  }
  const tools = p.associated_tools ?? [];
  if (tools.length > 0) {
    const named = tools.map((tool) => {
      const usage = usageFor?.(tool);
      if (usage === undefined) return code(tool);
      usages.set(tool, tidyUsage(usage));
      return `${code(tool)} (see Tool reference)`;
    });
    out.push(`**Associated tools:** ${named.join(', ')}`, '');
  }
  if ((p.associated_artifacts ?? []).length > 0) out.push(`**Associated artifacts:** ${p.associated_artifacts!.map(code).join(', ')}`, '');
  if ((p.deprecated_tools ?? []).length > 0) out.push(`**Deprecated tools (do not use):** ${p.deprecated_tools!.map(code).join(', ')}`, '');
  out.push(...fenced('json', JSON.stringify(machineForm(p), null, 2)));
  return out;
}

// `$schema` is an editor hint for the source file, not part of the protocol.
function machineForm(p: Protocol): Protocol {
  const { $schema: _ignored, ...rest } = p;
  return rest;
}

function tidyUsage(text: string): string {
  // Strip ANSI colour codes and trailing spaces: docs must not depend on the terminal.
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '').replace(/[ \t]+$/gm, '').replace(/\r\n?/g, '\n').trim();
}

function inline(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

// Continuation lines of a list item must be indented, or Markdown ends the item.
function indentMore(text: string, pad = '  '): string {
  return inline(text).replace(/\n/g, `\n${pad}`);
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').trim();
}

