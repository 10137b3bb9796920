/**
 * The gate out of SELF_CORRECTING: a task is submitted only once its post-mortem is written, its
 * lessons were extracted and each one was carried out (or handed to a person), and the compiled
 * protocols are current. Pure: the caller (the CLI, which may read the post-mortem and the lessons
 * file through @ratchet/self-correction) gathers the evidence as plain values; this package never
 * imports self-correction.
 */
import type { Session } from './types.js';

/** What the caller found on disk for this task's self-correction. */
export interface SelfCorrectionEvidence {
  /** The post-mortem file is missing. */
  postMortemMissing?: boolean | undefined;
  /** Headings of the post-mortem's sections that hold nothing but comments and blank lines. */
  emptySections: readonly string[];
  /**
   * Sections that are missing or say too little (placeholders, the template's own text, "x"): each
   * with its heading and why. Measured by the caller (@ratchet/self-correction's checkPostMortem).
   */
  thinSections?: readonly { section: string; message: string }[] | undefined;
  /** Why the post-mortem's lessons cannot be read (no lessons section, a malformed action), if so. */
  lessonsUnreadable?: string | undefined;
  /** How many lessons the post-mortem's lessons section yields. */
  lessonsInPostMortem: number;
  /** Ids of lessons the post-mortem yields that the lessons file does not hold (not extracted, or edited since). */
  notExtracted: readonly string[];
  /** Ids of this task's lessons still pending, or failed without a reason. */
  unsettled: readonly string[];
  /**
   * This task's lessons marked applied without the record `lessons apply` writes, or whose change is
   * no longer on disk, each with why.
   */
  unproven?: readonly { id: string; problem: string }[] | undefined;
  /** Set when the lessons file holds this task's lessons but no digest record (it was not written by Ratchet): why. */
  lessonsUntracked?: string | undefined;
  /** Compiled targets (AGENTS.md) stale after one of this task's lessons changed a protocol. */
  staleTargets: readonly string[];
}

/** One thing still missing, and the command (or edit) that supplies it. */
export interface SelfCorrectionGap {
  /**
   * Stable id: `postmortem-missing`, `postmortem-section-empty`, `postmortem-section-thin`, `no-lessons`,
   * `not-extracted`, `lessons-untracked`, `lessons-unsettled`, `lessons-unproven`, `agents-stale`.
   */
  code: string;
  what: string;
  command: string;
}

/** The post-mortem's gaps only: the ones that keep a task in POST_MORTEM. */
export const POST_MORTEM_GAPS: ReadonlySet<string> = new Set(['postmortem-missing', 'postmortem-section-empty', 'postmortem-section-thin']);

/** Every gap between this task and submission, in the order the steps are taken (empty: it may be submitted). */
export function selfCorrectionGaps(session: Session, evidence: SelfCorrectionEvidence): SelfCorrectionGap[] {
  const pm = session.postMortem?.path ?? `postmortems/${session.taskId}.md`;
  if (evidence.postMortemMissing) return [{ code: 'postmortem-missing', what: `${pm} is missing: the post-mortem must be filled in, not deleted`, command: `restore ${pm} and fill in every section` }];
  const gaps: SelfCorrectionGap[] = [];
  for (const heading of evidence.emptySections) gaps.push({ code: 'postmortem-section-empty', what: `${pm}: section "${heading}" is empty`, command: `write the "${heading}" section of ${pm}` });
  for (const thin of evidence.thinSections ?? []) gaps.push({ code: 'postmortem-section-thin', what: `${pm}: ${thin.message}`, command: `write the "${thin.section}" section of ${pm}` });
  if (evidence.lessonsUnreadable !== undefined) gaps.push({ code: 'no-lessons', what: `${pm}: ${evidence.lessonsUnreadable}`, command: `fix the lessons section of ${pm}` });
  else if (evidence.lessonsInPostMortem === 0) {
    gaps.push({ code: 'no-lessons', what: `${pm}: the lessons section has no **Lesson:**/**Action:** pair (an action Ratchet does not recognise is kept as a manual lesson)`, command: `write at least one lesson in ${pm}` });
  }
  if (evidence.notExtracted.length > 0) {
    gaps.push({ code: 'not-extracted', what: `${evidence.notExtracted.length} lesson(s) of ${pm} are not in the lessons file: ${evidence.notExtracted.join(', ')}`, command: `ratchet lessons extract ${pm}` });
  }
  if (evidence.lessonsUntracked !== undefined) {
    gaps.push({ code: 'lessons-untracked', what: evidence.lessonsUntracked, command: 'a person checks the file and runs `ratchet doctor --accept knowledge_core/lessons.jsonl`, or removes it and runs `ratchet lessons extract` again' });
  }
  if (evidence.unsettled.length > 0) {
    gaps.push({ code: 'lessons-unsettled', what: `lesson(s) not yet applied, failed with a reason or marked manual: ${evidence.unsettled.join(', ')}`, command: 'ratchet lessons apply' });
  }
  if ((evidence.unproven ?? []).length > 0) {
    gaps.push({
      code: 'lessons-unproven',
      what: `lesson(s) marked applied that \`ratchet lessons apply\` did not apply, or whose change is gone: ${evidence.unproven!.map((u) => `${u.id}: ${u.problem}`).join('; ')}`,
      command: 'ratchet lessons apply (a lesson is applied only there: a person restores a hand-edited lessons file with `ratchet doctor --restore knowledge_core/lessons.jsonl`; a change undone since needs a new lesson)',
    });
  }
  if (evidence.staleTargets.length > 0) {
    gaps.push({ code: 'agents-stale', what: `a lesson changed a protocol and ${evidence.staleTargets.join(', ')} is stale`, command: 'ratchet protocol compile' });
  }
  return gaps;
}

/** The self-correction steps after `task close`, in order (the directive for POST_MORTEM and SELF_CORRECTING). */
export function selfCorrectionCommands(session: Session): string[] {
  const pm = session.postMortem?.path ?? `postmortems/${session.taskId}.md`;
  return [`ratchet lessons extract ${pm}`, 'ratchet lessons apply', 'ratchet lessons list --status manual', 'ratchet protocol compile --check', `ratchet task submit --task-id ${session.taskId}`];
}
