/**
 * Programmatic edits of protocol sources (`ratchet protocol update ...`, and lessons). Each edit is
 * pure over the parsed protocol; `updateProtocol` finds the file by protocol_id, and inside the file's
 * lock re-reads it, applies the edit, validates the result against the schema and writes it
 * atomically. Only the bytes that change are rewritten (see json-text-edit.ts): key order,
 * indentation, one-line arrays, line endings, BOM and the trailing newline all stay as they were.
 */
import { parseJson, readTextFile, withLock, writeFileAtomic, type TextFile } from '@ratchet/store';
import { basename } from 'node:path';
import { unifiedDiff } from './diff.js';
import { ProtocolError, problemsError, type ProtocolProblem } from './errors.js';
import { editJsonText, type JsonTextOp } from './json-text-edit.js';
import { loadProtocolSet, placeOf, protocolValidatorFor } from './load.js';
import type { Protocol } from './types.js';
import type { ProtocolValidator } from './validate.js';

export type ProtocolEdit =
  | { command: 'add-tool'; protocolId: string; tool: string }
  | { command: 'update-rule'; protocolId: string; ruleId: string; description: string }
  | { command: 'deprecate-tool'; protocolId: string; tool: string };

export interface EditOutcome {
  protocol: Protocol;
  changed: boolean;
  /** What happened, for people ("added tool X", "already listed"). */
  message: string;
  /** The same change as minimal text edits of the source (empty when nothing changed). */
  ops: JsonTextOp[];
}

/** Applies one edit to a copy of `protocol`. Throws `edit-failed` when the edit cannot apply. */
export function applyProtocolEdit(protocol: Protocol, edit: ProtocolEdit, file = '<protocol>'): EditOutcome {
  const next = structuredClone(protocol);
  const fail = (reason: string): never => {
    throw new ProtocolError('edit-failed', file, reason);
  };
  const ops: JsonTextOp[] = [];
  // Appends to a list, creating the member (last in key order) when the protocol has none.
  const append = (key: 'associated_tools' | 'deprecated_tools', tool: string): void => {
    const list = next[key];
    if (list === undefined) ops.push({ op: 'add-member', pointer: '', key, value: [tool] });
    else ops.push({ op: 'append', pointer: `/${key}`, value: tool });
    next[key] = [...(list ?? []), tool];
  };
  const removeAll = (key: 'associated_tools' | 'deprecated_tools', tool: string): void => {
    const list = next[key] ?? [];
    // Highest index first, so the earlier indices stay valid.
    for (let i = list.length - 1; i >= 0; i--) if (list[i] === tool) ops.push({ op: 'remove', pointer: `/${key}`, index: i });
    next[key] = list.filter((t) => t !== tool);
  };
  switch (edit.command) {
    case 'add-tool': {
      const tool = requireText(edit.tool, 'tool', fail);
      const tools = next.associated_tools ?? [];
      const deprecated = next.deprecated_tools ?? [];
      if (tools.includes(tool) && !deprecated.includes(tool)) return { protocol: next, changed: false, message: `tool "${tool}" is already associated with "${next.protocol_id}"`, ops: [] };
      if (!tools.includes(tool)) append('associated_tools', tool);
      // Re-adding a retired tool un-retires it.
      if (deprecated.includes(tool)) removeAll('deprecated_tools', tool);
      return { protocol: next, changed: true, message: `added tool "${tool}" to "${next.protocol_id}"`, ops };
    }
    case 'deprecate-tool': {
      const tool = requireText(edit.tool, 'tool', fail);
      const tools = next.associated_tools ?? [];
      const deprecated = next.deprecated_tools ?? [];
      if (deprecated.includes(tool) && !tools.includes(tool)) return { protocol: next, changed: false, message: `tool "${tool}" is already deprecated in "${next.protocol_id}"`, ops: [] };
      if (!tools.includes(tool) && !deprecated.includes(tool)) fail(`protocol "${next.protocol_id}" has no associated tool "${tool}" to deprecate`);
      if (tools.includes(tool)) removeAll('associated_tools', tool);
      if (!deprecated.includes(tool)) append('deprecated_tools', tool);
      return { protocol: next, changed: true, message: `deprecated tool "${tool}" in "${next.protocol_id}"`, ops };
    }
    case 'update-rule': {
      const description = requireText(edit.description, 'description', fail);
      const rules = next.rules ?? [];
      const index = rules.findIndex((r) => r.rule_id === edit.ruleId);
      const rule = rules[index];
      if (rule === undefined) return fail(`protocol "${next.protocol_id}" has no rule "${edit.ruleId}" (rules: ${rules.map((r) => r.rule_id).join(', ') || 'none'})`);
      if (rule.description === description) return { protocol: next, changed: false, message: `rule "${edit.ruleId}" already says that`, ops: [] };
      rule.description = description;
      ops.push({ op: 'replace', pointer: `/rules/${index}/description`, value: description });
      return { protocol: next, changed: true, message: `updated rule "${edit.ruleId}" in "${next.protocol_id}"`, ops };
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
  /** The file's new content (its current content when unchanged), BOM included. */
  text: string;
  /** The file's content before the edit, BOM included (equal to `text` when unchanged). */
  before: string;
}

export interface UpdateOptions {
  /** Compute the result and diff, write nothing. */
  dryRun?: boolean;
  validator?: ProtocolValidator;
  /** How the diff names the file (defaults to its path). */
  labelFor?: (file: string) => string;
  /**
   * Source texts to use instead of the files on disk, by absolute path: a dry run of several edits
   * passes each result on, so every diff shows the edits before it.
   */
  overrides?: ReadonlyMap<string, string> | undefined;
  /** Vets a tool before `add-tool` adds it: returns why it is refused, or undefined. */
  checkTool?: ((tool: string) => string | undefined) | undefined;
  /** Where the search for the nearest protocol.schema.json stops (see LoadOptions.schemaRoot). */
  schemaRoot?: string | undefined;
}

/** Finds the source defining `edit.protocolId` in `protocolsDir` and applies the edit to it. */
export async function updateProtocol(protocolsDir: string, edit: ProtocolEdit, options: UpdateOptions = {}): Promise<UpdateResult> {
  if (edit.command === 'add-tool' && options.checkTool !== undefined) {
    const refused = options.checkTool(edit.tool.trim());
    if (refused !== undefined) throw new ProtocolError('unknown-tool', protocolsDir, refused);
  }
  const validator = options.validator ?? (await protocolValidatorFor(protocolsDir, options.schemaRoot));
  // Loading the whole set refuses duplicate ids and broken neighbours before anything is written.
  const set = await loadProtocolSet(protocolsDir, { validator, overrides: options.overrides });
  const source = set.sources.find((s) => s.protocol.protocol_id === edit.protocolId);
  if (source === undefined) {
    throw new ProtocolError('edit-failed', protocolsDir, `no protocol "${edit.protocolId}" (known: ${set.sources.map((s) => s.protocol.protocol_id).join(', ') || 'none'})`);
  }
  const file = source.file;
  // Edits keep the JSON text's formatting byte for byte; a YAML source would need its own editor.
  if (/\.ya?ml$/.test(file)) throw new ProtocolError('edit-failed', file, `protocol "${edit.protocolId}" is written in YAML; lessons edit JSON sources only (convert it to ${basename(file).replace(/\.ya?ml$/, '.json')})`);
  const run = async (): Promise<UpdateResult> => {
    const override = options.overrides?.get(file);
    const text = override ?? withBom(await readTextFile(file));
    const protocol = parseJson(text, { path: file }) as Protocol;
    const outcome = applyProtocolEdit(protocol, edit, file);
    if (!outcome.changed) return { ...outcome, file, diff: '', text, before: text };
    const result = validator(outcome.protocol);
    if (!result.ok) {
      const problems: ProtocolProblem[] = [];
      for (const issue of result.issues) {
        problems.push({ code: 'schema-violation', file, pointer: issue.pointer, message: `the edit would violate the schema: ${issue.message}`, ...(await placeOf(file, issue.pointer, options.overrides)) });
      }
      throw problemsError(problems);
    }
    const next = rewrite(text, outcome);
    const label = options.labelFor?.(file) ?? file;
    const diff = unifiedDiff(text, next, { from: `${label} (before)`, to: `${label} (after)` });
    if (options.dryRun !== true) await writeFileAtomic(file, next);
    return { ...outcome, file, diff, text: next, before: text };
  };
  return options.dryRun === true ? run() : withLock(file, run);
}

/**
 * The edited source: minimal text edits when they give exactly the intended value (same keys in the
 * same order), else the whole value re-serialised in the file's style.
 */
function rewrite(text: string, outcome: EditOutcome): string {
  try {
    const edited = editJsonText(text, outcome.ops);
    if (JSON.stringify(parseJson(edited)) === JSON.stringify(outcome.protocol)) return edited;
  } catch {
    // A layout the text editor does not handle: fall through to re-serialising.
  }
  return stringifyLike(text, outcome.protocol);
}

/** The store strips a BOM when it decodes; put it back so a rewrite keeps the file's bytes. */
export function withBom(file: TextFile): string {
  return file.bytes === Buffer.byteLength(file.text, 'utf8') + 3 ? `\uFEFF${file.text}` : file.text;
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
