/**
 * The lessons area as typed operations: what `ratchet lessons ...`, the hooks and (through the
 * commands) the MCP tools do, with inputs and results as types. Types come from
 * @ratchet/self-correction's zod schemas through `import type`, so they cost nothing at run time
 * (zod itself is never loaded here). Each face turns its own input into an operation's input at
 * its edge (commander: src/commands/lessons/inputs.ts) and renders the typed result its own way;
 * no face reads another face's printed output.
 *
 * The library is imported on first use, so a hook that only lists lessons loads no Markdown parser
 * or diff code.
 */
import { resolve } from 'node:path';
import type { CompileResult } from '@ratchet/protocol-compiler';
import type { LessonOutcome } from '@ratchet/self-correction';
import type { LessonSchema, LessonStatusSchema } from '@ratchet/self-correction/schema';
import type { z } from 'zod';
import { requireUser } from '../actor.js';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { displayPath } from '../paths.js';

/** One line of knowledge_core/lessons.jsonl, as its schema defines it. */
export type Lesson = z.infer<typeof LessonSchema>;
export type LessonStatus = z.infer<typeof LessonStatusSchema>;

/** Where lessons live unless a command says otherwise. */
export const LESSONS_FILE = 'knowledge_core/lessons.jsonl';

/** The statuses, in the schema's order; the compile-time check below keeps the list whole. */
export const LESSON_STATUSES = ['pending', 'applied', 'failed', 'manual', 'resolved'] as const satisfies readonly LessonStatus[];
type MissingStatus = Exclude<LessonStatus, (typeof LESSON_STATUSES)[number]>;
const everyStatusListed: [MissingStatus] extends [never] ? true : MissingStatus = true;
void everyStatusListed;

/** A line of the lessons file that does not parse: kept as is, reported with its place. */
export interface LessonsProblem {
  line: number;
  message: string;
}

export interface ListLessonsInput {
  /** The lessons file, relative to the project root. */
  lessonsFile: string;
  /** Only lessons in this status. */
  status?: LessonStatus | undefined;
}

export interface ListLessonsResult {
  /** Absolute path of the lessons file read. */
  path: string;
  lessons: Lesson[];
  problems: LessonsProblem[];
}

/** The lessons (optionally of one status) and the lines that did not parse. A file edited by hand is refused (LessonsError). */
export async function listLessons(ctx: Context, input: ListLessonsInput): Promise<ListLessonsResult> {
  const { readLessons } = await import('@ratchet/self-correction');
  const path = resolve(ctx.cwd, input.lessonsFile);
  const file = await readLessons(path);
  return { path, lessons: file.lessons.filter((l) => input.status === undefined || l.status === input.status), problems: file.problems };
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

export interface ExtractLessonsResult {
  /** Absolute paths. */
  postmortemPath: string;
  lessonsPath: string;
  taskId: string;
  /** The section the lessons were read from. */
  heading: string;
  /** Every lesson the section holds, with the post-mortem line each starts on. */
  found: { lesson: Lesson; line: number }[];
  /** The ones that were not in the lessons file yet. */
  added: Lesson[];
  problems: LessonsProblem[];
}

/** Post-mortems are a few kilobytes; the Markdown parser is slow on megabytes. */
const POSTMORTEM_MAX_BYTES = 1024 * 1024;

/** Read a post-mortem's Lesson/Action pairs into the lessons file; extracting twice adds nothing. */
export async function extractLessons(ctx: Context, input: ExtractLessonsInput): Promise<ExtractLessonsResult> {
  const [{ readTextFile }, { addLessons, extractLessons: extract }] = await Promise.all([import('@ratchet/store'), import('@ratchet/self-correction')]);
  const postmortemPath = resolve(ctx.cwd, input.postmortem);
  const lessonsPath = resolve(ctx.cwd, input.lessonsFile);
  const { text } = await readTextFile(postmortemPath, { maxBytes: POSTMORTEM_MAX_BYTES });
  const found = extract(text, { path: displayPath(ctx, postmortemPath), taskId: input.taskId, now: input.now });
  const { added, file } = await addLessons(lessonsPath, found.lessons);
  return {
    postmortemPath,
    lessonsPath,
    taskId: found.taskId,
    heading: found.heading,
    found: found.lessons.map((lesson, i) => ({ lesson, line: found.lines[i]! })),
    added,
    problems: file.problems,
  };
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

/** Why the recompile after applying failed: the compiler's error, with every problem when it has several. */
export interface RecompileFailure {
  message: string;
  path?: string | undefined;
  problems?: { file: string; line?: number; column?: number; message: string; pointer?: string }[] | undefined;
}

export interface ApplyLessonsResult {
  lessonsPath: string;
  dryRun: boolean;
  outcomes: LessonOutcome[];
  /** Lessons waiting for a person. */
  manual: Lesson[];
  problems: LessonsProblem[];
  /** `--id`s that matched no pending lesson (usually a typo, or already applied). */
  unknownIds: string[];
  recompiled: CompileResult['targets'];
  recompileError?: RecompileFailure | undefined;
}

/** Apply pending lessons in order, each ending applied or failed, then recompile once. */
export async function applyLessons(ctx: Context, input: ApplyLessonsInput): Promise<ApplyLessonsResult> {
  const [{ applyLessons: apply }, { compileTargets, ratchetToolCheck }] = await Promise.all([import('@ratchet/self-correction'), import('../commands/protocol/shared.js')]);
  const lessonsPath = resolve(ctx.cwd, input.lessonsFile);
  let compiled: CompileResult | undefined;
  const result = await apply({
    root: ctx.cwd,
    lessonsPath,
    protocolsDir: resolve(ctx.cwd, input.protocolsDir),
    now: input.now,
    dryRun: input.dryRun,
    applyCode: input.applyCode,
    retryFailed: input.retryFailed,
    labelFor: (file) => displayPath(ctx, file),
    checkTool: await ratchetToolCheck(),
    schemaRoot: ctx.cwd,
    ...(input.ids !== undefined && input.ids.length > 0 ? { ids: input.ids } : {}),
    // A dry run previews the recompile: `check` against the edited sources, nothing written.
    recompile: async ({ dryRun, overrides }) => (compiled = await compileTargets(ctx, { protocols: input.protocolsDir, out: input.out, check: dryRun, overrides })),
  });
  return {
    lessonsPath,
    dryRun: result.dryRun,
    outcomes: result.outcomes,
    manual: result.manual,
    problems: result.problems,
    unknownIds: (input.ids ?? []).filter((id) => !result.outcomes.some((o) => o.lesson_id === id)),
    recompiled: compiled?.targets ?? [],
    recompileError: result.recompileError === undefined ? undefined : recompileFailure(result.recompileError),
  };
}

/** The compiler's error as plain data (ProtocolError carries `reason`, a path and sometimes every problem). */
function recompileFailure(err: unknown): RecompileFailure {
  const e = (typeof err === 'object' && err !== null ? err : {}) as { reason?: unknown; message?: unknown; path?: unknown; problems?: unknown };
  const message = typeof e.reason === 'string' ? e.reason : typeof e.message === 'string' ? e.message : String(err);
  return { message, path: typeof e.path === 'string' ? e.path : undefined, problems: Array.isArray(e.problems) ? (e.problems as RecompileFailure['problems']) : undefined };
}

export interface ResolveLessonInput {
  lessonsFile: string;
  /** The lesson's id (with or without its `lesson-` prefix). */
  lessonId: string;
  /** What the person did. */
  note: string;
  now: string;
}

/** Mark a manual (or failed) lesson handled by a person. A person's decision: refused for the agent. */
export async function resolveLesson(ctx: Context, input: ResolveLessonInput): Promise<Lesson> {
  requireUser(ctx, 'ratchet lessons resolve (deciding a lesson needs no protocol change)');
  const { resolveLesson: resolveIt } = await import('@ratchet/self-correction');
  const lesson = await resolveIt(resolve(ctx.cwd, input.lessonsFile), input.lessonId, input.note, input.now);
  if (lesson === undefined) throw new CliError(`no lesson "${input.lessonId}" (see \`ratchet lessons list\`)`, { code: 'unknown-lesson' });
  return lesson;
}
