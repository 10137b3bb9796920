/**
 * The campaign data model as TypeScript types (no zod at run time: the main entry must start fast).
 * The task types are derived from the zod schemas of `src/schema.ts` with `import type`.
 */
import type { z } from 'zod';
import type { LostClaimSchema, TaskSchema } from './schema.js';

/** Slugs become part of workspace file names: letters, digits, `.`, `_`, `-`; no leading dot. */
export const SLUG_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const TASK_TYPES = ['SPEC', 'BUILD', 'VERIFY'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const TASK_STATUSES = ['pending', 'in_progress', 'complete', 'blocked'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const CAMPAIGN_STATUSES = ['active', 'complete'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/**
 * One task of a campaign. `seq` is the normalised integer ("001" and 1 are the same task). Its one
 * definition is `TaskSchema` in schema.ts (each field with its description): a new task field is
 * added there and this type, `LostClaim`, the plan's `PlanTask` and the workspace record follow.
 * `import type` costs nothing at run time: the main entry still never loads zod.
 */
export type Task = z.infer<typeof TaskSchema>;

/** A leased claim that expired: its runner stopped heartbeating (crashed, hung, cut off). */
export type LostClaim = z.infer<typeof LostClaimSchema>;

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
