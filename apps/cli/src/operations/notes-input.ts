/**
 * The inputs of the notes operations (src/operations/notes.ts): questions, stories, the Scratch
 * Page and action-type proposals, kept in the goals state. Apart from the operations so that their
 * declarations import no library type.
 */
import type { GoalsLocation, OwnerName, Versioned } from './goals-input.js';

/** A write to the goals state: where it is, who acts, and optimistic locking. */
export interface GoalsWriteInput extends GoalsLocation, Versioned {}

export interface QuestionAddInput extends GoalsWriteInput {
  /** The question; required for a new one. */
  text?: string | undefined;
  /** An existing question to change only the fields given (default for a new one: q1, q2, ...). */
  id?: string | undefined;
  goal?: string | undefined;
  priority?: number | undefined;
  status?: 'open' | 'answered' | 'archived' | undefined;
  owner?: OwnerName | undefined;
  /** Tags to add. */
  tags?: string[] | undefined;
}

export interface StoryUpdateInput extends GoalsWriteInput {
  id?: string | undefined;
  /** The question it answers (creates its story if it has none). */
  question?: string | undefined;
  narrative?: string | undefined;
  /** Acceptance criteria to add. */
  criteria?: string[] | undefined;
  /** Evidence references to add. */
  evidence?: string[] | undefined;
  status?: 'draft' | 'active' | 'accepted' | 'archived' | undefined;
}

/** A Scratch Page write: its clock decides expiry. */
export interface ScratchWriteInput extends GoalsWriteInput {
  /** The clock, ISO 8601 (default now). */
  now?: string | undefined;
}

export interface ScratchAddInput extends ScratchWriteInput {
  content: string;
  /** The tool, daemon or file that saw it. */
  source: string;
  id?: string | undefined;
  type?: 'observation' | 'story' | 'insight' | 'alert' | undefined;
  owner?: OwnerName | undefined;
  /** 0 to 1 (default 0.5). */
  confidence?: number | undefined;
  tags?: string[] | undefined;
  /** Time to live, an ISO 8601 duration (default P7D). */
  ttl?: string | undefined;
  /** Expiry time instead of a ttl (ISO 8601). */
  expires?: string | undefined;
}

export const SCRATCH_REVIEW_STATUSES = ['active', 'pending_review', 'resolved'] as const;

export interface ScratchReviewInput extends ScratchWriteInput {
  id: string;
  status: (typeof SCRATCH_REVIEW_STATUSES)[number];
  note?: string | undefined;
}

export interface ScratchPromoteInput extends ScratchWriteInput {
  id: string;
  to: 'goal' | 'action';
  /** Default: the observation's content. */
  title?: string | undefined;
  /** For an action (default agent_task). */
  actionType?: string | undefined;
  priority?: number | undefined;
  /** For an action: the goal it serves. */
  goal?: string | undefined;
}

export interface ScratchArchiveInput extends ScratchWriteInput {
  id: string;
}

export type ScratchExpireInput = ScratchWriteInput;

/** Where a proposal's JSON comes from: a file in the project, standard input ("-"), or the text itself. */
export type ProposalSource = { file: string } | { text: string };

/** A proposal move during a turn is an event in its trace (the goals commands' --traces, --trace-config, --now). */
export interface ProposalWriteInput extends GoalsWriteInput {
  traces?: string | undefined;
  traceConfig?: string | undefined;
  now?: string | undefined;
}

export interface ProposalSubmitInput extends ProposalWriteInput {
  /** The proposal JSON ({proposal_type, type_id, ...}); the fields below override it. */
  source?: ProposalSource | undefined;
  kind?: 'add' | 'modify' | 'deprecate' | undefined;
  typeId?: string | undefined;
  rationale?: string | undefined;
}

export interface ProposalAmendInput extends ProposalWriteInput {
  id: string;
  /** The amendment JSON: the fields it gives replace the proposal's. */
  source?: ProposalSource | undefined;
  typeId?: string | undefined;
  rationale?: string | undefined;
}
