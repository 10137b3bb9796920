/**
 * Where the orchestrator meets self-correction: reads this task's post-mortem and the lessons file
 * (through @ratchet/self-correction) and, when one of its lessons changed a protocol, checks the
 * compiled targets, and hands the orchestrator's gate (`selfCorrectionGaps`) plain values. Neither
 * package imports the other; the CLI composes them here.
 */
import { resolve } from 'node:path';
import type { SelfCorrectionEvidence, Session } from '@ratchet/orchestrator';
import { LESSONS_PATH, LessonsError, extractLessons, readLessons } from '@ratchet/self-correction';
import { NotFoundError, readTextFile } from '@ratchet/store';
import { compileTargets } from './commands/protocol/shared.js';
import type { Context } from './context.js';
import { displayPath } from './paths.js';

/** Headings (level 2) of sections that hold nothing but HTML comments and blank lines. */
export function emptySections(markdown: string): string[] {
  const empty: string[] = [];
  let heading: string | undefined;
  let body: string[] = [];
  let fence = false;
  const close = (): void => {
    if (heading !== undefined && body.join('\n').replace(/<!--[\s\S]*?(-->|$)/g, '').trim() === '') empty.push(heading);
  };
  for (const line of markdown.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const m = fence ? null : /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (m && m[1]!.length <= 2) {
      close();
      heading = m[1]!.length === 2 ? m[2]! : undefined;
      body = [];
    } else body.push(line);
  }
  close();
  return empty;
}

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

  let ids: string[] = [];
  let lessonsUnreadable: string | undefined;
  try {
    ids = extractLessons(text, { path: pmPath, now: new Date().toISOString() }).lessons.map((l) => l.lesson_id);
  } catch (err) {
    if (!(err instanceof LessonsError)) throw err;
    lessonsUnreadable = err.reason;
  }

  const file = await readLessons(resolve(ctx.cwd, LESSONS_PATH));
  const known = new Map(file.lessons.map((l) => [l.lesson_id, l]));
  const mine = ids.flatMap((id) => known.get(id) ?? []);
  const unsettled = mine.filter((l) => l.status === 'pending' || (l.status === 'failed' && !l.history.at(-1)?.reason)).map((l) => l.lesson_id);

  const staleTargets: string[] = [];
  if (mine.some((l) => l.status === 'applied' && l.action.type === 'UPDATE_PROTOCOL')) {
    const result = await compileTargets(ctx, { check: true });
    for (const t of result.targets) if (t.status !== 'unchanged') staleTargets.push(displayPath(ctx, t.path));
  }

  return {
    emptySections: emptySections(text),
    ...(lessonsUnreadable !== undefined ? { lessonsUnreadable } : {}),
    lessonsInPostMortem: ids.length,
    notExtracted: ids.filter((id) => !known.has(id)),
    unsettled,
    staleTargets,
  };
}
