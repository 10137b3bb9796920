/**
 * Project-wide flow settings (`protocols/flow-settings.json` in the CLI): today the directive
 * wording, so a project can word the mandatory next-command directive of every flow, the built-in
 * ones included, without copying them. Checked by hand (the main entry loads no zod; schema.ts has
 * the zod mirror the JSON Schema is generated from), every problem with its pointer and line:col.
 */
import { NotFoundError, readJsonFile } from '@ratchet/store';
import type { z } from 'zod';
import { FlowError, type FlowProblem } from './errors.js';
import { placeholders, staticPathProblem } from './template.js';
import type { FlowSettingsSchema } from './schema.js';
import type { DirectiveText, Flow } from './types.js';

export const FLOW_SETTINGS_SCHEMA_URL = 'https://unpkg.com/@ratchet/flows/schemas/flow-settings.schema.json';
/** Settings files larger than this are refused before reading (a real one is a few hundred bytes). */
export const FLOW_SETTINGS_MAX_BYTES = 64 * 1024;
/** Bounds on the wording: generous for prose, small enough that a directive stays a directive. */
export const MAX_DIRECTIVE_LINE = 2000;
export const MAX_DIRECTIVE_WARNINGS = 50;

/**
 * The project's names for memory files, replacing the path templates of every flow's agent,
 * transition and learnings gates (their length and sections stay the flow's). A project that keeps
 * the original's names sets `agent: ".claude/memory/{task-id}-{role}-memory.md"`.
 */
export type MemoryFileNames = NonNullable<FlowSettings['memoryFiles']>;

/**
 * `protocols/flow-settings.json`, typed from its zod schema (schema.ts): `directive` replaces
 * Ratchet's directive wording for every flow that sets no `directive` of its own.
 */
export type FlowSettings = Omit<z.infer<typeof FlowSettingsSchema>, '$schema' | 'schemaVersion'>;

/** The placeholders each memory-file template may use. */
export const MEMORY_FILE_VARS: Readonly<Record<keyof MemoryFileNames, readonly string[]>> = {
  agent: ['task', 'task-id', 'session', 'flow', 'step', 'iteration', 'agent', 'role'],
  transition: ['task', 'task-id', 'session', 'flow', 'step', 'iteration', 'from', 'to'],
  learnings: ['task', 'task-id', 'session', 'flow'],
};

const ONE_LINE = /^[^\p{Cc}]*\S[^\p{Cc}]*$/u;

/** Check a parsed settings document: the settings, or every problem with its JSON pointer. */
export function checkFlowSettings(value: unknown): { settings: FlowSettings | undefined; problems: FlowProblem[] } {
  const problems: FlowProblem[] = [];
  const add = (pointer: string, message: string): void => void problems.push({ pointer, message });
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const unknownKeys = (obj: Record<string, unknown>, allowed: readonly string[], p: string): void => {
    for (const key of Object.keys(obj)) if (!allowed.includes(key)) add(`${p}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, `unknown property "${key}" (allowed: ${allowed.join(', ')})`);
  };
  const line = (v: unknown, p: string, what: string): string | undefined => {
    if (typeof v !== 'string' || !ONE_LINE.test(v)) add(p, `${what} must be one non-empty line of text (no control characters)`);
    else if (v.length > MAX_DIRECTIVE_LINE) add(p, `${what} must be at most ${MAX_DIRECTIVE_LINE} characters`);
    else return v;
    return undefined;
  };
  if (!isObject(value)) {
    add('', 'flow settings must be a JSON object');
    return { settings: undefined, problems };
  }
  unknownKeys(value, ['$schema', 'schemaVersion', 'directive', 'memoryFiles'], '');
  if (value.$schema !== undefined && typeof value.$schema !== 'string') add('/$schema', 'must be a string');
  if (value.schemaVersion !== undefined && value.schemaVersion !== 1) add('/schemaVersion', 'schemaVersion must be 1 (the only version this reader knows)');
  const settings: FlowSettings = {};
  if (value.directive !== undefined) {
    const d = value.directive;
    if (!isObject(d)) add('/directive', 'must be an object ({ heading?, warnings? })');
    else {
      unknownKeys(d, ['heading', 'warnings'], '/directive');
      const directive: Partial<DirectiveText> = {};
      if (d.heading !== undefined) {
        const heading = line(d.heading, '/directive/heading', 'the heading');
        if (heading !== undefined) directive.heading = heading;
      }
      if (d.warnings !== undefined) {
        if (!Array.isArray(d.warnings)) add('/directive/warnings', 'must be an array of lines (it may be empty)');
        else if (d.warnings.length > MAX_DIRECTIVE_WARNINGS) add('/directive/warnings', `at most ${MAX_DIRECTIVE_WARNINGS} lines`);
        else {
          const warnings = (d.warnings as unknown[]).map((w, i) => line(w, `/directive/warnings/${i}`, 'a warning'));
          if (warnings.every((w): w is string => w !== undefined)) directive.warnings = warnings;
        }
      }
      settings.directive = directive;
    }
  }
  if (value.memoryFiles !== undefined) {
    const m = value.memoryFiles;
    if (!isObject(m)) add('/memoryFiles', 'must be an object ({ agent?, transition?, learnings? })');
    else {
      unknownKeys(m, Object.keys(MEMORY_FILE_VARS), '/memoryFiles');
      const names: MemoryFileNames = {};
      for (const key of Object.keys(MEMORY_FILE_VARS) as (keyof MemoryFileNames)[]) {
        if (m[key] === undefined) continue;
        const p = `/memoryFiles/${key}`;
        const template = line(m[key], p, `the ${key} memory-file template`);
        if (template === undefined) continue;
        const problem = staticPathProblem(template);
        if (problem !== undefined) add(p, `the ${key} memory-file path ${problem}`);
        const allowed = MEMORY_FILE_VARS[key];
        for (const name of placeholders(template)) if (!allowed.includes(name)) add(p, `unknown placeholder {${name}} (known here: ${allowed.map((v) => `{${v}}`).join(', ')})`);
        names[key] = template;
      }
      settings.memoryFiles = names;
    }
  }
  return problems.length > 0 ? { settings: undefined, problems } : { settings, problems };
}

/**
 * The flow with the project's memory-file names: each gate the flow declares keeps its length and
 * sections, with the project's path template.
 */
export function withMemoryFiles(flow: Flow, names: MemoryFileNames | undefined): Flow {
  if (names === undefined) return flow;
  const out: Flow = { ...flow };
  if (names.agent !== undefined && flow.agentGate) out.agentGate = { ...flow.agentGate, artifact: names.agent };
  if (names.transition !== undefined && flow.transitionGate) out.transitionGate = { ...flow.transitionGate, artifact: names.transition };
  if (names.learnings !== undefined && flow.learningsGate) out.learningsGate = { ...flow.learningsGate, artifact: names.learnings };
  return out;
}

/**
 * Read and check a settings file: undefined when it does not exist (the defaults apply). Malformed
 * JSON, a binary or oversized file and `__proto__` keys are @ratchet/store errors; a document that
 * breaks the rules is a FlowError (`invalid-settings`) with every problem placed at line:col.
 */
export async function loadFlowSettings(path: string): Promise<FlowSettings | undefined> {
  let file;
  try {
    file = await readJsonFile(path, { maxBytes: FLOW_SETTINGS_MAX_BYTES });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
  const { settings, problems } = checkFlowSettings(file.value);
  if (settings !== undefined) return settings;
  const placed: FlowProblem[] = problems.map((p) => {
    const at = file.locate(p.pointer);
    // An unknown property is placed at its name; anything else at its value.
    const where = p.message.startsWith('unknown property') ? (at?.key ?? at) : at;
    return where === undefined ? p : { ...p, line: where.line, column: where.column };
  });
  const first = placed[0]!;
  const more = placed.length > 1 ? ` (and ${placed.length - 1} more problem${placed.length > 2 ? 's' : ''})` : '';
  throw new FlowError('invalid-settings', `invalid flow settings: ${first.message}${more}`, { path: file.path, line: first.line, column: first.column, pointer: first.pointer, problems: placed });
}
