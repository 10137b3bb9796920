/**
 * The zod source of truth for a refusal-log record (`.ratchet/refusals.log.jsonl`, refusal-log.ts).
 * The hooks validate with refusal-log.ts's hand-written check (no zod on a tool call's path);
 * scripts/generate.ts writes schemas/refusal-log-entry.schema.json from here, and
 * test/serve.test.ts checks that both agree.
 */
import { z } from 'zod';
import { REFUSAL_REASON_MAX, REFUSAL_SCHEMA_VERSION } from './refusal-log.js';

export const REFUSAL_ENTRY_SCHEMA_URL = 'https://unpkg.com/@ratchet/cli/schemas/refusal-log-entry.schema.json';

// Loose: a reader keeps working when a later version adds a field.
export const RefusalRecordSchema = z
  .looseObject({
    v: z.literal(REFUSAL_SCHEMA_VERSION).describe('The record format version.'),
    time: z.string().refine((t) => !Number.isNaN(Date.parse(t)), 'expected an ISO-8601 time').describe('When the hook answered (ISO-8601, its clock).'),
    event: z.string().min(1).describe('The hook event: pre-tool-use, stop or subagent-stop.'),
    decision: z.enum(['deny', 'block']).describe('deny: a PreToolUse refusal; block: a Stop or SubagentStop block.'),
    rules: z.array(z.string()).min(1).describe('The checks that refused: state-file, no-write-before-plan, post-mortem-only, plan-step, unreadable-state, config, stop-open-task, stop-open-flow, stop-claimed-task, stop-jixo-lock, stop-other, other.'),
    reason: z.string().max(REFUSAL_REASON_MAX).describe('What the agent was told (clipped).'),
    tool: z.string().optional().describe('The tool refused (PreToolUse).'),
    session: z.string().optional().describe("Claude Code's session id."),
  })
  .describe('One refusal a Ratchet hook answered: a denied tool call or a blocked stop (what `ratchet serve` counts per rule).');

export function refusalEntryJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(RefusalRecordSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  return { $schema, $id: REFUSAL_ENTRY_SCHEMA_URL, title: 'Ratchet refusal log entry (.ratchet/refusals.log.jsonl, one per line)', ...rest };
}
