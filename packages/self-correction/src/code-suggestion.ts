/**
 * A propose-code-change lesson becomes a plan: the diff is checked first (path inside the root, applies
 * cleanly), then written next to a one-step plan in the FDC plan language that `ratchet plan lint`
 * accepts. Ratchet never runs anything here; applying the diff itself happens only on request.
 */
import { readFile, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { writeFileAtomic } from '@ratchet/store';
import { LessonsError } from './errors.js';
import { applyPatch, parsePatch } from './patch.js';
import { resolveInsideRoot } from './safe-path.js';
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
}

/** Checks the lesson's diff against the file and prepares the plan (writes nothing). */
export async function prepareCodeSuggestion(root: string, lesson: Lesson, dir = SUGGESTIONS_DIR): Promise<CodeSuggestion> {
  if (lesson.action.command !== 'propose-code-change') throw new TypeError('not a code-change lesson');
  const { filepath, diff } = lesson.action.parameters;
  const target = await resolveInsideRoot(root, filepath, 'the file to change');
  const patch = parsePatch(diff, `lesson ${lesson.lesson_id} diff`);
  for (const named of [patch.oldPath, patch.newPath]) {
    if (named !== undefined && named !== '/dev/null' && normalise(named) !== normalise(filepath)) {
      throw new LessonsError('bad-diff', filepath, `the diff names "${named}", but the lesson changes "${filepath}"`);
    }
  }
  const current = await readFile(target, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  const patched = applyPatch(current, patch, filepath);
  const file = relative(await realpath(root), target).split(sep).join('/');
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
  return { file, planPath, diffPath, plan, patched, existed: current !== undefined };
}

/** Writes the diff and the plan (and, with `applyCode`, the patched file). */
export async function writeCodeSuggestion(root: string, suggestion: CodeSuggestion, lesson: Lesson, options: { applyCode?: boolean } = {}): Promise<void> {
  if (lesson.action.command !== 'propose-code-change') throw new TypeError('not a code-change lesson');
  await writeFileAtomic(join(root, suggestion.diffPath), lesson.action.parameters.diff, { createParentDirs: true });
  await writeFileAtomic(join(root, suggestion.planPath), suggestion.plan, { createParentDirs: true });
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
