/**
 * The data model of the seed (Frontal Cortex), as plain JSON-serialisable values: the types are the
 * zod schemas' (schema.ts, the one source of each format: it also generates the shipped JSON Schemas
 * and the precompiled ajv validators the main entry checks with). `import type` only: the main
 * entry never loads zod. A new field is typed once, in schema.ts.
 */
import type { z } from 'zod';
import type {
  AclEntrySchema,
  ActionTypeRegistrySchema,
  ActionTypeSchema,
  AuditEntrySchema,
  AuditSummarySchema,
  GoalSchema,
  GoalsStateSchema,
  ObservationSchema,
  PendingActionSchema,
  PlanRunSchema,
  QuestionSchema,
  RegistryProposalSchema,
  RegistryTrustSchema,
  StorySchema,
  TurnRecordSchema,
} from './schema.js';

/** An action type of the registry: who may own its actions, their policies, statuses (the first is where new actions start) and transitions. */
export type ActionType = z.infer<typeof ActionTypeSchema>;
export type Owner = ActionType['allowed_owners'][number];
export type DefaultPolicies = ActionType['default_policies'];
/** `after`: the ISO 8601 duration after `due_at` when the item escalates (absent: at `due_at`). */
export type EscalationPolicy = NonNullable<DefaultPolicies['escalation']>;
/** `action_types.json` / `.yaml`. */
export type ActionTypeRegistryDocument = z.infer<typeof ActionTypeRegistrySchema>;

/**
 * A long-horizon goal. `progress` is 0 to 1; `version` is the state version that last changed it;
 * the scope fields (agent_id, org_id, acl) are those of {@link Scoped}.
 */
export type Goal = z.infer<typeof GoalSchema>;
/**
 * A pending action for the agent or the user. `effort` (> 0, default 1) makes utility density
 * priority / effort; the scope fields are those of {@link Scoped}.
 */
export type PendingAction = z.infer<typeof PendingActionSchema>;
/** A guiding question. */
export type Question = z.infer<typeof QuestionSchema>;
/** A question's evolving narrative, with acceptance criteria and evidence. */
export type Story = z.infer<typeof StorySchema>;
/** A proposal to add, modify or deprecate an action type, with its reviews. */
export type RegistryProposal = z.infer<typeof RegistryProposalSchema>;
export type ProposalReview = RegistryProposal['reviewers'][number];
/** A committed turn: `digest` is the sha256 of the canonical commit payload (a replay must carry the same one). */
export type TurnRecord = z.infer<typeof TurnRecordSchema>;

/**
 * A plan under execution (seed 002, "Executor Interpretation"): its steps' progress, pinned to the
 * plan text by digest. `regeneration`: a failed step asked the planner for a new plan.
 */
export type PlanRun = z.infer<typeof PlanRunSchema>;
/**
 * One step of a plan being executed: `depends_on` the steps that must have succeeded before it
 * starts, `by` who moved it last, `criteria_met` (on success) the criteria as met and the evidence,
 * `failure` (on failure) why.
 */
export type PlanRunStep = PlanRun['steps'][number];
export type StepStatus = PlanRunStep['status'];

/**
 * A Scratch Page item: a low-commitment story or observation that expires unless acted on. `source`
 * is the tool, daemon or file that saw it; `expired` is set when expiry archived it; `promoted_to`
 * names the goal or action it became.
 */
export type Observation = z.infer<typeof ObservationSchema>;
export type ObservationStatus = Observation['status'];

/** One mutation: immutable once written. `role` is what the owner rules saw (`who` may be a name). */
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
/** One entity an audit entry changed: `before` null when it was created, `after` null when removed (only a revert removes). */
export type Change = AuditEntry['changes'][number];
export type EntityKind = Change['kind'];

/**
 * A run of audit entries compacted into one record: what happened (ops, who, entities touched,
 * per-type action counts), the evidence pointers and milestones, and, while kept, the before-image of
 * every entity it touched (`base`), which makes `from_version - 1` a revert point.
 */
export type AuditSummary = z.infer<typeof AuditSummarySchema>;
/** Per-type action counts a summary keeps of the entries it replaced (what `actionStats` needs). */
export type ActionCounts = AuditSummary['action_counts'][string];
/** A goal milestone inside a compacted range: a quarter of progress crossed, or a status reached. */
export type GoalMilestone = AuditSummary['milestones'][number];
/** An item archived inside a compacted range, with its lineage (the goal / question it served). */
export type ArchivedItem = AuditSummary['archived'][number];

/** The project's action-type registry (sha256 of its text) as a user last merged or first used it. */
export type RegistryTrust = z.infer<typeof RegistryTrustSchema>;

/**
 * `.ratchet/goals.json`: `version` is bumped by every mutation (`expected_version` is compared with
 * it); `counters` give the next number for generated ids per kind; `plans` and `observations` are
 * absent until the first one; `audit` continues after the last of `audit_summaries`.
 */
export type GoalsState = z.infer<typeof GoalsStateSchema>;

/** An access grant on a scoped item: to one agent (optionally only within an org) or to a whole org. `write` implies read. */
export type AclEntry = z.infer<typeof AclEntrySchema>;

/**
 * The access scope goals, actions and Scratch Page items carry: the agent and org they belong to,
 * and who else may read or write them. An item with neither agent_id nor org_id is visible to all.
 */
export type Scoped = Pick<Goal, 'agent_id' | 'org_id' | 'acl'>;

/**
 * Who performs a mutation: the role decides owner semantics, the name goes into the audit. Not a
 * file format (it is never written), so hand-written.
 */
export interface Actor {
  role: Owner;
  name?: string | undefined;
  /** The acting agent's id: what it sees and changes is limited to its scope (see scope.ts). */
  agent_id?: string | undefined;
  /** The acting agent's organisation (tenant). */
  org_id?: string | undefined;
}
