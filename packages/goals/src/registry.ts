/**
 * The action-type registry: a file (`action_types.json` or `.yaml`) validated with the precompiled
 * ajv validator, then checked for meaning (statuses, transitions, terminal states), and compiled
 * into one fsm-core machine per type. Statuses are the states; the symbol of an edge is its target
 * status, so "may X go to Y" is one table lookup. A loaded Registry is immutable: merging a proposal
 * writes a new file and never changes a registry a running turn already holds.
 */
import { RESERVED_NAMES, loadDefinition, nextSymbols, transition, type Machine } from '@ratchet/fsm-core';
import { StoreError, UnsafeInputError, locate, parseJson, parseYaml, readTextFile } from '@ratchet/store';
import { DEFAULT_ACTION_TYPES } from './default-registry.js';
import { parseDuration } from './duration.js';
import { RegistryError, type RegistryIssue } from './errors.js';
import type { ActionType, ActionTypeRegistryDocument } from './types.js';
import { registryIssues } from './validate.js';

export interface CompiledActionType {
  readonly type: ActionType;
  readonly machine: Machine;
  /** Where new actions of this type start: the first allowed status. */
  readonly initial: string;
  /** Statuses with no way out: an action there is no longer pending. */
  readonly terminal: ReadonlySet<string>;
}

export interface Registry {
  readonly document: ActionTypeRegistryDocument;
  readonly types: ReadonlyMap<string, CompiledActionType>;
  /** The file it came from, if any. */
  readonly path?: string | undefined;
}

export type RegistryFormat = 'json' | 'yaml';

/** Registry files larger than this are refused before reading (the shipped one is ~5 KB). */
export const REGISTRY_MAX_BYTES = 1024 * 1024;

/** Every problem in a registry document (structure first; meaning only when the structure holds). */
export function checkRegistry(doc: unknown): RegistryIssue[] {
  const structural = registryIssues(doc);
  if (structural.length > 0) return structural.map(({ pointer, message }) => ({ pointer, message }));
  const issues: RegistryIssue[] = [];
  const types = (doc as ActionTypeRegistryDocument).action_types;
  const ids = new Set<string>();
  types.forEach((t, i) => {
    const at = `/action_types/${i}`;
    const reserved = (name: string, pointer: string): boolean => {
      if (!RESERVED_NAMES.has(name)) return false;
      issues.push({ pointer, message: `"${name}" is a reserved name` });
      return true;
    };
    if (!reserved(t.id, `${at}/id`) && ids.has(t.id)) issues.push({ pointer: `${at}/id`, message: `duplicate action type id "${t.id}"` });
    ids.add(t.id);
    if (new Set(t.allowed_owners).size !== t.allowed_owners.length) issues.push({ pointer: `${at}/allowed_owners`, message: 'an owner is listed twice' });
    const statuses = new Set<string>();
    t.allowed_statuses.forEach((s, j) => {
      if (reserved(s, `${at}/allowed_statuses/${j}`)) return;
      if (statuses.has(s)) issues.push({ pointer: `${at}/allowed_statuses/${j}`, message: `status "${s}" is listed twice` });
      statuses.add(s);
    });
    let terminal = 0;
    for (const s of statuses) if ((t.allowed_transitions[s] ?? []).length === 0) terminal++;
    for (const [from, targets] of Object.entries(t.allowed_transitions)) {
      const p = `${at}/allowed_transitions/${escape(from)}`;
      if (!statuses.has(from)) issues.push({ pointer: p, message: `transition from "${from}", which is not in allowed_statuses` });
      targets.forEach((to, j) => {
        if (!statuses.has(to)) issues.push({ pointer: `${p}/${j}`, message: `transition to "${to}", which is not in allowed_statuses` });
        else if (to === from) issues.push({ pointer: `${p}/${j}`, message: `transition from "${from}" to itself` });
      });
    }
    if (terminal === 0) issues.push({ pointer: `${at}/allowed_transitions`, message: `type "${t.id}" has no terminal status: its actions could never finish` });
    const after = t.default_policies.escalation?.after;
    if (after !== undefined && parseDuration(after) === undefined) issues.push({ pointer: `${at}/default_policies/escalation/after`, message: `"${after}" is not an ISO 8601 duration` });
  });
  return issues;
}

/** Validate and compile a parsed registry document. Throws RegistryError listing every problem. */
export function loadRegistry(doc: unknown, source: { path?: string; locate?: (pointer: string) => { line: number; column: number } | undefined } = {}): Registry {
  const issues = checkRegistry(doc);
  if (issues.length > 0) {
    throw new RegistryError(
      issues.map((i) => ({ ...i, ...source.locate?.(i.pointer) })),
      source.path,
    );
  }
  const document = deepFreeze(structuredClone(doc as ActionTypeRegistryDocument));
  const types = new Map<string, CompiledActionType>();
  document.action_types.forEach((t, i) => types.set(t.id, compileType(t, i, source)));
  return Object.freeze({ document, types, path: source.path });
}

function compileType(t: ActionType, index: number, source: { path?: string }): CompiledActionType {
  const statuses = [...new Set(t.allowed_statuses)];
  const transitions: Record<string, Record<string, string>> = {};
  const alphabet = new Set<string>();
  const terminal = new Set<string>();
  for (const s of statuses) {
    const targets = t.allowed_transitions[s] ?? [];
    if (targets.length === 0) terminal.add(s);
    else transitions[s] = Object.fromEntries(targets.map((to) => (alphabet.add(to), [to, to])));
  }
  const { machine, diagnostics } = loadDefinition({
    id: t.id,
    states: statuses,
    alphabet: statuses.filter((s) => alphabet.has(s)),
    transitions,
    start_state: statuses[0],
    accept_states: [...terminal],
  });
  if (machine === undefined) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    throw new RegistryError(errors.map((d) => ({ pointer: `/action_types/${index}`, message: `type "${t.id}": ${d.message}` })), source.path);
  }
  return Object.freeze({ type: t, machine, initial: statuses[0]!, terminal });
}

/** The registry shipped with Ratchet: the seed's nine types. */
export function defaultRegistry(): Registry {
  return loadRegistry({ schemaVersion: 1, action_types: structuredClone([...DEFAULT_ACTION_TYPES]) });
}

export const registryFormat = (path: string): RegistryFormat => (/\.ya?ml$/i.test(path) ? 'yaml' : 'json');

/** Parse registry text (JSON or YAML) into a value and a pointer -> line/column locator. */
export async function parseRegistryText(text: string, path: string, format: RegistryFormat = registryFormat(path)): Promise<{ value: unknown; locate: (pointer: string) => { line: number; column: number } | undefined }> {
  if (format === 'json') {
    // The store's parser refuses __proto__/constructor/prototype keys and places syntax errors.
    const value = parseJson(text, { path });
    return { value, locate: (pointer) => locate(text, pointer) };
  }
  // The store's YAML reader: lazily loaded parser, duplicate keys and alias bombs refused, __proto__
  // keys refused at their line. Its errors become registry errors (exit 2 with file and place).
  try {
    const parsed = await parseYaml(text, { path });
    return { value: parsed.value, locate: (pointer) => parsed.locate(pointer) };
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    const message = err instanceof UnsafeInputError ? `refusing the key "${err.key}": it could alter object prototypes` : `YAML: ${err.reason.replace(/^invalid YAML: /, '')}`;
    throw new RegistryError([{ pointer: err.pointer ?? '', message, line: err.line, column: err.column }], path);
  }
}

/**
 * Frontal Cortex's own file (`action_types.yaml` v0.1) wraps the types in an envelope,
 * `{version, registry, schema, items: [...]}`, where Ratchet has `{schemaVersion, action_types}`.
 * Such a document is read as the registry its `items` make; `pointer` maps a problem's JSON pointer
 * back into the file as written (`/action_types/2/id` -> `/items/2/id`). Any other value is returned
 * as is (`isEnvelope: false`).
 */
export function unwrapRegistryEnvelope(value: unknown): { document: unknown; isEnvelope: boolean; pointer: (p: string) => string } {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const envelope =
    isObject(value) &&
    Object.hasOwn(value, 'items') &&
    !Object.hasOwn(value, 'action_types') &&
    ['version', 'registry', 'schema'].some((k) => Object.hasOwn(value, k));
  if (!envelope) return { document: value, isEnvelope: false, pointer: (p) => p };
  // Only `items` carries types; the envelope's other keys describe the file, not the registry.
  return { document: { schemaVersion: 1, action_types: value.items }, isEnvelope: true, pointer: (p) => p.replace(/^\/action_types(?=\/|$)/, '/items') };
}

/** Read, validate and compile a registry file. Parse errors and problems carry the file and place. */
export async function readRegistryFile(path: string): Promise<Registry & { text: string; format: RegistryFormat }> {
  const { text } = await readTextFile(path, { maxBytes: REGISTRY_MAX_BYTES });
  const format = registryFormat(path);
  const parsed = await parseRegistryText(text, path, format);
  const { document, pointer } = unwrapRegistryEnvelope(parsed.value);
  return Object.freeze({ ...loadRegistry(document, { path, locate: (p) => parsed.locate(pointer(p)) }), text, format });
}

/** Whether an action of `type` may move from `from` to `to` (the fsm-core machine decides). */
export function canTransition(compiled: CompiledActionType, from: string, to: string): boolean {
  if (!compiled.type.allowed_statuses.includes(from)) return false;
  return transition(compiled.machine, from, to) === to;
}

/** The statuses reachable in one step from `from`. */
export function nextStatuses(compiled: CompiledActionType, from: string): string[] {
  return compiled.type.allowed_statuses.includes(from) ? nextSymbols(compiled.machine, from) : [];
}

// ---- registry operations (pure: they return a new document) -------------------------------------

export function listActionTypes(registry: Registry, options: { includeDeprecated?: boolean } = {}): ActionType[] {
  return registry.document.action_types.filter((t) => options.includeDeprecated !== false || t.deprecation_status === 'active');
}

/** Add or replace a type; the result is validated (RegistryError otherwise). */
export function registerActionType(doc: ActionTypeRegistryDocument, type: ActionType): ActionTypeRegistryDocument {
  const types = doc.action_types.filter((t) => t.id !== type.id);
  const index = doc.action_types.findIndex((t) => t.id === type.id);
  const next = { ...doc, action_types: index < 0 ? [...types, type] : doc.action_types.map((t) => (t.id === type.id ? type : t)) };
  loadRegistry(next);
  return structuredClone(next);
}

/** Mark a type deprecated: its id stays (old actions keep working), new actions of it are refused. */
export function deprecateActionType(doc: ActionTypeRegistryDocument, id: string): ActionTypeRegistryDocument {
  if (!doc.action_types.some((t) => t.id === id)) throw new RegistryError([{ pointer: '/action_types', message: `no action type "${id}" to deprecate` }]);
  return structuredClone({ ...doc, action_types: doc.action_types.map((t) => (t.id === id ? { ...t, deprecation_status: 'deprecated' as const } : t)) });
}

const escape = (s: string): string => s.replaceAll('~', '~0').replaceAll('/', '~1');

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

