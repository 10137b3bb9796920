/**
 * The campaign data model as plain TypeScript types (no zod: the main entry must start fast).
 * `src/schema.ts` holds the zod schema these types mirror; a test proves they agree.
 */

/** Slugs become part of workspace file names: letters, digits, `.`, `_`, `-`; no leading dot. */
export const SLUG_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const TASK_TYPES = ['SPEC', 'BUILD', 'VERIFY'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const TASK_STATUSES = ['pending', 'in_progress', 'complete', 'blocked'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const CAMPAIGN_STATUSES = ['active', 'complete'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** One task of a campaign. `seq` is the normalised integer ("001" and 1 are the same task). */
export interface Task {
  seq: number;
  slug: string;
  type: TaskType;
  /** What the task is about (the workspace's objective); the campaign objective when absent. */
  description?: string;
  /** Project-relative files the task may change. */
  delta: string[];
  /** The command that proves the task done. */
  verify: string;
  budget?: number;
  preflight?: string[];
  /** Seqs this task waits for, sorted, no duplicates. */
  depends: number[];
  status: TaskStatus;
  /** Who claimed it (`ready --claim RUNNER`). */
  runner?: string;
  /** Why it is blocked (or the note given with the last update). */
  reason?: string;
  /** Direct parents that made it unreachable (set by propagate-blocks). */
  blockedBy?: number[];
  /** The originally failed task this block cascades from (set by propagate-blocks). */
  rootCause?: number;
  /** True when the block was propagated from a parent, false/absent for an original failure. */
  cascade?: boolean;
  updatedAt?: string;
  /**
   * How many times the task went back to pending after it was claimed or blocked (release, retry).
   * Names its current item in the claim queue (`<seq>` for round 0, `<seq>.<round>` after), so a
   * task given back is offered again as a new item while the old one can never be claimed twice.
   */
  round?: number;
  /** The claim-queue item of the current leased claim (`ready --claim R --lease 15m`); absent without a lease. */
  claimItem?: string;
  /** Leased claims that expired before their runner finished: another runner took the task over. */
  lostAttempts?: LostClaim[];
}

/** A leased claim that expired: its runner stopped heartbeating (crashed, hung, cut off). */
export interface LostClaim {
  runner: string;
  /** 1 for the task's first claim. */
  attempt: number;
  /** When the lease ran out (ISO-8601, the backend's clock). */
  leaseUntil: string;
  /** When another claim took the task over (ISO-8601). */
  recoveredAt: string;
}

export interface Idioms {
  required: string[];
  forbidden: string[];
}

/** FTL's campaign phases (phase.ts holds the machine). */
export type CampaignPhase = 'EXPLORE' | 'PLAN' | 'BUILD' | 'OBSERVE' | 'COMPLETE';
export type PhaseEventName = 'explored' | 'planned' | 'resumed' | 'observed' | 'skip_observe' | 'complete';

/** One phase change, as logged in `phaseLog`. `inferred`: an old campaign's phase, guessed on read. */
export interface PhaseEvent {
  event: PhaseEventName | 'inferred';
  from: CampaignPhase | null;
  to: CampaignPhase;
  at: string;
  /** Why (required for skip_observe). */
  reason?: string;
}

/** `.ratchet/campaign.json` without the store's `$schema`/`schemaVersion` envelope. */
export interface Campaign {
  /** Stable id: creation time and objective slug; names the archive entry. */
  id: string;
  objective: string;
  framework: string | null;
  idioms: Idioms;
  createdAt: string;
  status: CampaignStatus;
  tasks: Task[];
  /** The FTL phase; absent in campaigns written before phases (inferred on read, see phase.ts). */
  phase?: CampaignPhase;
  /** Every phase change, oldest first (at most MAX_PHASE_LOG). */
  phaseLog?: PhaseEvent[];
}

/** The cascade states, as FTL names them. */
export type CascadeState = 'none' | 'complete' | 'in_progress' | 'stuck' | 'all_blocked';

export interface UnreachableTask {
  seq: number;
  /** Direct parents that are blocked or themselves unreachable. */
  blockedBy: number[];
  /** The original failure (smallest seq among the blocking roots reached through the parents). */
  rootCause: number;
}

export interface CascadeStatus {
  state: CascadeState;
  ready: number[];
  pending: number[];
  inProgress: number[];
  complete: number[];
  blocked: number[];
  /** Pending tasks with a blocked ancestor, at any distance (FTL only looked at direct parents). */
  unreachable: UnreachableTask[];
}

/** A clock, injected so the core stays deterministic. */
export type Clock = () => Date;
