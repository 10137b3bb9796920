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
 *     +2 recovery: a blocked workspace in the same batch is the same task, shares a delta file, or has at
 *        least half the words of its objective (Jaccard >= 0.5; only task objectives count: FTL gives
 *        every workspace the campaign's, which made every completion a "recovery");
 *     +1 stated insight: a delivered line starting "Pattern:", "Insight:", "Lesson:", "Learned:" or
 *        "Approach:" (that line is the insight);
 *     +1 memory helped: its <memory_utilization> reports an entry that helped;
 *     +1 substantive delivery: at least 200 characters delivered;
 *     +1 real verification: a verify command other than true, :, exit 0 or echo.
 *   A routine completion (long delivery, real verify) scores 2 and is not learned. The insight is the
 *   stated one, or for a recovery its first delivered line if that says something (at least 20
 *   characters and 3 specific words: "done" teaches nothing). saved = budget x 500. The trigger is the
 *   task's objective, or, where the workspace carries the campaign's, the task's slug as words and
 *   its files ("password hash in src/password-hash.ts"): one pattern per task, not one per campaign.
 * - A failure that reads like (RELATED_SIMILARITY) a memory failure its builder reports using, or one
 *   the retry that got past it reports helped, is that failure: merged into it (`knownAs`), not
 *   stored beside it as a near-duplicate.
 * - <memory_utilization> entries become feedback (helped/failed) for the named entries, once per
 *   workspace (applyObservation records it in `observed`; each attempt at a retried task is its own
 *   workspace, `003_route#2`); `sibling-{seq}_*` and `attempt-{seq}_*` entries are ephemeral
 *   (injected="false") and skipped.
 */
import { dice, jaccard, RELATED_SIMILARITY, trigrams } from './dedup.js';
import { deriveMatch } from './derive-match.js';
import { findEntry, link } from './graph.js';
import { addFailure, addPattern, feedback, type AddResult, type FailureInput, type Outcome, type PatternInput } from './mutate.js';
import { normalizeText, tokenize } from './tokenize.js';
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
  /** The task's seq and delta (to link failures that co-occur). */
  seq: number | string;
  delta: readonly string[];
  /** The workspace of a later attempt at the same task that completed: the fix came from it. */
  fixedBy: string | undefined;
  verdict: Verdict;
  /** Whether applyObservation will try to add it (not for FALSE_POSITIVE). */
  learn: boolean;
  input: FailureInput;
  /**
   * Memory failures the retry that got past this block reports as helped: when one reads like this
   * failure (RELATED_SIMILARITY), applyObservation merges into it instead of adding a near-duplicate.
   */
  knownAs: string[];
}

export interface PatternCandidate {
  workspace: string;
  /** The blocked workspace this completion got past (a recovery): the pattern `solves` its failure. */
  solves: string | undefined;
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
  /**
   * The campaign's objective: a workspace whose objective is this one (FTL writes it into every
   * workspace) says nothing about its task. An objective shared by workspaces of different tasks
   * in the batch is taken as the campaign's too.
   */
  campaignObjective?: string | undefined;
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
  const campaignWide = campaignObjectives(records, options.campaignObjective);
  const ownObjective = (r: WorkspaceRecord): string | undefined => (campaignWide.has(normalizeText(r.objective)) || r.objective.trim() === '' ? undefined : r.objective.trim());
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
      const fixedBy = laterSuccess(records, record);
      let verdict: Verdict = 'UNVERIFIED';
      if (fixedBy !== undefined) {
        // The task's retry completed: the block was real when recorded, and re-running verify now
        // (after the fix) would pass and call it a false positive. The recorded result stands.
        verdict = 'CONFIRMED';
      } else if (options.verify !== undefined && record.verify.trim() !== '') {
        // Once per command: a retried task's attempts (and tasks sharing `npm test`) ask the same question of the same tree.
        let run = verified.get(record.verify);
        if (run === undefined) verified.set(record.verify, (run = options.verify(record.verify, { cwd: options.cwd ?? '.', timeoutMs: options.timeoutMs ?? 60_000 })));
        const outcome = await run;
        verdict = outcome.timedOut ? 'TIMEOUT' : outcome.exitCode === 0 ? 'FALSE_POSITIVE' : 'CONFIRMED';
      }
      const match = deriveMatch(first);
      failures.push({
        workspace: id,
        seq: record.seq,
        delta: record.delta,
        fixedBy: fixedBy === undefined ? undefined : workspaceId(fixedBy),
        verdict,
        learn: verdict !== 'FALSE_POSITIVE',
        knownAs: knownFailures(record, fixedBy),
        input: {
          trigger: first.trim(),
          fix:
            fixedBy !== undefined
              ? retryFix(fixedBy)
              : restText !== ''
                ? restText
                : `Task ${id} (${record.objective.trim()}) was blocked by this; read its workspace before retrying, and check with: ${record.verify}`,
          cost: budget * 1000,
          ...(match === undefined ? {} : { match }),
          source,
          tags: ['observed', verdict.toLowerCase().replace('_', '-'), ...(fixedBy === undefined ? [] : ['fixed-by-retry'])],
        },
      });
      continue;
    }
    const reasons: string[] = [];
    let score = 0;
    const own = ownObjective(record);
    const objectiveTokens = new Set(own === undefined ? [] : tokenize(own));
    const sameTask = (b: WorkspaceRecord): boolean => String(b.seq) === String(record.seq);
    const sameFiles = (b: WorkspaceRecord): boolean => b.delta.some((f) => record.delta.includes(f));
    const recovered = blocked.find((b) => sameTask(b) || sameFiles(b) || (ownObjective(b) !== undefined && sameObjective(objectiveTokens, b.objective)));
    if (recovered !== undefined) {
      score += 2;
      reasons.push(`+2 recovery: ${workspaceId(recovered)} was blocked on the same ${sameTask(recovered) ? 'task' : sameFiles(recovered) ? 'files' : 'objective'}`);
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
      solves: recovered === undefined ? undefined : workspaceId(recovered),
      score,
      reasons,
      learn: rejected === undefined,
      rejected,
      input: rejected === undefined ? { trigger: own ?? taskTrigger(record), insight, saved: budget * 500, source, tags: ['observed'] } : undefined,
    });
  }
  return { failures, patterns, feedback: feedbackList };
}

/**
 * Objectives that belong to the campaign, not to a task (normalised): the one given, and any that
 * workspaces of two different tasks share.
 */
function campaignObjectives(records: readonly WorkspaceRecord[], given: string | undefined): Set<string> {
  const out = new Set<string>();
  if (given !== undefined && given.trim() !== '') out.add(normalizeText(given));
  const seqOf = new Map<string, string>();
  for (const r of records) {
    const key = normalizeText(r.objective);
    if (key === '') continue;
    const seen = seqOf.get(key);
    if (seen === undefined) seqOf.set(key, String(r.seq));
    else if (seen !== String(r.seq)) out.add(key);
  }
  return out;
}

/**
 * The memory failures a blocked workspace may be: those its builder reports using (it met them), and
 * those the retry that got past it reports helped (their fix was the way past).
 */
function knownFailures(record: WorkspaceRecord, fixedBy: WorkspaceRecord | undefined): string[] {
  const used = [...(record.utilization ?? []), ...(fixedBy?.utilization ?? []).filter((u) => u.outcome === 'helped')];
  return [...new Set(used.filter((u) => u.type === 'failure' && !EPHEMERAL_NAME.test(u.name)).map((u) => u.name))];
}

/** A task's own words when its workspace carries only the campaign's objective: its slug and its files. */
function taskTrigger(record: WorkspaceRecord): string {
  const words = record.slug.replace(/[-_.]+/g, ' ').trim();
  return (record.delta.length === 0 ? words : `${words} in ${record.delta.join(', ')}`).slice(0, 1000);
}

/** A later attempt at the same task that completed (the retry that got past this block), if any. */
function laterSuccess(records: readonly WorkspaceRecord[], blocked: WorkspaceRecord): WorkspaceRecord | undefined {
  return records.find((r) => r.status === 'complete' && String(r.seq) === String(blocked.seq) && (r.attempt ?? 1) > (blocked.attempt ?? 1));
}

/** The fix, from what the successful retry changed: its delivery's first lines and the files it touched. */
function retryFix(success: WorkspaceRecord): string {
  const delivered = success.delivered.trim().split(/\r?\n/).slice(0, 5).join('\n').trim();
  const files = success.delta.length > 0 ? ` Files changed: ${success.delta.join(', ')}.` : '';
  return `Fixed on attempt ${success.attempt ?? 1} (${workspaceId(success)}): ${delivered === '' ? 'see its workspace' : delivered}${files}`.slice(0, 2000);
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
  /** Edges learned: a pattern `solves` the failure it got past; failures of one task or of shared files `co_occurs`. */
  links: { from: string; to: string; type: 'solves' | 'co_occurs' }[];
  feedback: (FeedbackCandidate & { applied: boolean; reason: string | undefined })[];
}

/** Link two entries unless they are one (two failures merged into one entry) or already linked that way. */
function learnLink(data: MemoryData, out: ObservationApplied, from: string, to: string, type: 'solves' | 'co_occurs'): void {
  if (from === to || findEntry(data, from)?.entry.related_typed[type]?.includes(to) === true) return;
  link(data, from, to, type);
  out.links.push({ from, to, type });
}

/** Of the named memory failures, the one whose trigger reads most like `trigger` (at least RELATED_SIMILARITY). */
function relatedEntry(data: MemoryData, trigger: string, names: readonly string[]): string | undefined {
  let best: { name: string; similarity: number } | undefined;
  const tokens = new Set(tokenize(trigger));
  const grams = trigrams(trigger);
  for (const name of names) {
    const entry = data.failures.find((e) => e.name === name);
    if (entry === undefined) continue;
    const similarity = Math.min(jaccard(tokens, new Set(tokenize(entry.trigger))), dice(grams, trigrams(entry.trigger)));
    if (similarity >= RELATED_SIMILARITY && (best === undefined || similarity > best.similarity)) best = { name, similarity };
  }
  return best?.name;
}

/** How many observed workspaces memory.json remembers (the oldest are forgotten first). */
export const MAX_OBSERVED = 5000;

/**
 * Apply an observation to memory (inside a locked update): adds through the gates (observing again
 * merges), feedback to known entries once per workspace: a workspace whose report was counted
 * before (`data.observed`, written in the same update) is not counted again.
 */
export function applyObservation(data: MemoryData, observation: Observation, options: { now: number }): ObservationApplied {
  const out: ObservationApplied = { failures: [], patterns: [], feedback: [], links: [] };
  const failureName = new Map<string, string>();
  for (const f of observation.failures) {
    if (!f.learn) continue;
    const known = relatedEntry(data, f.input.trigger, f.knownAs ?? []);
    const added = addFailure(data, known === undefined ? f.input : { ...f.input, name: known }, options);
    out.failures.push({ ...added, workspace: f.workspace, verdict: f.verdict });
    if (added.status !== 'refused') failureName.set(f.workspace, added.name);
  }
  for (const p of observation.patterns) {
    if (!p.learn || p.input === undefined) continue;
    const added = addPattern(data, p.input, options);
    out.patterns.push({ ...added, workspace: p.workspace });
    const solved = p.solves === undefined ? undefined : failureName.get(p.solves);
    if (added.status !== 'refused' && solved !== undefined) learnLink(data, out, added.name, solved, 'solves');
  }
  // Failures met by the same task (its attempts) or on the same files co-occur: meeting one, expect the other.
  const learned = observation.failures.filter((f) => failureName.has(f.workspace));
  for (let i = 0; i < learned.length; i++) {
    for (let j = i + 1; j < learned.length; j++) {
      const a = learned[i]!;
      const b = learned[j]!;
      if (String(a.seq) === String(b.seq) || a.delta.some((file) => b.delta.includes(file))) learnLink(data, out, failureName.get(a.workspace)!, failureName.get(b.workspace)!, 'co_occurs');
    }
  }
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
