/**
 * The zod 4 schemas: the one source of truth for the formats @ratchet/goals owns, the action-type
 * registry (`action_types.json` / `.yaml`) and the state document (`.ratchet/goals.json`).
 * scripts/generate.ts derives from them the shipped JSON Schemas and the precompiled ajv
 * validators the main entry uses (the main entry never imports zod: it costs ~100 ms of start-up).
 */
import { z } from 'zod';

import { ACTION_TYPES_SCHEMA_URL, GOALS_STATE_SCHEMA_URL } from './urls.js';

export { ACTION_TYPES_SCHEMA_URL, GOALS_STATE_SCHEMA_URL };

/** Ids, statuses and type ids: a safe, printable token (never `__proto__` and friends). */
const Name = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/)
  .describe('A name: a letter or digit, then letters, digits, "_", ".", ":" or "-" (at most 128 characters).');
const Owner = z.enum(['agent', 'user']);
const Text = z.string().max(100_000);
const Timestamp = z.string().min(1).max(64).describe('An ISO 8601 timestamp.');
const Duration = z
  .string()
  .regex(/^P(?:\d+W|(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+S)?)?)$/)
  .describe('An ISO 8601 duration such as PT24H, P1D or PT30M.');
const Refs = z.array(z.string().min(1).max(2048));
const Priority = z.number().min(0).max(1_000_000);

// ---- the action-type registry -------------------------------------------------------------------

export const ActionTypeSchema = z
  .object({
    id: Name,
    display_name: z.string().min(1).max(200),
    description: Text.optional(),
    allowed_owners: z.array(Owner).min(1),
    default_policies: z
      .object({
        requires_confirmation: z.boolean().optional(),
        auto_complete: z.boolean().optional(),
        blocking: z.boolean().optional(),
        escalation: z.object({ after: Duration.optional(), policy: z.string().min(1).max(200).optional() }).strict().optional(),
      })
      .strict(),
    allowed_statuses: z.array(Name).min(1),
    allowed_transitions: z.record(Name, z.array(Name)),
    policy_handlers: z.object({ escalation: z.string().min(1).max(200).optional(), completion_guard: z.string().min(1).max(200).optional() }).strict().optional(),
    deprecation_status: z.enum(['active', 'deprecated']),
  })
  .strict();

export const ActionTypeRegistrySchema = z
  .object({
    $schema: z.string().optional(),
    schemaVersion: z.literal(1).optional(),
    action_types: z.array(ActionTypeSchema),
  })
  .strict()
  .meta({ id: 'ActionTypeRegistry', title: 'Ratchet action-type registry (Frontal Cortex)' });

// ---- the state document -------------------------------------------------------------------------

const Versioned = { version: z.number().int().min(0) };

export const GoalSchema = z
  .object({
    id: Name,
    title: z.string().min(1).max(1000),
    description: Text.optional(),
    priority: Priority,
    horizon: z.object({ days: z.number().min(0).optional(), steps: z.number().int().min(0).optional() }).strict().optional(),
    status: z.enum(['proposed', 'active', 'paused', 'achieved', 'abandoned']),
    progress: z.number().min(0).max(1),
    metrics: z.record(z.string(), z.number()),
    constraints: z.array(z.string().max(2000)),
    parent_goal_id: Name.optional(),
    lineage_ids: z.array(Name),
    evidence_refs: Refs,
    created_at: Timestamp,
    updated_at: Timestamp,
    ...Versioned,
  })
  .strict();

export const PendingActionSchema = z
  .object({
    id: Name,
    type: Name,
    owner: Owner,
    title: z.string().min(1).max(1000),
    description: Text.optional(),
    priority: Priority,
    effort: z.number().positive().max(1_000_000).optional(),
    status: Name,
    due_at: Timestamp.optional(),
    goal_id: Name.optional(),
    blocking: z.boolean().optional(),
    requires_confirmation: z.boolean().optional(),
    confirmed_at: Timestamp.optional(),
    confirmed_by: z.string().min(1).max(200).optional(),
    escalated_at: Timestamp.optional(),
    created_by: z.string().min(1).max(200),
    created_from_turn_id: Name.optional(),
    evidence_refs: Refs,
    metadata: z.record(z.string(), z.unknown()),
    created_at: Timestamp,
    updated_at: Timestamp,
    ...Versioned,
  })
  .strict();

export const QuestionSchema = z
  .object({
    id: Name,
    text: z.string().min(1).max(10_000),
    goal_id: Name.optional(),
    priority: Priority,
    status: z.enum(['open', 'answered', 'archived']),
    owner: Owner.optional(),
    tags: z.array(z.string().min(1).max(200)),
    created_at: Timestamp,
    updated_at: Timestamp,
    ...Versioned,
  })
  .strict();

export const StorySchema = z
  .object({
    id: Name,
    question_id: Name,
    narrative: Text,
    acceptance_criteria: z.array(z.string().min(1).max(2000)),
    evidence_refs: Refs,
    status: z.enum(['draft', 'active', 'accepted', 'archived']),
    last_updated: Timestamp,
    ...Versioned,
  })
  .strict();

const TypeChange = {
  display_name: z.string().min(1).max(200).optional(),
  description: Text.optional(),
  diff: Text.optional(),
  allowed_owners: z.array(Owner).min(1).optional(),
  suggested_policies: ActionTypeSchema.shape.default_policies.optional(),
  allowed_statuses: z.array(Name).min(1).optional(),
  allowed_transitions: z.record(Name, z.array(Name)).optional(),
};

export const RegistryProposalSchema = z
  .object({
    id: Name,
    proposal_type: z.enum(['add', 'modify', 'deprecate']),
    type_id: Name.optional(),
    ...TypeChange,
    rationale: z.string().min(1).max(10_000),
    examples: z.array(z.string().max(10_000)),
    risks: z.array(z.string().max(10_000)),
    created_by: z.string().min(1).max(200),
    created_from_turn_id: Name.optional(),
    status: z.enum(['open', 'approved', 'rejected', 'merged']),
    reviewers: z.array(
      z
        .object({ reviewer: z.string().min(1).max(200), decision: z.enum(['approve', 'reject']), comments: z.string().max(10_000), at: Timestamp })
        .strict(),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
    ...Versioned,
  })
  .strict();

export const TurnRecordSchema = z
  .object({ id: Name, digest: z.string().regex(/^[0-9a-f]{64}$/), version: z.number().int().min(0), at: Timestamp, by: z.string().min(1).max(200) })
  .strict();

const Kind = z.enum(['goal', 'action', 'question', 'story', 'proposal', 'turn']);
const Image = z.record(z.string(), z.unknown()).nullable();

export const AuditEntrySchema = z
  .object({
    version: z.number().int().min(1),
    previous_version: z.number().int().min(0),
    who: z.string().min(1).max(200),
    at: Timestamp,
    op: z.string().min(1).max(200),
    turn_id: Name.optional(),
    reverted_to: z.number().int().min(0).optional(),
    changes: z.array(z.object({ kind: Kind, id: Name, before: Image, after: Image }).strict()),
  })
  .strict();

export const GoalsStateSchema = z
  .object({
    version: z.number().int().min(0),
    counters: z.record(Name, z.number().int().min(0)),
    goals: z.array(GoalSchema),
    actions: z.array(PendingActionSchema),
    questions: z.array(QuestionSchema),
    stories: z.array(StorySchema),
    proposals: z.array(RegistryProposalSchema),
    turns: z.array(TurnRecordSchema),
    audit: z.array(AuditEntrySchema),
  })
  .strict()
  .meta({ id: 'GoalsState', title: 'Ratchet goals state document (Frontal Cortex)' });

function jsonSchema(schema: z.ZodType, id: string): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  const { $schema, ...rest } = out;
  return { $schema, $id: id, ...rest };
}

export const actionTypesJsonSchema = (): Record<string, unknown> => jsonSchema(ActionTypeRegistrySchema, ACTION_TYPES_SCHEMA_URL);
/** The state document as written: the store adds `$schema` and `schemaVersion` around it. */
export const goalsStateJsonSchema = (): Record<string, unknown> => {
  const schema = jsonSchema(GoalsStateSchema, GOALS_STATE_SCHEMA_URL);
  const defs = schema.$defs as Record<string, { properties: object }>;
  const def = defs.GoalsState!;
  def.properties = { $schema: { type: 'string' }, schemaVersion: { type: 'number', const: 1 }, ...def.properties };
  return schema;
};

export type ActionTypeInput = z.input<typeof ActionTypeSchema>;
export type ActionTypeRegistryInput = z.input<typeof ActionTypeRegistrySchema>;
export type GoalsStateOutput = z.output<typeof GoalsStateSchema>;
