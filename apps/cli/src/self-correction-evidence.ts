/**
 * Where the orchestrator meets self-correction: reads this task's post-mortem and the lessons file
 * (through @ratchet/self-correction) and hands the orchestrator's gate (`selfCorrectionGaps`) plain
 * values. What it gathers is substance, not form: every template section saying something of its own
 * (`checkPostMortem`), every lesson with a real insight and action (`extractLessons`, strict), the
 * lessons file written by Ratchet (a digest record; a hand edit is refused by the read itself), each
 * applied lesson with the record `lessons apply` wrote and its change still on disk
 * (`verifyApplied`), and, when a lesson changed a protocol, the compiled targets current. Neither
 * package imports the other; the CLI composes them here.
 */
import { resolve } from 'node:path';
import type { SelfCorrectionEvidence, Session } from '@ratchet/orchestrator';
import { LESSONS_PATH, LessonsError, checkPostMortem, extractLessons, readLessons, verifyApplied } from '@ratchet/self-correction';
import { NotFoundError, readTextFile } from '@ratchet/store';
import { compileTargets } from './commands/protocol/shared.js';
import type { Context } from './context.js';
import { displayPath } from './paths.js';

export async function selfCorrectionEvidence(ctx: Context, session: Session): Promise<SelfCorrectionEvidence> {
  const pmPath = session.postMortem?.path ?? `postmortems/${session.taskId}.md`;
  const none: SelfCorrectionEvidence = { emptySections: [], lessonsInPostMortem: 0, notExtracted: [], unsettled: [], staleTargets: [] };
  let text: string;
  try {
    text = (await readTextFile(resolve(ctx.cwd, pmPath), { maxBytes: 1024 * 1024 })).text;
  } catch (err) {
    if (err instanceof NotFoundError) return { ...none, postMortemMissing: true };
    throw err;
  }
  const sections = checkPostMortem(text);

  let ids: string[] = [];
  let lessonsUnreadable: string | undefined;
  try {
    // Strict: a submitted task's every lesson needs an insight and an action that say something.
    ids = extractLessons(text, { path: pmPath, now: new Date().toISOString(), strict: true }).lessons.map((l) => l.lesson_id);
  } catch (err) {
    if (!(err instanceof LessonsError)) throw err;
    const all = err.diagnostics ?? [{ message: err.reason, line: err.line }];
    lessonsUnreadable = all.map((d) => `${d.line !== undefined ? `line ${d.line}: ` : ''}${d.message}`).join('; ');
  }

  // A lessons file edited by hand is refused here (TamperedError, exit 2, naming the file).
  const file = await readLessons(resolve(ctx.cwd, LESSONS_PATH));
  const known = new Map(file.lessons.map((l) => [l.lesson_id, l]));
  const mine = ids.flatMap((id) => known.get(id) ?? []);
  const unsettled = mine.filter((l) => l.status === 'pending' || (l.status === 'failed' && !l.history.at(-1)?.reason)).map((l) => l.lesson_id);
  const lessonsUntracked =
    mine.length > 0 && file.tracked !== true
      ? `${LESSONS_PATH} holds this task's lessons but no digest record: Ratchet did not write it (or its record was removed), so its statuses cannot be trusted`
      : undefined;
  const unproven = (await verifyApplied(mine, { root: ctx.cwd, protocolsDir: resolve(ctx.cwd, 'protocols'), schemaRoot: ctx.cwd })).map((u) => ({ id: u.lessonId, problem: u.problem }));

  const staleTargets: string[] = [];
  if (mine.some((l) => l.status === 'applied' && l.action.type === 'UPDATE_PROTOCOL')) {
    const result = await compileTargets(ctx, { check: true });
    for (const t of result.targets) if (t.status !== 'unchanged') staleTargets.push(displayPath(ctx, t.path));
  }

  return {
    emptySections: sections.filter((p) => p.code === 'section-empty').map((p) => p.section),
    thinSections: sections.filter((p) => p.code !== 'section-empty').map((p) => ({ section: p.section, message: p.message })),
    ...(lessonsUnreadable !== undefined ? { lessonsUnreadable } : {}),
    lessonsInPostMortem: ids.length,
    notExtracted: ids.filter((id) => !known.has(id)),
    unsettled,
    ...(unproven.length > 0 ? { unproven } : {}),
    ...(lessonsUntracked !== undefined ? { lessonsUntracked } : {}),
    staleTargets,
  };
}
