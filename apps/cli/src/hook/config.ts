/**
 * The project config: `ratchet.config.json` at the project root, sections `hooks` (what the hooks
 * read) and `memory` (which semantic signal memory recall uses).
 * Hand-validated (no zod on the hook's path: it runs on every tool call); config-schema.ts holds the
 * zod source of truth the shipped JSON Schema is generated from, and a test checks both agree.
 * The file is Ratchet state for the hooks' purposes: an agent cannot edit it to lower the bar.
 */
import { join } from 'node:path';
import { NotFoundError, StoreError, readJsonFileSync } from '@ratchet/store';
import { ruleFile } from '../rule-pins.js';

export const CONFIG_FILE = 'ratchet.config.json';
export const CONFIG_SCHEMA_URL = 'https://unpkg.com/@ratchet/cli/schemas/ratchet-config.schema.json';

export const STRICTNESS = ['off', 'warn', 'enforce'] as const;
export type Strictness = (typeof STRICTNESS)[number];

export interface HookConfig {
  /** Tools that do not belong to the current plan step: allowed (off), allowed with a note (warn), denied (enforce). */
  strictness: Strictness;
  /** At most this many Stop blocks per Claude Code session; then the agent may stop (and is told why). */
  maxStopBlocks: number;
  /**
   * The flow UserPromptSubmit starts for each prompt; false (the default): none. The seed ran the
   * reasoning protocol on every prompt; a project chooses that with `ratchet init --reasoning-flow`
   * (it costs context and turns on every prompt: README "What Ratchet costs the agent").
   */
  reasoningFlow: string | false;
  /** A prompt that starts with this skips the reasoning flow (the original's `-b `). */
  bypassPrefix: string;
  /** Globs (project-relative) an agent may write while a task is ORIENTING, PLANNING or POST_MORTEM: plans and notes. */
  planningWrites: string[];
  /** No task, flow or campaign claim active: writes outside `planningWrites` are refused until one starts. */
  requireTask: boolean;
  /** What the plugin does when it cannot find or run the CLI in a Ratchet project: refuse writes and stops, or allow them. */
  cliMissing: 'refuse' | 'allow';
}

export const DEFAULT_HOOK_CONFIG: HookConfig = {
  strictness: 'warn',
  maxStopBlocks: 8,
  reasoningFlow: false,
  bypassPrefix: '-b ',
  planningWrites: ['plans/**', '**/*.plan', '**/*.plan.txt', '**/*.plan.md', 'research/**', '.claude/memory/**', 'notes/**'],
  requireTask: true,
  cliMissing: 'refuse',
};

/** A config file that does not parse or validate: the hooks block, naming the file and place. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}:${column ?? 1}`}: ${reason}`);
    this.name = 'ConfigError';
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every problem of a parsed config value, as `pointer: message` (empty: valid). */
export function configProblems(value: unknown): string[] {
  const problems: string[] = [];
  if (!isObject(value)) return ['(root): expected an object'];
  for (const key of Object.keys(value)) {
    if (!['$schema', 'schemaVersion', 'hooks', 'memory', 'store'].includes(key)) problems.push(`/${key}: unknown property (expected $schema, schemaVersion, hooks, memory, store)`);
  }
  problems.push(...memoryConfigProblems(value.memory), ...storeConfigProblems(value.store));
  if ('$schema' in value && typeof value.$schema !== 'string') problems.push('/$schema: expected a string');
  if ('schemaVersion' in value && value.schemaVersion !== 1) problems.push('/schemaVersion: expected 1');
  const hooks = value.hooks;
  if (hooks === undefined) return problems;
  if (!isObject(hooks)) return [...problems, '/hooks: expected an object'];
  for (const [key, v] of Object.entries(hooks)) {
    const at = `/hooks/${key}`;
    switch (key) {
      case 'strictness':
        if (!STRICTNESS.includes(v as Strictness)) problems.push(`${at}: expected one of ${STRICTNESS.join(', ')}`);
        break;
      case 'maxStopBlocks':
        if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > 1000) problems.push(`${at}: expected a whole number from 0 to 1000`);
        break;
      case 'reasoningFlow':
        if (v !== false && (typeof v !== 'string' || v === '')) problems.push(`${at}: expected a flow name or false`);
        break;
      case 'bypassPrefix':
        if (typeof v !== 'string' || v === '') problems.push(`${at}: expected a non-empty string`);
        break;
      case 'cliMissing':
        if (v !== 'refuse' && v !== 'allow') problems.push(`${at}: expected "refuse" or "allow"`);
        break;
      case 'requireTask':
        if (typeof v !== 'boolean') problems.push(`${at}: expected true or false`);
        break;
      case 'planningWrites':
        if (!Array.isArray(v) || !v.every((g) => typeof g === 'string' && g !== '')) problems.push(`${at}: expected an array of non-empty glob strings`);
        break;
      default:
        problems.push(`${at}: unknown property`);
    }
  }
  return problems;
}

export const MEMORY_EMBEDDERS = ['builtin', 'transformers'] as const;

/** Section `memory`: which semantic signal memory recall fuses with BM25. */
export interface MemoryConfig {
  /** builtin: the concept table, stems and n-grams (default); transformers: sentence embeddings (optional package). */
  embedder: (typeof MEMORY_EMBEDDERS)[number];
  /** Model id for the transformers embedder (default Xenova/all-MiniLM-L6-v2). */
  model?: string;
  /** Project-relative (or absolute) directory holding `<model id>/`. */
  modelDir?: string;
  /** The transformers cache directory to read the model from. */
  cacheDir?: string;
}

function memoryConfigProblems(memory: unknown): string[] {
  if (memory === undefined) return [];
  if (!isObject(memory)) return ['/memory: expected an object'];
  const problems: string[] = [];
  for (const [key, v] of Object.entries(memory)) {
    const at = `/memory/${key}`;
    if (key === 'embedder') {
      if (!MEMORY_EMBEDDERS.includes(v as MemoryConfig['embedder'])) problems.push(`${at}: expected one of ${MEMORY_EMBEDDERS.join(', ')}`);
    } else if (key === 'model' || key === 'modelDir' || key === 'cacheDir') {
      if (typeof v !== 'string' || v === '') problems.push(`${at}: expected a non-empty string`);
    } else problems.push(`${at}: unknown property (expected embedder, model, modelDir, cacheDir)`);
  }
  return problems;
}

/** The `store` section is read by @ratchet/store (`readStoreConfig`); here it only has to be well-formed. */
function storeConfigProblems(store: unknown): string[] {
  if (store === undefined) return [];
  if (!isObject(store)) return ['/store: expected an object'];
  const problems: string[] = [];
  for (const [key, v] of Object.entries(store)) {
    if (key !== 'url' && key !== 'project') problems.push(`/store/${key}: unknown property (expected url, project)`);
    else if (typeof v !== 'string' || v === '') problems.push(`/store/${key}: expected a non-empty string`);
  }
  return problems;
}

/** The project's memory config (builtin when the file or section is absent). Throws ConfigError when the file is broken. */
export function loadMemoryConfig(root: string): MemoryConfig {
  const value = readConfig(root);
  const memory = value === undefined ? undefined : (value as { memory?: Partial<MemoryConfig> }).memory;
  return { embedder: 'builtin', ...memory };
}

/** The parsed, validated config file, or undefined when there is none. */
function readConfig(root: string): unknown {
  // While a task runs, the config pinned at its start (rule-pins.ts): loosening it applies to the next task.
  const { path, exists } = ruleFile(root, join(root, CONFIG_FILE));
  if (!exists) return undefined;
  let value: unknown;
  try {
    value = readJsonFileSync(path, { maxBytes: 256 * 1024 }).value;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    if (err instanceof StoreError) throw new ConfigError(CONFIG_FILE, err.reason, err.line, err.column);
    throw err;
  }
  const problems = configProblems(value);
  if (problems.length > 0) throw new ConfigError(CONFIG_FILE, problems.join('; '));
  return value;
}

/** The project's hook config (defaults for what it does not say). Throws ConfigError when the file is broken. */
export function loadHookConfig(root: string): HookConfig {
  const value = readConfig(root);
  if (value === undefined) return DEFAULT_HOOK_CONFIG;
  const hooks = (value as { hooks?: Partial<HookConfig> }).hooks ?? {};
  return { ...DEFAULT_HOOK_CONFIG, ...hooks };
}
