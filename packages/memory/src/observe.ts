/**
 * Learning from finished workspaces (FTL's observer), as data in, candidates out.
 *
 * - A blocked workspace becomes a failure candidate: trigger = the first line of its block reason,
 *   fix = the rest of the reason (or a pointer to the workspace), cost = budget x 1000. With a
 *   verify runner, its verify command is re-run: still failing (non-zero exit) = CONFIRMED, now
 *   passing = FALSE_POSITIVE (not learned: the block was not real), killed by the timeout = TIMEOUT
 *   (learned, flagged); each distinct command runs once per observation. Without a runner the
 *   verdict is UNVERIFIED (learned, flagged).
 * - A completed workspace becomes a pattern candidate only if it scores at least 3 points AND has an
 *   insight to store (FTL's rule passed nearly every completion):
 *     +2 recovery: a blocked workspace in the same batch shares a delta file, or at least half the words
 *        of the two objectives (Jaccard >= 0.5): this completion got past something that failed;
 *     +1 stated insight: a delivered line starting "Pattern:", "Insight:", "Lesson:", "Learned:" or
 *        "Approach:" (that line is the insight);
 *     +1 memory helped: its <memory_utilization> reports an entry that helped;
 *     +1 substantive delivery: at least 200 characters delivered;
 *     +1 real verification: a verify command other than true, :, exit 0 or echo.
 *   A routine completion (long delivery, real verify) scores 2 and is not learned. The insight is the
 *   stated one, or for a recovery its first delivered line if that says something (at least 20
 *   characters and 3 specific words: "done" teaches nothing). saved = budget x 500.
 * - <memory_utilization> entries become feedback (helped/failed) for the named entries, once per
 *   workspace (applyObservation records it in `observed`; each attempt at a retried task is its own
 *   workspace, `003_route#2`); `sibling-{seq}_*` and `attempt-{seq}_*` entries are ephemeral
 *   (injected="false") and skipped.
 */
import { jaccard } from './dedup.js';
import { findEntry } from './graph.js';
import { addFailure, addPattern, feedback, type AddResult, type FailureInput, type Outcome, type PatternInput } from './mutate.js';
import { tokenize } from './tokenize.js';
import type { MemoryData } from './types.js';
import type { VerifyRunner } from './verify.js';

export interface UtilizationRecord {
  name: string;
  type: 'failure' | 'pattern';
  outcome: Outcome;
}

/** One finished workspace, as campaign-dag's reader gives it (the CLI converts). */
export interface WorkspaceRecord {
  seq: number | string;
  slug: string;
  /**
   * Which attempt at the task (a retried task's new workspace is attempt 2, ...); absent or 1 for the
   * first. Part of the workspace id, so each attempt's report is counted once, and the first
   * attempt keeps the id it had before the task was retried.
   */
  attempt?: number | undefined;
  status: 'complete' | 'blocked';
  objective: string;
  delta: readonly string[];
  verify: string;
  /** Builder budget (FTL: 3 to 7); default 5. */
  budget?: number | undefined;
  /** The <delivered> text: the work done, or "BLOCKED: reason". */
  delivered: string;
  /** A separate failure text, if the reader has one (else the BLOCKED: line of delivered is used). */
  failure?: string | undefined;
  utilization?: readonly UtilizationRecord[] | undefined;
}

export type Verdict = 'CONFIRMED' | 'FALSE_POSITIVE' | 'TIMEOUT' | 'UNVERIFIED';

export interface FailureCandidate {
  workspace: string;
  verdict: Verdict;
  /** Whether applyObservation will try to add it (not for FALSE_POSITIVE). */
  learn: boolean;
  input: FailureInput;
}

export interface PatternCandidate {
  workspace: string;
  score: number;
  reasons: string[];
  learn: boolean;
  /** Why not, when learn is false. */
  rejected: string | undefined;
  input: PatternInput | undefined;
}

export interface FeedbackCandidate {
  workspace: string;
  /** `campaign/workspace`: applied once per workspace (see `MemoryData.observed`). */
  source: string;
  name: string;
  outcome: Outcome;
}

export interface Observation {
  failures: FailureCandidate[];
  patterns: PatternCandidate[];
  feedback: FeedbackCandidate[];
}

export interface ObserveOptions {
  /** Campaign name, recorded in each entry's source. */
  campaign: string;
  /** Re-run blocked workspaces' verify commands with this (only when a human asked: --verify). */
  verify?: VerifyRunner | undefined;
  /** Per command (default 60 s). */
  timeoutMs?: number | undefined;
  /** Directory the verify commands run in. */
  cwd?: string | undefined;
}

export const PATTERN_MIN_SCORE = 3;
const DEFAULT_BUDGET = 5;
const INSIGHT_MARKER = /^\s*(?:[-*]\s*)?(pattern|insight|lesson|learned|approach)\s*:\s*(.+)$/im;
/**
 * Failures a workspace carries that memory never stored: `sibling-003_route_blocked` (another task's
 * block) and `attempt-003_route_blocked.1` (this task's earlier attempt). The seq and underscore keep
 * names derived from triggers (never an underscore) such as `attempt-to-import` out of it.
 */
const EPHEMERAL_NAME = /^(?:sibling|attempt)-\d{1,9}_/;
const TRIVIAL_VERIFY = /^\s*(?:true|:|exit\s+0|echo\b.*)?\s*$/i;

/** `003_route`, and `003_route#2` for the second attempt at the task. */
export function workspaceId(record: WorkspaceRecord): string {
  const seq = typeof record.seq === 'number' ? String(record.seq).padStart(3, '0') : record.seq;
  return `${seq}_${record.slug}${record.attempt !== undefined && record.attempt > 1 ? `#${record.attempt}` : ''}`;
}

/** The block reason: the failure text, else delivered without its "BLOCKED:" prefix. */
export function blockReason(record: WorkspaceRecord): string {
  const text = record.failure !== undefined && record.failure.trim() !== '' ? record.failure : record.delivered;
  const at = text.indexOf('BLOCKED:');
  return (at >= 0 ? text.slice(at + 'BLOCKED:'.length) : text).trim();
}

export async function observe(records: readonly WorkspaceRecord[], options: ObserveOptions): Promise<Observation> {
  const failures: FailureCandidate[] = [];
  const patterns: PatternCandidate[] = [];
  const feedbackList: FeedbackCandidate[] = [];
  const blocked = records.filter((r) => r.status === 'blocked');
  const verified = new Map<string, ReturnType<VerifyRunner>>();
  for (const record of records) {
    const id = workspaceId(record);
    const source = [`${options.campaign}/${id}`];
    const budget = record.budget ?? DEFAULT_BUDGET;
    for (const u of record.utilization ?? []) {
      if (EPHEMERAL_NAME.test(u.name)) continue;
      feedbackList.push({ workspace: id, source: source[0]!, name: u.name, outcome: u.outcome });
    }
    if (record.status === 'blocked') {
      const reason = blockReason(record);
      const [first = '', ...rest] = reason.split(/\r?\n/);
      const restText = rest.join('\n').trim();
      let verdict: Verdict = 'UNVERIFIED';
      if (options.verify !== undefined && record.verify.trim() !== '') {
        // Once per command: a retried task's attempts (and tasks sharing `npm test`) ask the same question of the same tree.
        let run = verified.get(record.verify);
        if (run === undefined) verified.set(record.verify, (run = options.verify(record.verify, { cwd: options.cwd ?? '.', timeoutMs: options.timeoutMs ?? 60_000 })));
        const outcome = await run;
        verdict = outcome.timedOut ? 'TIMEOUT' : outcome.exitCode === 0 ? 'FALSE_POSITIVE' : 'CONFIRMED';
      }
      failures.push({
        workspace: id,
        verdict,
        learn: verdict !== 'FALSE_POSITIVE',
        input: {
          trigger: first.trim(),
          fix: restText !== '' ? restText : `Task ${id} (${record.objective.trim()}) was blocked by this; read its workspace before retrying, and check with: ${record.verify}`,
          cost: budget * 1000,
          source,
          tags: ['observed', verdict.toLowerCase().replace('_', '-')],
        },
      });
      continue;
    }
    const reasons: string[] = [];
    let score = 0;
    const objectiveTokens = new Set(tokenize(record.objective));
    const recovered = blocked.find((b) => b.delta.some((f) => record.delta.includes(f)) || sameObjective(objectiveTokens, b.objective));
    if (recovered !== undefined) {
      score += 2;
      reasons.push(`+2 recovery: ${workspaceId(recovered)} was blocked on the same ${recovered.delta.some((f) => record.delta.includes(f)) ? 'files' : 'objective'}`);
    }
    const marker = INSIGHT_MARKER.exec(record.delivered);
    if (marker !== null) {
      score += 1;
      reasons.push(`+1 stated insight (${marker[1]!.toLowerCase()}:)`);
    }
    if ((record.utilization ?? []).some((u) => u.outcome === 'helped')) {
      score += 1;
      reasons.push('+1 memory helped');
    }
    if (record.delivered.trim().length >= 200) {
      score += 1;
      reasons.push('+1 substantive delivery');
    }
    if (!TRIVIAL_VERIFY.test(record.verify)) {
      score += 1;
      reasons.push('+1 real verification');
    }
    const firstLine = (record.delivered.trim().split(/\r?\n/)[0] ?? '').trim();
    const insight = marker !== null ? marker[2]!.trim() : recovered !== undefined && saysSomething(firstLine) ? firstLine : '';
    let rejected: string | undefined;
    if (score < PATTERN_MIN_SCORE) rejected = `score ${score} < ${PATTERN_MIN_SCORE}`;
    else if (insight === '') rejected = recovered === undefined ? 'no insight to store (no "Pattern:"/"Insight:" line and not a recovery)' : `no insight to store (no "Pattern:"/"Insight:" line, and the first delivered line ${JSON.stringify(firstLine.slice(0, 60))} is too thin to teach anything)`;
    patterns.push({
      workspace: id,
      score,
      reasons,
      learn: rejected === undefined,
      rejected,
      input: rejected === undefined ? { trigger: record.objective.trim(), insight, saved: budget * 500, source, tags: ['observed'] } : undefined,
    });
  }
  return { failures, patterns, feedback: feedbackList };
}

/** At least half the words of the two objectives in common (Jaccard >= 0.5); never for empty objectives. */
function sameObjective(tokens: Set<string>, other: string): boolean {
  const theirs = new Set(tokenize(other));
  return tokens.size > 0 && theirs.size > 0 && jaccard(tokens, theirs) >= 0.5;
}

/** A delivered line worth storing as an insight: at least 20 characters and 3 distinct specific words. */
function saysSomething(line: string): boolean {
  return line.length >= 20 && new Set(tokenize(line)).size >= 3;
}

export interface ObservationApplied {
  failures: (AddResult & { workspace: string; verdict: Verdict })[];
  patterns: (AddResult & { workspace: string })[];
  feedback: (FeedbackCandidate & { applied: boolean; reason: string | undefined })[];
}

/** How many observed workspaces memory.json remembers (the oldest are forgotten first). */
export const MAX_OBSERVED = 5000;

/**
 * Apply an observation to memory (inside a locked update): adds through the gates (observing again
 * merges), feedback to known entries once per workspace: a workspace whose report was counted
 * before (`data.observed`, written in the same update) is not counted again.
 */
export function applyObservation(data: MemoryData, observation: Observation, options: { now: number }): ObservationApplied {
  const out: ObservationApplied = { failures: [], patterns: [], feedback: [] };
  for (const f of observation.failures) if (f.learn) out.failures.push({ ...addFailure(data, f.input, options), workspace: f.workspace, verdict: f.verdict });
  for (const p of observation.patterns) if (p.learn && p.input !== undefined) out.patterns.push({ ...addPattern(data, p.input, options), workspace: p.workspace });
  const before = new Set(data.observed ?? []);
  const counted: string[] = [];
  for (const fb of observation.feedback) {
    if (before.has(fb.source)) {
      out.feedback.push({ ...fb, applied: false, reason: 'already counted when this workspace was observed before' });
      continue;
    }
    if (!counted.includes(fb.source)) counted.push(fb.source);
    if (findEntry(data, fb.name) === undefined) {
      out.feedback.push({ ...fb, applied: false, reason: 'no such entry in memory' });
      continue;
    }
    feedback(data, fb.name, fb.outcome, options.now);
    out.feedback.push({ ...fb, applied: true, reason: undefined });
  }
  if (counted.length > 0) data.observed = [...(data.observed ?? []), ...counted].slice(-MAX_OBSERVED);
  return out;
}
