/**
 * The inputs of the lessons area's operations (src/operations/lessons.ts), apart from the
 * operations themselves so that their declarations import no library type: the CLI's public types
 * (src/index.ts) carry them, and users do not get the libraries the CLI bundles.
 */

/** Where lessons live unless a command says otherwise. */
export const LESSONS_FILE = 'knowledge_core/lessons.jsonl';

/** The statuses, in the schema's order; lessons.ts checks at compile time that the list is the schema's, whole. */
export const LESSON_STATUSES = ['pending', 'applied', 'failed', 'manual', 'resolved'] as const;
export type LessonStatusName = (typeof LESSON_STATUSES)[number];

export interface ListLessonsInput {
  /** The lessons file, relative to the project root. */
  lessonsFile: string;
  /** Only lessons in this status. */
  status?: LessonStatusName | undefined;
}

export interface ExtractLessonsInput {
  /** The post-mortem Markdown file, relative to the project root. */
  postmortem: string;
  lessonsFile: string;
  /** Default: the post-mortem's **Task:** line, else its file name. */
  taskId?: string | undefined;
  /** ISO time recorded in each new lesson's history. */
  now: string;
}

export interface ApplyLessonsInput {
  lessonsFile: string;
  /** The protocols directory, relative to the project root. */
  protocolsDir: string;
  /** Targets to recompile (default: the protocols' compile.json targets, else AGENTS.md). */
  out?: string[] | undefined;
  /** Only these lessons (default: every pending one). */
  ids?: string[] | undefined;
  dryRun: boolean;
  applyCode: boolean;
  retryFailed: boolean;
  /** The clock for history entries. */
  now: () => string;
}

export interface ResolveLessonInput {
  lessonsFile: string;
  /** The lesson's id (with or without its `lesson-` prefix). */
  lessonId: string;
  /** What the person did. */
  note: string;
  now: string;
}
