/**
 * The zod source of truth for `ratchet.config.json` and the hook memory files. The hooks validate
 * with hand-written checks (config.ts, memory.ts: zod costs ~100 ms to import on every tool call);
 * scripts/generate.ts writes schemas/*.schema.json from here, and test/hook-schema.test.ts checks
 * that both agree on generated values and that the committed schemas are current.
 */
import { z } from 'zod';
import { CONFIG_SCHEMA_URL, DEFAULT_HOOK_CONFIG, MEMORY_EMBEDDERS, STRICTNESS } from './config.js';
import { HOOK_MEMORY_SCHEMA_URL } from './memory.js';

export const HookConfigSchema = z.strictObject({
  strictness: z
    .enum(STRICTNESS)
    .optional()
    .describe(`While a plan executes, a tool call that does not belong to the current step is allowed (off), allowed with a warning to the agent (warn) or denied (enforce). Default: ${DEFAULT_HOOK_CONFIG.strictness}.`),
  maxStopBlocks: z
    .number()
    .int()
    .min(0)
    .max(1000)
    .optional()
    .describe(`The Stop hook refuses to let a session stop at most this many times while obligations are open; then it lets the agent stop and notes what is still open. Default: ${DEFAULT_HOOK_CONFIG.maxStopBlocks}.`),
  reasoningFlow: z
    .union([z.string().min(1), z.literal(false)])
    .optional()
    .describe('The flow every user prompt runs first (the seed ran the reasoning protocol, "reasoning", on every prompt), or false for none. `ratchet init --reasoning-flow` sets it. Default: false.'),
  bypassPrefix: z.string().min(1).optional().describe('A prompt that starts with this skips the reasoning flow. Default: "-b ".'),
  planningWrites: z
    .array(z.string().min(1))
    .optional()
    .describe(`Globs (project-relative) the agent may write while a task is ORIENTING or PLANNING: plans and notes. Default: ${DEFAULT_HOOK_CONFIG.planningWrites.join(', ')}.`),
  requireTask: z
    .boolean()
    .optional()
    .describe('While no task, flow or campaign claim is active, writes outside planningWrites are refused, naming the command that starts one. Default: true.'),
  cliMissing: z
    .enum(['refuse', 'allow'])
    .optional()
    .describe("When the Claude Code plugin cannot find or run @ratchet/cli in this project: refuse tool calls that may write and the stop (default), or let them through unchecked. Default: refuse."),
});

export const MemoryConfigSchema = z.strictObject({
  embedder: z
    .enum(MEMORY_EMBEDDERS)
    .optional()
    .describe('The semantic signal fused with BM25 in memory recall: builtin (a software-vocabulary concept table, stems and n-grams; no download) or transformers (sentence embeddings from the optional package @huggingface/transformers, local model files only). Default: builtin.'),
  model: z.string().min(1).optional().describe('The transformers model id. Default: Xenova/all-MiniLM-L6-v2.'),
  modelDir: z.string().min(1).optional().describe('A directory (project-relative or absolute) holding <model id>/ with config.json, tokenizer.json and onnx/model.onnx.'),
  cacheDir: z.string().min(1).optional().describe("The transformers cache directory to read the model from (the package's default cache otherwise)."),
});

const StoreConfigSchema = z.strictObject({
  url: z.string().min(1).optional().describe('Where shared state lives: "file" (the default: files under the project) or a postgres:// (postgresql://) URL; RATCHET_STORE overrides it. A URL here is visible to everyone who reads the repository: keep passwords in RATCHET_STORE or ~/.pgpass.'),
  project: z.string().min(1).optional().describe("The project id every row in the database carries (RATCHET_STORE_PROJECT overrides it; default: the project directory's name). Give each repository its own."),
});

export const RatchetConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  schemaVersion: z.literal(1).optional(),
  hooks: HookConfigSchema.optional().describe('How `ratchet hook` (the Claude Code plugin, `ratchet init --claude`) holds an agent to the rails.'),
  memory: MemoryConfigSchema.optional().describe('How `ratchet memory query`/`explain` and `workspace create` recall memory.'),
  store: StoreConfigSchema.optional().describe('Which storage backend holds the state agents share (campaigns and their claims, goals, ...): files, or PostgreSQL for agents on several machines.'),
});

export const HookMemorySchema = z.strictObject({
  sessionId: z.string().describe('The Claude Code session id.'),
  runners: z.array(z.string()).max(200).describe('Runner names this session claimed campaign tasks as.'),
  jixoLocks: z.array(z.object({ log: z.string(), runner: z.string() })).max(200).describe('JIXO logs this session locked, with the runner.'),
  flows: z.array(z.string()).max(200).describe('Flow sessions started for this session.'),
  stopBlocks: z.number().int().min(0).describe('How many times Stop was blocked.'),
  lastBlock: z.string().nullable().describe('The obligations the last block named.'),
});

function toJson(schema: z.ZodType, id: string, title: string): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  return { $schema, $id: id, title, ...rest };
}

export const ratchetConfigJsonSchema = (): Record<string, unknown> => toJson(RatchetConfigSchema, CONFIG_SCHEMA_URL, 'Ratchet project config (ratchet.config.json)');
export const hookMemoryJsonSchema = (): Record<string, unknown> => {
  const base = toJson(HookMemorySchema, HOOK_MEMORY_SCHEMA_URL, 'Ratchet hook memory (.ratchet/hooks/<session>.json)');
  const properties = base.properties as Record<string, unknown>;
  return { ...base, properties: { $schema: { type: 'string' }, schemaVersion: { const: 1 }, ...properties } };
};
