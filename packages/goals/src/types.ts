/**
 * The data model of the seed (Frontal Cortex), as plain JSON-serialisable values. Hand-written so
 * the main entry needs no zod; test/schema.test.ts checks they are exactly the zod schemas' types.
 */
export type Owner = 'agent' | 'user';

export interface EscalationPolicy {
  /** ISO 8601 duration after `due_at` when the item escalates (absent: at `due_at`). */
  after?: string | undefined;
  policy?: string | undefined;
}

export interface DefaultPolicies {
  requires_confirmation?: boolean | undefined;
  auto_complete?: boolean | undefined;
  blocking?: boolean | undefined;
  escalation?: EscalationPolicy | undefined;
}

export interface ActionType {
  id: string;
  display_name: string;
  description?: string | undefined;
  allowed_owners: Owner[];
  default_policies: DefaultPolicies;
  /** The first status is where new actions of this type start. */
  allowed_statuses: string[];
  allowed_transitions: Record<string, string[]>;
  policy_handlers?: { escalation?: string | undefined; completion_guard?: string | undefined } | undefined;
  deprecation_status: 'active' | 'deprecated';
}

export interface ActionTypeRegistryDocument {
  $schema?: string | undefined;
  schemaVersion?: 1 | undefined;
  action_types: ActionType[];
}

export interface Goal extends Scoped {
  id: string;
  title: string;
  description?: string | undefined;
  priority: number;
  horizon?: { days?: number | undefined; steps?: number | undefined } | undefined;
  status: 'proposed' | 'active' | 'paused' | 'achieved' | 'abandoned';
  /** 0 to 1. */
  progress: number;
  metrics: Record<string, number>;
  constraints: string[];
  parent_goal_id?: string | undefined;
  lineage_ids: string[];
  evidence_refs: string[];
  created_at: string;
  updated_at: string;
  /** The state version that last changed this goal. */
  version: number;
}

export interface PendingAction extends Scoped {
  id: string;
  type: string;
  owner: Owner;
  title: string;
  description?: string | undefined;
  priority: number;
  /** Estimated effort (> 0, default 1): utility density is priority / effort. */
  effort?: number | undefined;
  status: string;
  due_at?: string | undefined;
  goal_id?: string | undefined;
  blocking?: boolean | undefined;
  requires_confirmation?: boolean | undefined;
  confirmed_at?: string | undefined;
  confirmed_by?: string | undefined;
  escalated_at?: string | undefined;
  created_by: string;
  created_from_turn_id?: string | undefined;
  evidence_refs: string[];
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  version: number;
}

export interface Question {
  id: string;
  text: string;
  goal_id?: string | undefined;
  priority: number;
  status: 'open' | 'answered' | 'archived';
  owner?: Owner | undefined;
  tags: string[];
  created_at: string;
  updated_at: string;
  version: number;
}

export interface Story {
  id: string;
  question_id: string;
  narrative: string;
  acceptance_criteria: string[];
  evidence_refs: string[];
  status: 'draft' | 'active' | 'accepted' | 'archived';
  last_updated: string;
  version: number;
}

export interface ProposalReview {
  reviewer: string;
  decision: 'approve' | 'reject';
  comments: string;
  at: string;
}

export interface RegistryProposal {
  id: string;
  proposal_type: 'add' | 'modify' | 'deprecate';
  type_id?: string | undefined;
  display_name?: string | undefined;
  description?: string | undefined;
  diff?: string | undefined;
  allowed_owners?: Owner[] | undefined;
  suggested_policies?: DefaultPolicies | undefined;
  allowed_statuses?: string[] | undefined;
  allowed_transitions?: Record<string, string[]> | undefined;
  policy_handlers?: ActionType['policy_handlers'];
  rationale: string;
  examples: string[];
  risks: string[];
  created_by: string;
  created_from_turn_id?: string | undefined;
  status: 'open' | 'approved' | 'rejected' | 'merged';
  reviewers: ProposalReview[];
  created_at: string;
  updated_at: string;
  version: number;
}

export interface TurnRecord {
  id: string;
  /** sha256 of the canonical commit payload: a replay must carry the same one. */
  digest: string;
  version: number;
  at: string;
  by: string;
}

export type StepStatus = 'pending' | 'started' | 'succeeded' | 'failed';

/** One step of a plan being executed (seed 002, "Executor Interpretation"). */
export interface PlanRunStep {
  number: number;
  name: string;
  success_criteria: string;
  /** Steps that must have succeeded before this one starts (the plan's schedule). */
  depends_on: number[];
  status: StepStatus;
  started_at?: string | undefined;
  finished_at?: string | undefined;
  /** Who moved it last. */
  by?: string | undefined;
  /** Set on success: the criteria as they were met, and the evidence that met them. */
  criteria_met?: { criteria: string; evidence_refs: string[]; note?: string | undefined } | undefined;
  /** Set on failure: why. */
  failure?: string | undefined;
}

/** A plan under execution: its steps' progress, pinned to the plan text by digest. */
export interface PlanRun {
  id: string;
  /** sha256 of the plan text it was started from. */
  digest: string;
  source?: string | undefined;
  goal_id?: string | undefined;
  turn_id?: string | undefined;
  status: 'running' | 'succeeded' | 'failed';
  steps: PlanRunStep[];
  /** A failed step asked the planner for a new plan. */
  regeneration?: { step: number; reason: string; requested_at: string; by: string } | undefined;
  created_by: string;
  created_at: string;
  updated_at: string;
  version: number;
}

export type ObservationStatus = 'active' | 'pending_review' | 'resolved' | 'archived';

/** A Scratch Page item: a low-commitment story or observation that expires unless acted on. */
export interface Observation extends Scoped {
  id: string;
  type: 'story' | 'observation' | 'insight' | 'alert';
  content: string;
  /** The tool, daemon or file that saw it. */
  source: string;
  owner: Owner;
  status: ObservationStatus;
  /** 0 to 1. */
  confidence: number;
  tags: string[];
  expires_at: string;
  /** Set when expiry archived it. */
  expired?: boolean | undefined;
  /** The goal or action it became. */
  promoted_to?: { kind: 'goal' | 'action'; id: string } | undefined;
  reviewed_by?: string | undefined;
  review_note?: string | undefined;
  created_by: string;
  created_at: string;
  updated_at: string;
  version: number;
}

export type EntityKind = 'goal' | 'action' | 'question' | 'story' | 'proposal' | 'turn' | 'plan' | 'observation';

export interface Change {
  kind: EntityKind;
  id: string;
  /** The entity before the mutation (null: it was created). */
  before: Record<string, unknown> | null;
  /** The entity after the mutation (null: it was removed, which only a revert does). */
  after: Record<string, unknown> | null;
}

/** One mutation: immutable once written. */
export interface AuditEntry {
  version: number;
  previous_version: number;
  who: string;
  /** The actor's role: `who` may be a name, this is what the owner rules saw. */
  role?: Owner | undefined;
  at: string;
  op: string;
  turn_id?: string | undefined;
  reverted_to?: number | undefined;
  changes: Change[];
  /** The acting agent's scope, when it had one (access scopes). */
  agent_id?: string | undefined;
  org_id?: string | undefined;
}

export interface GoalsState {
  /** Bumped by every mutation; `expected_version` is compared with it. */
  version: number;
  /** Next number for generated ids, per kind (g1, a1, q1, s1, p1). */
  counters: Record<string, number>;
  goals: Goal[];
  actions: PendingAction[];
  questions: Question[];
  stories: Story[];
  proposals: RegistryProposal[];
  turns: TurnRecord[];
  /** Plans under execution (absent until the first one starts). */
  plans?: PlanRun[] | undefined;
  /** The Scratch Page (absent until the first item). */
  observations?: Observation[] | undefined;
  audit: AuditEntry[];
  /** The digest (sha256 of the text) of the project's registry as a user last merged or first used it. */
  registry_trust?: RegistryTrust | undefined;
  /** Older audit entries compacted into summaries (oldest first); `audit` continues after the last one. */
  audit_summaries?: AuditSummary[] | undefined;
}

/** Per-type action counts a summary keeps of the entries it replaced (what `actionStats` needs). */
export interface ActionCounts {
  created: number;
  completed: number;
  cancelled: number;
  failed: number;
  escalated: number;
  coerced: number;
}

/** A goal milestone inside a compacted range: a quarter of progress crossed, or a status reached. */
export interface GoalMilestone {
  goal_id: string;
  version: number;
  at: string;
  title: string;
  status: string;
  progress: number;
  evidence_refs: string[];
}

/** An item archived inside a compacted range, with its lineage (the goal / question it served). */
export interface ArchivedItem {
  kind: 'question' | 'story' | 'observation';
  id: string;
  version: number;
  at: string;
  goal_id?: string | undefined;
  question_id?: string | undefined;
  promoted_to?: { kind: 'goal' | 'action'; id: string } | undefined;
}

/**
 * A run of audit entries compacted into one record: what happened (ops, who, entities touched,
 * per-type action counts), the evidence pointers and milestones, and, while kept, the before-image of
 * every entity it touched, which makes `from_version - 1` a revert point.
 */
export interface AuditSummary {
  from_version: number;
  to_version: number;
  from_at: string;
  to_at: string;
  entries: number;
  ops: Record<string, number>;
  who: Record<string, number>;
  /** Distinct entities changed, per kind. */
  changed: Record<string, number>;
  evidence_refs: string[];
  /** Evidence pointers left out past the cap. */
  evidence_dropped?: number | undefined;
  action_counts: Record<string, ActionCounts>;
  milestones: GoalMilestone[];
  archived: ArchivedItem[];
  /** The version this summary lets a revert go back to (from_version - 1), while `base` is kept. */
  revert_point?: number | undefined;
  /** The before-image of every entity the range changed, at its first change (null: created in the range). */
  base?: { kind: EntityKind; id: string; image: Record<string, unknown> | null }[] | undefined;
  /** A proposal merged in the range: nobody reverts across it. */
  merge_version?: number | undefined;
  /** Why the agent may not revert across the range (it holds the user's confirmations, reviews or moves). */
  agent_revert_refused?: string | undefined;
  compacted_at: string;
  compacted_by: string;
}

export interface RegistryTrust {
  digest: string;
  at: string;
  by: string;
}

/** Who performs a mutation: the role decides owner semantics, the name goes into the audit. */
export interface Actor {
  role: Owner;
  name?: string | undefined;
  /** The acting agent's id: what it sees and changes is limited to its scope (see scope.ts). */
  agent_id?: string | undefined;
  /** The acting agent's organisation (tenant). */
  org_id?: string | undefined;
}

/** An access grant on a scoped item: to one agent (optionally only within an org) or to a whole org. */
export interface AclEntry {
  agent_id?: string | undefined;
  org_id?: string | undefined;
  /** write implies read. */
  access: 'read' | 'write';
}

/**
 * The access scope goals, actions and Scratch Page items carry: the agent and org they belong to,
 * and who else may read or write them. An item with neither agent_id nor org_id is visible to all.
 */
export interface Scoped {
  agent_id?: string | undefined;
  org_id?: string | undefined;
  acl?: AclEntry[] | undefined;
}
