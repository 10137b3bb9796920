/**
 * The zod 4 schemas: the one source of truth for the formats @ratchet/goals owns, the action-type
 * registry (`action_types.json` / `.yaml`), the state document (`.ratchet/goals.json`) and the
 * two input files the CLI reads (a turn commit, a registry proposal).
 * scripts/generate.ts derives from them the shipped JSON Schemas and the precompiled ajv
 * validators the main entry uses (the main entry never imports zod: it costs ~100 ms of start-up).
 */
import { z } from 'zod';
import { jsonSchema } from './zod-json-schema.js';

import { ACTION_STATS_SCHEMA_URL, ACTION_TYPES_SCHEMA_URL, GOALS_STATE_SCHEMA_URL, PLAN_CONTEXT_SCHEMA_URL, PLAN_SCHEMA_URL, PROPOSAL_AMENDMENT_SCHEMA_URL, PROPOSAL_SCHEMA_URL, TURN_COMMIT_SCHEMA_URL } from './urls.js';

export { ACTION_STATS_SCHEMA_URL, ACTION_TYPES_SCHEMA_URL, GOALS_STATE_SCHEMA_URL, PLAN_CONTEXT_SCHEMA_URL, PLAN_SCHEMA_URL, PROPOSAL_AMENDMENT_SCHEMA_URL, PROPOSAL_SCHEMA_URL, TURN_COMMIT_SCHEMA_URL };

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
    id: Name.describe('The type id actions name in their `type` (e.g. "approval_request"). Unique in the registry.'),
    display_name: z.string().min(1).max(200).describe('A short human name for the type, shown in listings.'),
    description: Text.optional().describe('What an action of this type asks for, for people and planners reading the registry.'),
    allowed_owners: z.array(Owner).min(1).describe('Who may own an action of this type: "agent", "user" or both.'),
    default_policies: z
      .object({
        requires_confirmation: z.boolean().optional().describe('Copied onto new actions: the action needs a confirmation before it is created.'),
        auto_complete: z.boolean().optional().describe('false: only the user may complete actions of this type.'),
        blocking: z.boolean().optional().describe('Copied onto new actions: a blocking action is assessed first.'),
        escalation: z
          .object({
            after: Duration.optional().describe('How long after its due_at an action escalates (ISO 8601 duration, e.g. PT24H).'),
            policy: z.string().min(1).max(200).optional().describe('The name of the escalation policy to apply.'),
          })
          .strict()
          .optional()
          .describe('When and how an overdue action escalates (escalated_at is set; the status moves to "escalated" where the type allows it).'),
      })
      .strict()
      .describe('Policies every new action of this type starts with.'),
    allowed_statuses: z.array(Name).min(1).describe('The statuses an action of this type can be in; the first is where new actions start. A status without outgoing transitions is terminal.'),
    allowed_transitions: z.record(Name, z.array(Name)).describe('For each status, the statuses it may move to. Every status named here must be in allowed_statuses.'),
    policy_handlers: z
      .object({
        escalation: z.string().min(1).max(200).optional().describe('The handler that runs when an action of this type escalates.'),
        completion_guard: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe('A check that must pass before an action completes: "user_acknowledgment", "choice_recorded" or a handler the harness registers. Without a handler it refuses every completion.'),
      })
      .strict()
      .optional()
      .describe('Named handlers the harness runs for this type.'),
    deprecation_status: z.enum(['active', 'deprecated']).describe('"deprecated" refuses new actions of this type; existing ones keep working.'),
  })
  .strict()
  .meta({ id: 'ActionType', title: 'An action type: owners, policies, statuses and transitions' });

export const ActionTypeRegistrySchema = z
  .object({
    $schema: z.string().optional().describe('The JSON Schema this file follows (for editors).'),
    schemaVersion: z.literal(1).optional().describe('The registry format version: 1.'),
    action_types: z.array(ActionTypeSchema).describe('Every action type the project allows, each with a unique id.'),
  })
  .strict()
  .meta({ id: 'ActionTypeRegistry', title: 'Ratchet action-type registry (Frontal Cortex)' });

// ---- the state document -------------------------------------------------------------------------

const Versioned = { version: z.number().int().min(0) };
const Count0 = (): z.ZodNumber => z.number().int().min(0);

/** A grant on a scoped item (seed 002: "optional cross-agent sharing by ACL"): to an agent, or to every agent of an org. */
export const AclEntrySchema = z
  .object({
    agent_id: Name.optional().describe('The agent granted access (with org_id: only that agent within that org).'),
    org_id: Name.optional().describe('The org granted access: every agent of it (without agent_id).'),
    access: z.enum(['read', 'write']).describe('"read" lets it see the item; "write" also lets it change it (never its scope or ACL).'),
  })
  .strict()
  .meta({ id: 'AclEntry', title: 'An access grant: agent_id and/or org_id (at least one), read or write' });

/**
 * Access scope (seed 002, "Access control: scope by agent_id/org_id"). Optional: an item without
 * agent_id and org_id (every item written before scopes existed) is visible to and changeable by all.
 */
const Scope = {
  agent_id: Name.optional().describe('The agent the item belongs to; stamped from the acting agent when it is created.'),
  org_id: Name.optional().describe('The org (tenant) the item belongs to; stamped from the acting agent when it is created.'),
  acl: z.array(AclEntrySchema).max(1000).optional().describe('Other agents or orgs granted read or write access.'),
};

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
    ...Scope,
    ...Versioned,
  })
  .strict()
  .meta({ id: 'Goal', title: 'A long-horizon goal' });

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
    ...Scope,
    ...Versioned,
  })
  .strict()
  .meta({ id: 'PendingAction', title: 'A pending action for the agent or the user' });

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
  .strict()
  .meta({ id: 'Question', title: 'A guiding question' });

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
  .strict()
  .meta({ id: 'Story', title: "A question's evolving narrative, with acceptance criteria and evidence" });

const TypeChange = {
  display_name: z.string().min(1).max(200).optional(),
  description: Text.optional(),
  diff: Text.optional(),
  allowed_owners: z.array(Owner).min(1).optional(),
  suggested_policies: ActionTypeSchema.shape.default_policies.optional(),
  allowed_statuses: z.array(Name).min(1).optional(),
  allowed_transitions: z.record(Name, z.array(Name)).optional(),
  policy_handlers: ActionTypeSchema.shape.policy_handlers,
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
  .strict()
  .meta({ id: 'RegistryProposal', title: 'A proposal to add, modify or deprecate an action type' });

export const TurnRecordSchema = z
  .object({ id: Name, digest: z.string().regex(/^[0-9a-f]{64}$/), version: z.number().int().min(0), at: Timestamp, by: z.string().min(1).max(200) })
  .strict();

const StepNo = z.number().int().min(1);

export const PlanRunSchema = z
  .object({
    id: Name,
    digest: z.string().regex(/^[0-9a-f]{64}$/).describe('sha256 of the plan text the run was started from.'),
    source: z.string().min(1).max(4096).optional(),
    goal_id: Name.optional(),
    turn_id: Name.optional(),
    status: z.enum(['running', 'succeeded', 'failed']),
    steps: z.array(
      z
        .object({
          number: StepNo,
          name: z.string().max(1000),
          success_criteria: Text,
          depends_on: z.array(StepNo),
          status: z.enum(['pending', 'started', 'succeeded', 'failed']),
          started_at: Timestamp.optional(),
          finished_at: Timestamp.optional(),
          by: z.string().min(1).max(200).optional(),
          criteria_met: z.object({ criteria: Text, evidence_refs: Refs.min(1), note: Text.optional() }).strict().optional(),
          failure: Text.optional(),
        })
        .strict(),
    ),
    regeneration: z.object({ step: StepNo, reason: Text, requested_at: Timestamp, by: z.string().min(1).max(200) }).strict().optional(),
    created_by: z.string().min(1).max(200),
    created_at: Timestamp,
    updated_at: Timestamp,
    ...Versioned,
  })
  .strict()
  .meta({ id: 'PlanRun', title: 'A plan under execution: each step started, succeeded with evidence, or failed' });

export const ObservationSchema = z
  .object({
    id: Name,
    type: z.enum(['story', 'observation', 'insight', 'alert']),
    content: z.string().min(1).max(100_000),
    source: z.string().min(1).max(2048),
    owner: Owner,
    status: z.enum(['active', 'pending_review', 'resolved', 'archived']),
    confidence: z.number().min(0).max(1),
    tags: z.array(z.string().min(1).max(200)),
    expires_at: Timestamp,
    expired: z.boolean().optional(),
    promoted_to: z.object({ kind: z.enum(['goal', 'action']), id: Name }).strict().optional(),
    reviewed_by: z.string().min(1).max(200).optional(),
    review_note: Text.optional(),
    created_by: z.string().min(1).max(200),
    created_at: Timestamp,
    updated_at: Timestamp,
    ...Scope,
    ...Versioned,
  })
  .strict()
  .meta({ id: 'Observation', title: 'A Scratch Page item: a story or observation that expires unless acted on' });

const Kind = z.enum(['goal', 'action', 'question', 'story', 'proposal', 'turn', 'plan', 'observation']);
const Image = z.record(z.string(), z.unknown()).nullable();

/** The project's action-type registry as a user last merged or first used it: agent decisions are judged against it. */
export const RegistryTrustSchema = z
  .object({ digest: z.string().regex(/^[0-9a-f]{64}$/), at: Timestamp, by: z.string().min(1).max(200) })
  .strict();

export const AuditEntrySchema = z
  .object({
    version: z.number().int().min(1),
    previous_version: z.number().int().min(0),
    who: z.string().min(1).max(200),
    /** The actor's role (who may be a name); absent in entries written before it was recorded. */
    role: z.enum(['agent', 'user']).optional(),
    at: Timestamp,
    op: z.string().min(1).max(200),
    turn_id: Name.optional(),
    reverted_to: z.number().int().min(0).optional(),
    changes: z.array(z.object({ kind: Kind, id: Name, before: Image, after: Image }).strict()),
    agent_id: Name.optional().describe('The acting agent (access scopes), when it had an id.'),
    org_id: Name.optional().describe("The acting agent's org, when it had one."),
  })
  .strict();

const ActionCountsSchema = z.object({ created: Count0(), completed: Count0(), cancelled: Count0(), failed: Count0(), escalated: Count0(), coerced: Count0() }).strict();

/** Older audit entries compacted into one record (`compactAudit`, `ratchet goals compact`). */
export const AuditSummarySchema = z
  .object({
    from_version: z.number().int().min(1).describe('The first version compacted.'),
    to_version: z.number().int().min(1).describe('The last version compacted.'),
    from_at: Timestamp,
    to_at: Timestamp,
    entries: z.number().int().min(1).describe('How many audit entries the summary replaced.'),
    ops: z.record(z.string(), Count0()).describe('Entries per op.'),
    who: z.record(z.string(), Count0()).describe('Entries per actor.'),
    changed: z.record(z.string(), Count0()).describe('Distinct entities changed, per kind.'),
    evidence_refs: Refs.describe('Evidence pointers added in the range (files, URLs, tool results), first seen first.'),
    evidence_dropped: Count0().optional().describe('Evidence pointers left out past the cap.'),
    action_counts: z.record(z.string(), ActionCountsSchema).describe('Per action type: created, completed, cancelled, failed, escalated, coerced (for actions stats).'),
    milestones: z
      .array(z.object({ goal_id: Name, version: z.number().int().min(1), at: Timestamp, title: z.string().max(1000), status: z.string().max(64), progress: z.number().min(0).max(1), evidence_refs: Refs }).strict())
      .describe('Goal milestones in the range: a quarter of progress crossed, or a status reached.'),
    archived: z
      .array(
        z
          .object({
            kind: z.enum(['question', 'story', 'observation']),
            id: Name,
            version: z.number().int().min(1),
            at: Timestamp,
            goal_id: Name.optional(),
            question_id: Name.optional(),
            promoted_to: z.object({ kind: z.enum(['goal', 'action']), id: Name }).strict().optional(),
          })
          .strict(),
      )
      .describe('Questions, stories and Scratch Page items archived in the range, with their lineage.'),
    revert_point: z.number().int().min(0).optional().describe('The version a revert can go back to through this summary (from_version - 1), while base is kept.'),
    base: z.array(z.object({ kind: Kind, id: Name, image: Image }).strict()).optional().describe('The before-image of every entity changed in the range, at its first change.'),
    merge_version: z.number().int().min(1).optional().describe('A proposal merged in the range: nobody reverts across it.'),
    agent_revert_refused: z.string().max(2000).optional().describe('Why the agent may not revert across the range.'),
    compacted_at: Timestamp,
    compacted_by: z.string().min(1).max(200),
  })
  .strict()
  .meta({ id: 'AuditSummary', title: 'Audit entries compacted into a summary that keeps evidence pointers, milestones, lineage and a revert point' });

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
    plans: z.array(PlanRunSchema).optional(),
    observations: z.array(ObservationSchema).optional(),
    audit: z.array(AuditEntrySchema),
    registry_trust: RegistryTrustSchema.optional(),
    audit_summaries: z.array(AuditSummarySchema).optional(),
  })
  .strict()
  .meta({ id: 'GoalsState', title: 'Ratchet goals state document (Frontal Cortex)' });

// ---- input files: a turn commit (`ratchet turn commit`), a proposal (`ratchet proposals submit`) and an amendment (`ratchet proposals amend`) ----

const Metadata = z.record(z.string(), z.unknown());

export const GoalInputSchema = z
  .object({
    id: Name.optional(),
    // Optional so a turn can update an existing goal with only the fields it changes; a new goal needs one.
    title: GoalSchema.shape.title.optional(),
    description: Text.optional(),
    priority: Priority.optional(),
    horizon: GoalSchema.shape.horizon,
    status: GoalSchema.shape.status.optional(),
    progress: GoalSchema.shape.progress.optional(),
    metrics: GoalSchema.shape.metrics.optional(),
    constraints: GoalSchema.shape.constraints.optional(),
    parent_goal_id: Name.optional(),
    lineage_ids: z.array(Name).optional(),
  })
  .strict()
  .describe('A goal to create (title required), or (with the id of an existing goal) only the fields to change: the others keep their values.');

export const QuestionInputSchema = z
  .object({
    id: Name.optional(),
    text: QuestionSchema.shape.text,
    goal_id: Name.optional(),
    priority: Priority.optional(),
    status: QuestionSchema.shape.status.optional(),
    owner: Owner.optional(),
    tags: QuestionSchema.shape.tags.optional(),
  })
  .strict();

export const ProgressDeltaSchema = z
  .object({
    goal_id: Name,
    progress: z.number().min(0).max(1).optional().describe('New absolute progress, 0 to 1.'),
    delta: z.number().min(-1).max(1).optional().describe('Progress to add (the result is clamped to 0..1).'),
    metrics: GoalSchema.shape.metrics.optional(),
    evidence_refs: Refs.optional(),
    status: GoalSchema.shape.status.optional(),
  })
  .strict();

export const ActionInputSchema = z
  .object({
    id: Name.optional(),
    type: z.string().min(1).max(200).describe('An action type id; an unknown one becomes a user_task requiring confirmation, and a proposal is filed.'),
    owner: Owner.optional(),
    title: PendingActionSchema.shape.title,
    description: Text.optional(),
    priority: Priority.optional(),
    effort: PendingActionSchema.shape.effort,
    due_at: Timestamp.optional(),
    goal_id: Name.optional(),
    blocking: z.boolean().optional(),
    requires_confirmation: z.boolean().optional(),
    evidence_refs: Refs.optional(),
    metadata: Metadata.optional(),
  })
  .strict();

export const CompletedActionSchema = z.union([
  Name.describe('The id of an action to complete.'),
  z
    .object({
      id: Name,
      status: Name.optional().describe("A terminal status (default: the type's completion status, e.g. done)."),
      evidence_refs: Refs.optional(),
      metadata: Metadata.optional().describe('Merged into the action before it moves (e.g. {"choice": "postgres"} for a decision).'),
    })
    .strict(),
]);

export const StoryUpdateSchema = z
  .object({
    id: Name.optional(),
    question_id: Name.optional(),
    narrative: Text.optional(),
    acceptance_criteria: StorySchema.shape.acceptance_criteria.optional().describe('Criteria to add: existing ones are always kept.'),
    evidence_refs: Refs.optional().describe('Evidence links to add (never removed).'),
    status: StorySchema.shape.status.optional(),
  })
  .strict();

export const TurnCommitSchema = z
  .object({
    $schema: z.string().optional(),
    turn_id: Name.describe('Commits are idempotent by turn id: replaying the same commit changes nothing.'),
    expected_version: z.number().int().min(0).optional().describe('The state version the turn started from (from assess): a ConflictError if the state moved on.'),
    goals: z.array(GoalInputSchema).optional(),
    questions: z.array(QuestionInputSchema).optional(),
    progress: z.array(ProgressDeltaSchema).optional(),
    new_actions: z.array(ActionInputSchema).optional(),
    completed_actions: z.array(CompletedActionSchema).optional(),
    story_updates: z.array(StoryUpdateSchema).optional(),
  })
  .strict()
  .meta({ id: 'TurnCommit', title: 'Ratchet turn commit (Frontal Cortex): the deltas of one turn' });

export const ProposalInputSchema = z
  .object({
    $schema: z.string().optional(),
    id: Name.optional(),
    proposal_type: RegistryProposalSchema.shape.proposal_type,
    type_id: Name.optional(),
    ...TypeChange,
    rationale: RegistryProposalSchema.shape.rationale,
    examples: RegistryProposalSchema.shape.examples.optional(),
    risks: RegistryProposalSchema.shape.risks.optional(),
    created_from_turn_id: Name.optional(),
  })
  .strict()
  .meta({ id: 'ProposalInput', title: 'Ratchet action-type registry proposal, as submitted' });

export const ProposalAmendmentSchema = z
  .object({
    $schema: z.string().optional(),
    type_id: Name.optional(),
    ...TypeChange,
    rationale: RegistryProposalSchema.shape.rationale.optional(),
    examples: RegistryProposalSchema.shape.examples.optional(),
    risks: RegistryProposalSchema.shape.risks.optional(),
  })
  .strict()
  .meta({
    id: 'ProposalAmendment',
    title: 'Ratchet registry proposal amendment: the fields to replace in an open or approved proposal',
  });

// ---- documents the planner reads (output: never read back, so no precompiled validator) --------

export const ContextSectionSchema = z.enum(['goals', 'actions.agent', 'actions.user', 'questions', 'action_types', 'memories']);

export const ContextActionSchema = z
  .object({
    id: Name,
    type: Name,
    title: PendingActionSchema.shape.title,
    status: Name,
    priority: Priority,
    due_at: Timestamp.optional(),
    goal_id: Name.optional(),
    blocking: z.boolean().optional(),
    requires_confirmation: z.boolean().optional(),
    overdue: z.boolean(),
  })
  .strict();

export const PlanContextSchema = z
  .object({
    $schema: z.string(),
    schemaVersion: z.literal(1),
    version: z.number().int().min(0).describe('The goals state version read: commit the plan\'s turn with this expected_version.'),
    generated_at: Timestamp.describe('The (injected) clock the context was assembled at.'),
    query: z.string().optional(),
    goals: z
      .array(
        z
          .object({
            id: Name,
            title: GoalSchema.shape.title,
            description: Text.optional(),
            priority: Priority,
            progress: GoalSchema.shape.progress,
            horizon: GoalSchema.shape.horizon,
            constraints: GoalSchema.shape.constraints,
            parent_goal_id: Name.optional(),
          })
          .strict(),
      )
      .describe('Active goals, most relevant to the query first, then by priority.'),
    actions: z.object({ agent: z.array(ContextActionSchema), user: z.array(ContextActionSchema) }).strict().describe('Top pending actions per owner, in turn-assess order.'),
    questions: z.array(
      z
        .object({
          id: Name,
          text: QuestionSchema.shape.text,
          goal_id: Name.optional(),
          priority: Priority,
          story: z.object({ id: Name, narrative: Text, acceptance_criteria: StorySchema.shape.acceptance_criteria, status: StorySchema.shape.status }).strict().optional(),
        })
        .strict(),
    ),
    action_types: z
      .array(
        z
          .object({
            id: Name,
            display_name: z.string().min(1).max(200),
            description: Text.optional(),
            allowed_owners: z.array(Owner).min(1),
            requires_confirmation: z.boolean(),
            statuses: z.array(Name).min(1),
          })
          .strict(),
      )
      .describe('The registry\'s active types: the only ones a plan may create actions of.'),
    memories: z
      .array(
        z
          .object({
            kind: z.enum(['failure', 'pattern']),
            name: z.string().min(1),
            score: z.number(),
            tier: z.string().optional(),
            trigger: z.string(),
            advice: z.string().describe("A failure's fix or a pattern's insight."),
          })
          .strict(),
      )
      .describe('Relevant memories, as the caller ranked them (the CLI: a @ratchet/memory query).'),
    budget: z
      .object({
        limit: z.number().int().min(1).nullable().describe('The character budget (null: unbounded).'),
        used: z.number().int().min(0).describe('Characters of the rendering the budget was measured on.'),
        cut: z.array(z.object({ section: ContextSectionSchema, id: z.string() }).strict()).describe('Items left out to fit, in the order they were cut.'),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'PlanContext', title: "Ratchet planning context (Frontal Cortex): the planner's inputs, bounded" });

const StepNumber = z.number().int().min(1);

export const ParsedPlanSchema = z
  .object({
    $schema: z.string(),
    schemaVersion: z.literal(1),
    narrative: z.string().describe('The text before the first step: the execution strategy.'),
    steps: z.array(
      z
        .object({
          number: StepNumber,
          name: z.string(),
          line: z.number().int().min(1).describe('Line of the "## Step N: name" heading.'),
          description: z.string(),
          success_criteria: z.string(),
          actions: z.string(),
          parallel_with: z.array(StepNumber).describe('"Parallelizable with", as written.'),
          waits_for: z.array(StepNumber).describe('Explicit waits ("None - must wait for Step 2").'),
          depends_on: z.array(StepNumber).describe('What the step waits for in the schedule: earlier steps it is not parallel with, plus explicit waits.'),
        })
        .strict(),
    ),
    waves: z.array(z.array(StepNumber)).describe('Step numbers by wave: a wave runs together once the waves before it are done. Empty when the plan has errors.'),
    issues: z.array(
      z
        .object({
          rule: z.enum([
            'not-text', 'no-steps', 'too-many-steps', 'step-heading', 'step-number', 'duplicate-step', 'empty-step-name', 'duplicate-field',
            'missing-success-criteria', 'missing-actions', 'missing-parallel', 'parallel-syntax', 'unknown-step', 'self-parallel',
            'asymmetric-parallel', 'parallel-conflict', 'cycle', 'empty-narrative',
          ]),
          severity: z.enum(['error', 'warning']),
          message: z.string(),
          line: z.number().int().min(1),
          column: z.number().int().min(1),
          step: StepNumber.optional(),
        })
        .strict(),
    ),
    ok: z.boolean().describe('No error (warnings allowed).'),
  })
  .strict()
  .meta({ id: 'ParsedPlan', title: 'Ratchet plan (Frontal Cortex), parsed and checked: steps, their schedule in waves, and every problem with its line' });

// ---- per-type observability (`ratchet actions stats --json`) ------------------------------------

const Count = z.number().int().min(0);
const Rate = z.number().min(0).max(1).nullable();
const ActionTypeCountsShape = {
  created: Count.describe('Actions created in the window (from the audit trail).'),
  completed: Count.describe('Actions that reached a completing terminal status in the window (done, approved, succeeded, ...).'),
  cancelled: Count.describe('Actions cancelled or dismissed in the window.'),
  failed: Count.describe('Actions that reached a failure status ("failed") in the window.'),
  escalated: Count.describe('Actions that escalated in the window.'),
  coerced: Count.describe('Actions asked for with this type id while the registry did not have it (coerced to user_task): a rollout error.'),
  open: Count.describe('Actions pending now.'),
  overdue: Count.describe('Actions pending now and past their due_at.'),
  completion_rate: Rate.describe('Of the actions created in the window, the share completed by now; null when none was created.'),
  failure_rate: Rate.describe('failed / (completed + cancelled + failed) in the window; null when none closed.'),
};

export const ActionStatsSchema = z
  .object({
    $schema: z.string(),
    generated_at: Timestamp.describe('The clock the figures were taken at (overdue is judged against it).'),
    since: Timestamp.optional().describe('The start of the window, when one was given; otherwise the whole history kept.'),
    version: z.number().int().min(0).describe('The state version the figures are for.'),
    types: z
      .array(
        z
          .object({
            type: Name.describe('The action type id.'),
            registered: z.boolean().describe('Whether the registry in use has the type.'),
            ...ActionTypeCountsShape,
          })
          .strict(),
      )
      .describe('One row per type: the registry\'s, in its order, then unregistered ids seen in the history, sorted.'),
    totals: z.object(ActionTypeCountsShape).strict().describe('The same figures over all types.'),
  })
  .strict()
  .meta({ id: 'ActionStats', title: 'ratchet actions stats --json: creation, completion, overdue and failure figures per action type' });

export const actionTypesJsonSchema = (): Record<string, unknown> => jsonSchema(ActionTypeRegistrySchema, ACTION_TYPES_SCHEMA_URL);
/** The state document as written: the store adds `$schema` and `schemaVersion` around it. */
export const goalsStateJsonSchema = (): Record<string, unknown> => {
  const schema = jsonSchema(GoalsStateSchema, GOALS_STATE_SCHEMA_URL);
  const defs = schema.$defs as Record<string, { properties: object }>;
  const def = defs.GoalsState!;
  def.properties = { $schema: { type: 'string' }, schemaVersion: { type: 'number', const: 1 }, ...def.properties };
  return schema;
};

export const turnCommitJsonSchema = (): Record<string, unknown> => jsonSchema(TurnCommitSchema, TURN_COMMIT_SCHEMA_URL);
export const proposalJsonSchema = (): Record<string, unknown> => jsonSchema(ProposalInputSchema, PROPOSAL_SCHEMA_URL);
export const planContextJsonSchema = (): Record<string, unknown> => jsonSchema(PlanContextSchema, PLAN_CONTEXT_SCHEMA_URL);
export const planJsonSchema = (): Record<string, unknown> => jsonSchema(ParsedPlanSchema, PLAN_SCHEMA_URL);
export const proposalAmendmentJsonSchema = (): Record<string, unknown> => jsonSchema(ProposalAmendmentSchema, PROPOSAL_AMENDMENT_SCHEMA_URL);
export const actionStatsJsonSchema = (): Record<string, unknown> => jsonSchema(ActionStatsSchema, ACTION_STATS_SCHEMA_URL);

export type ActionTypeInput = z.input<typeof ActionTypeSchema>;
export type ActionTypeRegistryInput = z.input<typeof ActionTypeRegistrySchema>;
export type GoalsStateOutput = z.output<typeof GoalsStateSchema>;

// The turn trace's formats live in their own module; re-exported so `@ratchet/goals/schema` has them all.
export * from './trace/schema.js';
