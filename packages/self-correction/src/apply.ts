/**
 * `lessons apply`: pending lessons in file order, each ending `applied` or `failed` with a reason and
 * a time in its history (persisted right after it runs, so a crash loses at most the one in flight,
 * and protocol edits are idempotent). An applied lesson's history entry is its application record:
 * every file it changed (or, for an edit already in place, the file it checked) with the SHA-256 of
 * its content before and after, which `task submit` checks. `apply` is the only way a lesson becomes
 * applied. One failure does not stop the rest. The protocols are recompiled once at the end. Manual
 * lessons are listed, never touched. Nothing here runs a shell command, whatever a lesson says.
 */
import { relative, resolve, sep } from 'node:path';
import { updateProtocol, type ProtocolEdit } from '@ratchet/protocol-compiler';
import { sha256Hex, withLock } from '@ratchet/store';
import { prepareCodeSuggestion, writeCodeSuggestion } from './code-suggestion.js';
import { readLessons, updateLessons } from './lessons-file.js';
import type { FileChange, Lesson, LessonStatus } from './types.js';

export interface ApplyOptions {
  /** Project root: code changes must stay inside it. */
  root: string;
  lessonsPath: string;
  protocolsDir: string;
  /** The clock (ISO time) for history entries. */
  now: () => string;
  /** Show what would change; write nothing. */
  dryRun?: boolean;
  /** Also apply code-change diffs to the files (default: only write the plan and the diff). */
  applyCode?: boolean;
  /** Also retry lessons that failed before (after the cause was fixed). */
  retryFailed?: boolean;
  /** How diffs name protocol files (defaults to their paths). */
  labelFor?: (file: string) => string;
  /** Only these lesson ids. */
  ids?: readonly string[];
  /**
   * Called once at the end when a protocol changed: recompile the targets. In a dry run it gets the
   * edited sources as `overrides` (nothing was written) and should only preview (e.g. `check`).
   */
  recompile?: (preview: { dryRun: boolean; overrides: ReadonlyMap<string, string> }) => Promise<unknown>;
  /** Vets the tool of an `add-tool` lesson (the CLI refuses `ratchet ...` commands it does not have). */
  checkTool?: (tool: string) => string | undefined;
  /** Where the search for the nearest protocol.schema.json above the protocols directory stops (the project root). */
  schemaRoot?: string;
}

export interface LessonOutcome {
  lesson_id: string;
  command: string;
  status: 'applied' | 'failed';
  reason: string;
  /** Unified diff of what changed (or would change). */
  diff: string;
  /** Files written (or that would be written), project-relative where known. */
  files: string[];
  /** The application record: each file changed (or checked), with its SHA-256 before and after. Empty for a failure. */
  changes: FileChange[];
}

export interface ApplyResult {
  outcomes: LessonOutcome[];
  /** Lessons waiting for a person. */
  manual: Lesson[];
  /** Corrupt lines of lessons.jsonl (kept as they are). */
  problems: { line: number; message: string }[];
  /** True when `recompile` ran (in a dry run: the preview). */
  recompiled: boolean;
  recompileResult?: unknown;
  /** Set when recompiling failed (the lessons' outcomes stand). */
  recompileError?: unknown;
  dryRun: boolean;
}

export function lessonToEdit(lesson: Lesson): ProtocolEdit | undefined {
  const a = lesson.action;
  if (a.command === 'add-tool' || a.command === 'deprecate-tool') return { command: a.command, protocolId: a.parameters.protocol_id, tool: a.parameters.tool };
  if (a.command === 'update-rule') return { command: 'update-rule', protocolId: a.parameters.protocol_id, ruleId: a.parameters.rule_id, description: a.parameters.description };
  return undefined;
}

export async function applyLessons(options: ApplyOptions): Promise<ApplyResult> {
  // One apply at a time per lessons file; the lessons file's own lock is taken per update inside.
  return withLock(`${options.lessonsPath}.apply`, () => applyLocked(options), { createParentDirs: true });
}

async function applyLocked(options: ApplyOptions): Promise<ApplyResult> {
  const dryRun = options.dryRun === true;
  const file = await readLessons(options.lessonsPath);
  const wanted = options.ids === undefined ? undefined : new Set(options.ids);
  const pending = file.lessons.filter((l) => (l.status === 'pending' || (options.retryFailed === true && l.status === 'failed')) && (wanted === undefined || wanted.has(l.lesson_id)));
  const outcomes: LessonOutcome[] = [];
  let protocolChanged = false;
  // A dry run writes nothing, so each edit reads the sources as the edits before it left them.
  const overrides = new Map<string, string>();
  const codeOverrides = new Map<string, string>();

  for (const lesson of pending) {
    let outcome: LessonOutcome;
    try {
      const edit = lessonToEdit(lesson);
      if (edit !== undefined) {
        const result = await updateProtocol(options.protocolsDir, edit, {
          dryRun,
          overrides: dryRun ? overrides : undefined,
          checkTool: options.checkTool,
          ...(options.labelFor !== undefined ? { labelFor: options.labelFor } : {}),
          ...(options.schemaRoot !== undefined ? { schemaRoot: options.schemaRoot } : {}),
        });
        if (dryRun && result.changed) overrides.set(result.file, result.text);
        protocolChanged ||= result.changed;
        // An edit already in place changed nothing: the record names the file it checked, before = after.
        const change: FileChange = { file: projectPath(options.root, result.file), before: sha256Hex(result.before), after: sha256Hex(result.text) };
        outcome = { lesson_id: lesson.lesson_id, command: lesson.action.command, status: 'applied', reason: result.message, diff: result.diff, files: result.changed ? [result.file] : [], changes: [change] };
      } else if (lesson.action.command === 'propose-code-change') {
        const suggestion = await prepareCodeSuggestion(options.root, lesson, { overrides: codeOverrides });
        if (!dryRun) await writeCodeSuggestion(options.root, suggestion, lesson, { applyCode: options.applyCode === true });
        else if (options.applyCode === true) codeOverrides.set(suggestion.target, suggestion.patched);
        const would = dryRun ? 'would write' : 'wrote';
        const reason = options.applyCode === true
          ? `${dryRun ? 'would apply' : 'applied'} the diff to ${suggestion.file}; plan ${suggestion.planPath} records it`
          : `${would} plan ${suggestion.planPath} (diff checked: applies cleanly to ${suggestion.file}); run it with \`ratchet run plan ${suggestion.planPath}\``;
        const changes: FileChange[] = [
          { file: suggestion.diffPath, before: null, after: sha256Hex(lesson.action.parameters.diff) },
          { file: suggestion.planPath, before: null, after: sha256Hex(suggestion.plan) },
          ...(options.applyCode === true ? [{ file: suggestion.file, before: suggestion.original === undefined ? null : sha256Hex(suggestion.original), after: sha256Hex(suggestion.patched) }] : []),
        ];
        outcome = {
          lesson_id: lesson.lesson_id,
          command: lesson.action.command,
          status: 'applied',
          reason,
          diff: lesson.action.parameters.diff,
          files: [suggestion.diffPath, suggestion.planPath, ...(options.applyCode === true ? [suggestion.file] : [])],
          changes,
        };
      } else {
        continue; // manual lessons are not pending; nothing else exists
      }
    } catch (err) {
      const reason = (err as { reason?: unknown }).reason;
      const path = (err as { path?: unknown }).path;
      const line = (err as { line?: unknown }).line;
      const where = typeof path === 'string' ? `${path}${typeof line === 'number' ? `:${line}` : ''}: ` : '';
      outcome = { lesson_id: lesson.lesson_id, command: lesson.action.command, status: 'failed', reason: `${where}${typeof reason === 'string' ? reason : (err as Error).message}`, diff: '', files: [], changes: [] };
    }
    outcomes.push(outcome);
    if (!dryRun) await recordOutcome(options.lessonsPath, lesson.lesson_id, outcome, options.now());
  }

  const result: ApplyResult = {
    outcomes,
    manual: file.lessons.filter((l) => l.status === 'manual'),
    problems: file.problems,
    recompiled: false,
    dryRun,
  };
  if (protocolChanged && options.recompile !== undefined) {
    try {
      result.recompileResult = await options.recompile({ dryRun, overrides });
      result.recompiled = true;
    } catch (err) {
      result.recompileError = err;
    }
  }
  return result;
}

async function recordOutcome(path: string, id: string, outcome: LessonOutcome, time: string): Promise<void> {
  const status: LessonStatus = outcome.status;
  await updateLessons(path, (file) => {
    const lesson = file.lessons.find((l) => l.lesson_id === id);
    if (lesson !== undefined) {
      lesson.status = status;
      lesson.history.push({ status, time, reason: outcome.reason, ...(status === 'applied' ? { changes: outcome.changes } : {}) });
    }
    return { result: undefined };
  });
}

/** `file` relative to the project root, with POSIX separators (absolute when it is outside). */
function projectPath(root: string, file: string): string {
  const rel = relative(resolve(root), resolve(file));
  return rel.startsWith('..') ? file : rel.split(sep).join('/');
}

/** Marks a manual (or failed) lesson as handled by a person. */
export async function resolveLesson(path: string, id: string, note: string, now: string): Promise<Lesson | undefined> {
  const { result } = await updateLessons(path, (file) => {
    const lesson = file.lessons.find((l) => l.lesson_id === id || l.lesson_id === `lesson-${id}`);
    if (lesson !== undefined) {
      lesson.status = 'resolved';
      lesson.history.push({ status: 'resolved', time: now, reason: note.trim() || 'resolved by a person' });
    }
    return { result: lesson };
  });
  return result;
}
