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
import type { Lesson, LessonOutcome, LessonStatus } from '@ratchet/self-correction';
import { requireUser } from '../actor.js';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from '../exit-codes.js';
import { displayPath } from '../paths.js';
import type { OperationResult } from './invoke.js';

/** One line of knowledge_core/lessons.jsonl: the type @ratchet/self-correction derives from the format's zod schema. */
export type { Lesson, LessonStatus } from '@ratchet/self-correction';
export { LESSONS_FILE, LESSON_STATUSES, type ApplyLessonsInput, type ExtractLessonsInput, type ListLessonsInput, type ResolveLessonInput } from './lessons-input.js';
import type { ApplyLessonsInput, ExtractLessonsInput, ListLessonsInput, ResolveLessonInput } from './lessons-input.js';
import type { LESSON_STATUSES } from './lessons-input.js';

// The list in lessons-input.ts is the schema's statuses, all of them and no other.
type Listed = (typeof LESSON_STATUSES)[number];
const everyStatusListed: [Exclude<LessonStatus, Listed>] extends [never] ? ([Exclude<Listed, LessonStatus>] extends [never] ? true : never) : never = true;
void everyStatusListed;

/** A line of the lessons file that does not parse: kept as is, reported with its place. */
export interface LessonsProblem {
  line: number;
  message: string;
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

/** Mark a manual (or failed) lesson handled by a person. A person's decision: refused for the agent. */
export async function resolveLesson(ctx: Context, input: ResolveLessonInput): Promise<Lesson> {
  requireUser(ctx, 'ratchet lessons resolve (deciding a lesson needs no protocol change)');
  const { resolveLesson: resolveIt } = await import('@ratchet/self-correction');
  const lesson = await resolveIt(resolve(ctx.cwd, input.lessonsFile), input.lessonId, input.note, input.now);
  if (lesson === undefined) throw new CliError(`no lesson "${input.lessonId}" (see \`ratchet lessons list\`)`, { code: 'unknown-lesson' });
  return lesson;
}

/*
 * Each operation's result as the document `--json` prints and the exit code the command returns:
 * the CLI's commands print these, and the MCP tools return them (src/operations/invoke.ts), so both
 * faces give the same answer without either reading the other's output.
 */

/** A corrupt line of the lessons file, relative to the project. */
const problemsAt = (ctx: Context, path: string, problems: LessonsProblem[]) => problems.map((p) => ({ file: displayPath(ctx, path), ...p }));

/** The good lessons are listed; a corrupt line is still an input error (exit 2). */
export function listLessonsResult(ctx: Context, r: ListLessonsResult): OperationResult {
  return { exitCode: r.problems.length > 0 ? EXIT_USAGE : EXIT_OK, document: { ok: r.problems.length === 0, lessons: r.lessons, problems: problemsAt(ctx, r.path, r.problems) } };
}

/** The lessons were added, but a corrupt line in the lessons file is an input error until someone fixes it. */
export function extractLessonsResult(ctx: Context, r: ExtractLessonsResult): OperationResult {
  return {
    exitCode: r.problems.length > 0 ? EXIT_USAGE : EXIT_OK,
    document: { ok: r.problems.length === 0, task_id: r.taskId, lessons: displayPath(ctx, r.lessonsPath), found: r.found.length, added: r.added, problems: problemsAt(ctx, r.lessonsPath, r.problems) },
  };
}

/** A corrupt lessons file line is an input error (2), even though the good lessons were applied; a failed lesson or recompile is 1. */
export function applyLessonsResult(ctx: Context, r: ApplyLessonsResult): OperationResult {
  const failed = r.outcomes.filter((o) => o.status === 'failed').length;
  return {
    exitCode: r.problems.length > 0 ? EXIT_USAGE : failed > 0 || r.recompileError !== undefined ? EXIT_PROBLEMS : EXIT_OK,
    document: {
      ok: failed === 0 && r.recompileError === undefined && r.problems.length === 0,
      dryRun: r.dryRun,
      outcomes: r.outcomes,
      manual: r.manual.map((l) => ({ lesson_id: l.lesson_id, insight: l.insight, parameters: l.action.parameters })),
      problems: problemsAt(ctx, r.lessonsPath, r.problems),
      recompiled: r.recompiled.map((t) => ({ path: displayPath(ctx, t.path), status: t.status, ...(r.dryRun ? { diff: t.diff } : {}) })),
      ...(r.recompileError !== undefined ? { recompileError: r.recompileError.message } : {}),
    },
  };
}

/**
 * A placed problem (a protocol source a lesson broke, the post-mortem's place) as the result the
 * command gives for it; any other error is thrown on.
 */
export async function orProblems(ctx: Context, run: () => Promise<OperationResult>): Promise<OperationResult> {
  try {
    return await run();
  } catch (err) {
    const { problemsResult } = await import('../commands/protocol/shared.js');
    const result = problemsResult(ctx, err);
    if (result === undefined) throw err;
    return result;
  }
}
