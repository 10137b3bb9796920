/**
 * Typed errors. The library never prints or exits; the CLI maps `code` to an exit status and shows
 * `path:line:column: reason` (the fields match @ratchet/store's errors so the CLI's duck typing fits).
 */

export type CampaignErrorCode =
  | 'invalid-plan'
  | 'no-campaign'
  | 'campaign-exists'
  | 'unknown-task'
  | 'illegal-transition'
  | 'not-ready'
  | 'tasks-in-progress'
  | 'outside-root'
  | 'invalid-argument'
  | 'workspace-exists'
  | 'no-workspace'
  | 'invalid-workspace'
  | 'lease-lost'
  | 'not-holder';

export interface PlanProblem {
  /** Stable rule id: `invalid` (shape), `duplicate-seq`, `unknown-dependency`, `self-dependency`, `duplicate-dependency`, `cycle`, `unsafe-path`. */
  rule: PlanRule;
  message: string;
  /** RFC 6901 pointer into the plan. */
  pointer: string;
  line?: number;
  column?: number;
  /** For `cycle`: the seqs along the cycle, first repeated at the end. */
  cycle?: number[];
}

export type PlanRule = 'invalid' | 'unsafe-path' | 'duplicate-seq' | 'unknown-dependency' | 'self-dependency' | 'duplicate-dependency' | 'cycle';

/** Rules that mean "the graph is wrong" (the CLI exits 1), as opposed to malformed input (exit 2). */
export const GRAPH_RULES: ReadonlySet<PlanRule> = new Set(['duplicate-seq', 'unknown-dependency', 'self-dependency', 'duplicate-dependency', 'cycle']);

export class CampaignError extends Error {
  readonly code: CampaignErrorCode;
  /** The message without the path prefix. */
  readonly reason: string;
  readonly path: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly pointer: string | undefined;

  constructor(code: CampaignErrorCode, reason: string, place: { path?: string; line?: number; column?: number; pointer?: string; cause?: unknown } = {}) {
    super(place.path === undefined ? reason : `${place.path}: ${reason}`, place.cause === undefined ? undefined : { cause: place.cause });
    this.name = 'CampaignError';
    this.code = code;
    this.reason = reason;
    this.path = place.path;
    this.line = place.line;
    this.column = place.column;
    this.pointer = place.pointer;
  }
}

/** A plan refused by add-tasks: every problem at once, each with its place. */
export class PlanError extends CampaignError {
  readonly problems: PlanProblem[];
  /** True when every problem is a graph problem (cycle, unknown/self/duplicate dependency, duplicate seq). */
  readonly graphOnly: boolean;

  constructor(problems: PlanProblem[], path?: string) {
    const first = problems[0];
    const reason = `${problems.length} problem${problems.length === 1 ? '' : 's'} in the plan${first ? `; first: ${first.message}` : ''}`;
    super('invalid-plan', reason, { ...(path === undefined ? {} : { path }), ...(first?.line === undefined ? {} : { line: first.line }), ...(first?.column === undefined ? {} : { column: first.column }), ...(first ? { pointer: first.pointer } : {}) });
    this.name = 'PlanError';
    this.problems = problems;
    this.graphOnly = problems.every((p) => GRAPH_RULES.has(p.rule));
  }
}
