/**
 * What the last tasks left for the next one: the most recent post-mortem, the lessons still waiting
 * (pending: for `lessons apply`; manual: for a person) and the code suggestions whose change is not
 * in the code yet. Orientation level 2 reads this at `ratchet task start`, so an agent starts from
 * what went wrong last time instead of rediscovering it. Read-only; a part that cannot be read is
 * reported in `errors`, never fatal (orientation's only hard gate is level 1).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError, readTextFile } from '@ratchet/store';
import { prepareCodeSuggestion, SUGGESTIONS_DIR } from './code-suggestion.js';
import { LESSONS_PATH, readLessons } from './lessons-file.js';
import { POSTMORTEMS_DIR } from './postmortem-template.js';
import type { Lesson } from './types.js';

/** The fields a post-mortem's header and Summary section give (the template's layout). */
export interface PostMortemSummary {
  /** Project-relative path. */
  path: string;
  taskId?: string | undefined;
  /** As written in the header (`success`, `failure`, ...). */
  outcome?: string | undefined;
  endedAt?: string | undefined;
  /** The Summary section's text on one line (at most 300 characters); absent while it is still the template's comment. */
  summary?: string | undefined;
}

export interface LessonRef {
  id: string;
  taskId: string;
  insight: string;
}

export interface SuggestionRef {
  lessonId: string;
  /** Project-relative path of the suggestion plan. */
  plan: string;
  /** The file the change is for. */
  file: string;
}

export interface SelfCorrectionReview {
  /** The most recent post-mortem under postmortems/ (by its Ended time, else the file's), or null when there is none. */
  lastPostMortem: PostMortemSummary | null;
  /** Lessons `lessons apply` has not carried out yet. */
  pendingLessons: LessonRef[];
  /** Lessons waiting for a person (`lessons resolve`). */
  manualLessons: LessonRef[];
  /** Code suggestion plans whose change is not in the code yet (the diff still applies). */
  openSuggestions: SuggestionRef[];
  /** What could not be read (a broken lessons line, an unreadable post-mortem), with the file. */
  errors: string[];
}

const SUMMARY_MAX = 300;

/** Read a post-mortem's header fields and Summary section. Pure. */
export function summarisePostMortem(path: string, text: string): PostMortemSummary {
  const field = (name: string): string | undefined => new RegExp(`^- \\*\\*${name}:\\*\\* *(.+)$`, 'm').exec(text)?.[1]?.trim();
  const lines = text.replace(/<!--[\s\S]*?(?:-->|$)/g, '').split(/\r?\n/);
  const start = lines.findIndex((l) => /^#{2,3} +(?:\d+\. *)?Summary\s*$/i.test(l));
  let summary: string | undefined;
  if (start >= 0) {
    const end = lines.findIndex((l, i) => i > start && /^#{1,6}\s/.test(l));
    const body = lines.slice(start + 1, end < 0 ? undefined : end).join(' ').replace(/\s+/g, ' ').trim();
    if (body !== '') summary = [...body].length > SUMMARY_MAX ? `${[...body].slice(0, SUMMARY_MAX - 1).join('')}…` : body;
  }
  const taskId = field('Task')?.replace(/^`(.*)`$/, '$1');
  return { path, ...(taskId ? { taskId } : {}), ...opt('outcome', field('Outcome')), ...opt('endedAt', field('Ended')), ...opt('summary', summary) };
}

export interface ReviewOptions {
  postmortemsDir?: string;
  lessonsPath?: string;
  suggestionsDir?: string;
}

export async function reviewSelfCorrection(root: string, options: ReviewOptions = {}): Promise<SelfCorrectionReview> {
  const errors: string[] = [];
  const lastPostMortem = await latestPostMortem(root, options.postmortemsDir ?? POSTMORTEMS_DIR, errors);
  const lessonsPath = options.lessonsPath ?? LESSONS_PATH;
  let lessons: Lesson[] = [];
  try {
    const file = await readLessons(join(root, lessonsPath));
    lessons = file.lessons;
    for (const p of file.problems) errors.push(`${lessonsPath}:${p.line}: ${p.message}`);
  } catch (err) {
    errors.push(`${lessonsPath}: ${reasonOf(err)}`);
  }
  const ref = (l: Lesson): LessonRef => ({ id: l.lesson_id, taskId: l.task_id, insight: l.insight });
  return {
    lastPostMortem,
    pendingLessons: lessons.filter((l) => l.status === 'pending').map(ref),
    manualLessons: lessons.filter((l) => l.status === 'manual').map(ref),
    openSuggestions: await openSuggestions(root, lessons, options.suggestionsDir ?? SUGGESTIONS_DIR),
    errors,
  };
}

async function latestPostMortem(root: string, dir: string, errors: string[]): Promise<PostMortemSummary | null> {
  const names = await readdir(join(root, dir)).catch(() => [] as string[]);
  let best: { at: number; summary: PostMortemSummary } | undefined;
  for (const name of names.filter((n) => n.endsWith('.md')).sort()) {
    const rel = `${dir}/${name}`;
    try {
      const abs = join(root, rel);
      const summary = summarisePostMortem(rel, (await readTextFile(abs)).text);
      // The header's Ended time is the task's; the file's time changes whenever someone edits it.
      const ended = summary.endedAt !== undefined ? Date.parse(summary.endedAt) : NaN;
      const at = Number.isNaN(ended) ? (await stat(abs)).mtimeMs : ended;
      if (best === undefined || at >= best.at) best = { at, summary };
    } catch (err) {
      if (!(err instanceof NotFoundError)) errors.push(`${rel}: ${reasonOf(err)}`);
    }
  }
  return best?.summary ?? null;
}

/**
 * A suggestion is open while its plan exists and its diff still applies: once the change is made
 * (by running the plan, or `lessons apply --apply-code`) the diff no longer applies to the file.
 */
async function openSuggestions(root: string, lessons: readonly Lesson[], dir: string): Promise<SuggestionRef[]> {
  const open: SuggestionRef[] = [];
  for (const lesson of lessons) {
    if (lesson.status !== 'applied' || lesson.action.command !== 'propose-code-change') continue;
    const plan = `${dir}/${lesson.lesson_id}.plan`;
    const exists = await stat(join(root, plan)).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!exists) continue;
    try {
      const suggestion = await prepareCodeSuggestion(root, lesson, { dir });
      open.push({ lessonId: lesson.lesson_id, plan, file: suggestion.file });
    } catch {
      // The diff no longer applies: the change is in (or the file moved on); either way nothing is open.
    }
  }
  return open;
}

function reasonOf(err: unknown): string {
  const reason = (err as { reason?: unknown }).reason;
  return typeof reason === 'string' ? reason : err instanceof Error ? err.message : String(err);
}

function opt<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined || value === '' ? {} : ({ [key]: value } as Record<K, string>);
}
