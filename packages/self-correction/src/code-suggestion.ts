/**
 * A propose-code-change lesson becomes a plan: the diff is checked first (path inside the root, applies
 * cleanly), then written next to a one-step plan in the FDC plan language that `ratchet plan lint`
 * accepts. Ratchet never runs anything here; applying the diff itself happens only on request.
 */
import { relative, resolve, sep } from 'node:path';
import { resolveInsideRoot, withBom } from '@ratchet/protocol-compiler';
import { NotFoundError, StoreError, readTextFile, writeFileAtomic } from '@ratchet/store';
import { LessonsError } from './errors.js';
import { applyPatch, parsePatch } from './patch.js';
import type { Lesson } from './types.js';

export const SUGGESTIONS_DIR = 'knowledge_core/suggestions';

export interface CodeSuggestion {
  /** Project-relative (POSIX) paths. */
  file: string;
  planPath: string;
  diffPath: string;
  plan: string;
  /** The file's content after the diff (what applying it gives). */
  patched: string;
  existed: boolean;
  /** The file's content before the diff (undefined: it does not exist yet). */
  original: string | undefined;
  /** Absolute path of the file (inside the root). */
  target: string;
}

export interface PrepareOptions {
  /** Where plans and diffs go, relative to the root. */
  dir?: string;
  /** File contents to use instead of the disk, by absolute path (a dry run's earlier changes). */
  overrides?: ReadonlyMap<string, string>;
}

/** Checks the lesson's diff against the file and prepares the plan (writes nothing). */
export async function prepareCodeSuggestion(root: string, lesson: Lesson, options: PrepareOptions = {}): Promise<CodeSuggestion> {
  const dir = options.dir ?? SUGGESTIONS_DIR;
  if (lesson.action.command !== 'propose-code-change') throw new TypeError('not a code-change lesson');
  const { filepath, diff } = lesson.action.parameters;
  const target = await resolveInsideRoot(root, filepath, 'the file to change');
  const patch = parsePatch(diff, `lesson ${lesson.lesson_id} diff`);
  if (patch.deletes) throw new LessonsError('bad-diff', filepath, 'the diff deletes the file; a lesson may create or change a file, a person deletes one');
  for (const named of [patch.oldPath, patch.newPath]) {
    if (named !== undefined && named !== '/dev/null' && normalise(named) !== normalise(filepath)) {
      throw new LessonsError('bad-diff', filepath, `the diff names "${named}", but the lesson changes "${filepath}"`);
    }
  }
  const current = options.overrides?.has(target) === true ? options.overrides.get(target) : await readCurrent(target, filepath);
  // A BOM is not part of the first line a diff talks about: patch without it, keep it after.
  const bom = current?.startsWith('\uFEFF') === true ? '\uFEFF' : '';
  const patched = `${bom}${applyPatch(bom === '' ? current : current!.slice(1), patch, filepath)}`;
  const file = relative(resolve(root), target).split(sep).join('/');
  // Plan arguments are split on whitespace: such a path could not be named in the plan.
  if (/\s/.test(file)) throw new LessonsError('unsafe-path', filepath, 'paths with whitespace cannot be named in a plan');
  const planPath = `${dir}/${lesson.lesson_id}.plan`;
  const diffPath = `${dir}/${lesson.lesson_id}.diff`;
  const write = current === undefined ? `create_file_with_block ${file}` : `replace_with_git_merge_diff ${file}`;
  const plan = [
    `# Code change proposed by lesson ${lesson.lesson_id} (task ${oneLine(lesson.task_id)}).`,
    `# ${oneLine(lesson.insight) || 'No insight given.'}`,
    `# The diff is in ${diffPath}; \`ratchet lessons apply\` checked that it applies cleanly to ${file}.`,
    `set_plan apply the code change proposed by lesson ${lesson.lesson_id}`,
    'plan_step_complete',
    `read_file ${diffPath}`,
    ...(current === undefined ? [] : [`read_file ${file}`]),
    write,
    'run_in_bash_session close',
    '',
  ].join('\n');
  return { file, planPath, diffPath, plan, patched, existed: current !== undefined, original: current, target };
}

// Through the store's guarded reader: a binary file, a FIFO or a huge file is refused with its path.
async function readCurrent(target: string, label: string): Promise<string | undefined> {
  try {
    return withBom(await readTextFile(target));
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    if (err instanceof StoreError) throw new LessonsError('diff-does-not-apply', label, err.reason);
    throw err;
  }
}

/** Writes the diff and the plan (and, with `applyCode`, the patched file). */
export async function writeCodeSuggestion(root: string, suggestion: CodeSuggestion, lesson: Lesson, options: { applyCode?: boolean } = {}): Promise<void> {
  if (lesson.action.command !== 'propose-code-change') throw new TypeError('not a code-change lesson');
  // The suggestions directory itself could be a symlink out of the project: resolve it like any path.
  await writeFileAtomic(await resolveInsideRoot(root, suggestion.diffPath, 'the diff file'), lesson.action.parameters.diff, { createParentDirs: true });
  await writeFileAtomic(await resolveInsideRoot(root, suggestion.planPath, 'the plan file'), suggestion.plan, { createParentDirs: true });
  if (options.applyCode === true) {
    // Re-checked just before writing: the file may have changed since prepareCodeSuggestion.
    const fresh = await prepareCodeSuggestion(root, lesson);
    await writeFileAtomic(await resolveInsideRoot(root, suggestion.file), fresh.patched, { createParentDirs: true });
  }
}

function normalise(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
