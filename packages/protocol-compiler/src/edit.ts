/**
 * Programmatic edits of protocol sources (`ratchet protocol update ...`, and lessons). Each edit is
 * pure over the parsed protocol; `updateProtocol` finds the file by protocol_id, and inside the file's
 * lock re-reads it, applies the edit, validates the result against the schema and writes it
 * atomically, keeping the file's key order, indentation, line endings, BOM and trailing newline.
 */
import { parseJson, readTextFile, withLock, writeFileAtomic } from '@ratchet/store';
import { join } from 'node:path';
import { unifiedDiff } from './diff.js';
import { ProtocolError } from './errors.js';
import { SCHEMA_FILE, loadProtocolSet } from './load.js';
import type { Protocol } from './types.js';
import { loadProtocolValidator, type ProtocolValidator } from './validate.js';
import { readdir } from 'node:fs/promises';

export type ProtocolEdit =
  | { command: 'add-tool'; protocolId: string; tool: string }
  | { command: 'update-rule'; protocolId: string; ruleId: string; description: string }
  | { command: 'deprecate-tool'; protocolId: string; tool: string };

export interface EditOutcome {
  protocol: Protocol;
  changed: boolean;
  /** What happened, for people ("added tool X", "already listed"). */
  message: string;
}

/** Applies one edit to a copy of `protocol`. Throws `edit-failed` when the edit cannot apply. */
export function applyProtocolEdit(protocol: Protocol, edit: ProtocolEdit, file = '<protocol>'): EditOutcome {
  const next = structuredClone(protocol);
  const fail = (reason: string): never => {
    throw new ProtocolError('edit-failed', file, reason);
  };
  switch (edit.command) {
    case 'add-tool': {
      const tool = requireText(edit.tool, 'tool', fail);
      const tools = next.associated_tools ?? [];
      const deprecated = next.deprecated_tools ?? [];
      if (tools.includes(tool) && !deprecated.includes(tool)) return { protocol: next, changed: false, message: `tool "${tool}" is already associated with "${next.protocol_id}"` };
      if (!tools.includes(tool)) next.associated_tools = [...tools, tool];
      // Re-adding a retired tool un-retires it.
      if (deprecated.includes(tool)) next.deprecated_tools = deprecated.filter((t) => t !== tool);
      return { protocol: next, changed: true, message: `added tool "${tool}" to "${next.protocol_id}"` };
    }
    case 'deprecate-tool': {
      const tool = requireText(edit.tool, 'tool', fail);
      const tools = next.associated_tools ?? [];
      const deprecated = next.deprecated_tools ?? [];
      if (deprecated.includes(tool) && !tools.includes(tool)) return { protocol: next, changed: false, message: `tool "${tool}" is already deprecated in "${next.protocol_id}"` };
      if (!tools.includes(tool) && !deprecated.includes(tool)) fail(`protocol "${next.protocol_id}" has no associated tool "${tool}" to deprecate`);
      if (tools.includes(tool)) next.associated_tools = tools.filter((t) => t !== tool);
      if (!deprecated.includes(tool)) next.deprecated_tools = [...deprecated, tool];
      return { protocol: next, changed: true, message: `deprecated tool "${tool}" in "${next.protocol_id}"` };
    }
    case 'update-rule': {
      const description = requireText(edit.description, 'description', fail);
      const rule = next.rules.find((r) => r.rule_id === edit.ruleId);
      if (rule === undefined) return fail(`protocol "${next.protocol_id}" has no rule "${edit.ruleId}" (rules: ${next.rules.map((r) => r.rule_id).join(', ') || 'none'})`);
      if (rule.description === description) return { protocol: next, changed: false, message: `rule "${edit.ruleId}" already says that` };
      rule.description = description;
      return { protocol: next, changed: true, message: `updated rule "${edit.ruleId}" in "${next.protocol_id}"` };
    }
    default:
      return fail(`unknown edit command "${String((edit as { command: unknown }).command)}"`);
  }
}

function requireText(value: string, what: string, fail: (reason: string) => never): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '') fail(`the ${what} must not be empty`);
  return text;
}

export interface UpdateResult extends EditOutcome {
  file: string;
  /** Unified diff of the source file (empty when unchanged). */
  diff: string;
}

export interface UpdateOptions {
  /** Compute the result and diff, write nothing. */
  dryRun?: boolean;
  validator?: ProtocolValidator;
  /** How the diff names the file (defaults to its path). */
  labelFor?: (file: string) => string;
}

/** Finds the source defining `edit.protocolId` in `protocolsDir` and applies the edit to it. */
export async function updateProtocol(protocolsDir: string, edit: ProtocolEdit, options: UpdateOptions = {}): Promise<UpdateResult> {
  const names = await readdir(protocolsDir).catch(() => [] as string[]);
  const validator = options.validator ?? (await loadProtocolValidator(names.includes(SCHEMA_FILE) ? join(protocolsDir, SCHEMA_FILE) : undefined));
  // Loading the whole set refuses duplicate ids and broken neighbours before anything is written.
  const set = await loadProtocolSet(protocolsDir, { validator });
  const source = set.sources.find((s) => s.protocol.protocol_id === edit.protocolId);
  if (source === undefined) {
    throw new ProtocolError('edit-failed', protocolsDir, `no protocol "${edit.protocolId}" (known: ${set.sources.map((s) => s.protocol.protocol_id).join(', ') || 'none'})`);
  }
  const file = source.file;
  const run = async (): Promise<UpdateResult> => {
    const { text } = await readTextFile(file);
    const protocol = parseJson(text, { path: file }) as Protocol;
    const outcome = applyProtocolEdit(protocol, edit, file);
    if (!outcome.changed) return { ...outcome, file, diff: '' };
    const result = validator(outcome.protocol);
    if (!result.ok) {
      const first = result.issues[0]!;
      throw new ProtocolError('schema-violation', file, `the edited protocol would violate the schema: ${first.pointer || '(document root)'}: ${first.message}`, { pointer: first.pointer, issues: result.issues });
    }
    const next = stringifyLike(text, outcome.protocol);
    const label = options.labelFor?.(file) ?? file;
    const diff = unifiedDiff(text, next, { from: `${label} (before)`, to: `${label} (after)` });
    if (options.dryRun !== true) await writeFileAtomic(file, next);
    return { ...outcome, file, diff };
  };
  return options.dryRun === true ? run() : withLock(file, run);
}

/** Serialises `value` the way `original` is formatted: indentation, EOL style, BOM, final newline. */
export function stringifyLike(original: string, value: unknown): string {
  const bom = original.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = bom === '' ? original : original.slice(1);
  const eol = /\r\n/.test(body) ? '\r\n' : '\n';
  const trailing = /\r?\n$/.test(body);
  const indentMatch = /\n([ \t]+)\S/.exec(body);
  const multiLine = body.trim().includes('\n');
  const indent = multiLine ? (indentMatch?.[1] ?? '  ') : undefined;
  let text = JSON.stringify(value, null, indent);
  if (eol === '\r\n') text = text.replace(/\n/g, '\r\n');
  return `${bom}${text}${trailing ? eol : ''}`;
}
