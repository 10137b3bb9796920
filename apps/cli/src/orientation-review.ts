/**
 * How `ratchet task start` tells what orientation level 2 found the last tasks left: one line each
 * for the last post-mortem, the lessons waiting, the open code suggestions. A line says "none"
 * outright when there is nothing, so an agent can tell "reviewed, nothing there" from "not reviewed".
 */
import type { OrientationReport } from '@ratchet/orchestrator';

type Review = OrientationReport['level2']['review'];

/** At most this many ids per line; the report file has them all. */
const SHOWN = 5;

export function reviewLines(review: Review): string[] {
  const pm = review.lastPostMortem;
  const postMortem =
    pm === null
      ? 'none (no postmortems/*.md)'
      : `${pm.path}${pm.outcome !== undefined ? ` (${pm.outcome})` : ''}: ${pm.summary ?? 'its Summary is not written yet'}`;
  const ids = (refs: readonly { id: string }[]): string => `${refs.slice(0, SHOWN).map((r) => r.id).join(', ')}${refs.length > SHOWN ? `, +${refs.length - SHOWN} more` : ''}`;
  const waiting = [
    ...(review.pendingLessons.length > 0 ? [`${review.pendingLessons.length} pending (${ids(review.pendingLessons)}): run \`ratchet lessons apply\``] : []),
    ...(review.manualLessons.length > 0 ? [`${review.manualLessons.length} manual (${ids(review.manualLessons)}): for a person, \`ratchet lessons resolve\``] : []),
  ];
  const open = review.openSuggestions;
  const suggestions =
    open.length === 0
      ? 'none open'
      : `${open.length} open: ${open
          .slice(0, SHOWN)
          .map((s) => `${s.plan} (changes ${s.file})`)
          .join(', ')}${open.length > SHOWN ? `, +${open.length - SHOWN} more` : ''}`;
  return [
    `  L2 post-mortem  ${postMortem}`,
    `  L2 lessons      ${waiting.length > 0 ? waiting.join('; ') : 'none pending or manual'}`,
    `  L2 suggestions  ${suggestions}`,
    ...(review.errors.length > 0 ? [`  L2 unreadable   ${review.errors.join('; ')}`] : []),
  ];
}

/** The review in the TASK_START log entry: names, not text. */
export function reviewDetails(review: Review): Record<string, unknown> {
  return {
    lastPostMortem: review.lastPostMortem?.path ?? null,
    pendingLessons: review.pendingLessons.map((l) => l.id),
    manualLessons: review.manualLessons.map((l) => l.id),
    openSuggestions: review.openSuggestions.map((s) => s.plan),
  };
}
