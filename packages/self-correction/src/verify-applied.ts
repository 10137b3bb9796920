/**
 * Is an applied lesson's work real? A lesson becomes `applied` only through `applyLessons`, which
 * records what it changed (history entry `changes`: files with their digests before and after). A
 * lesson marked applied any other way has no such record. And the change must still be on disk: the
 * protocol lists the added tool, names the deprecated one, holds the new rule text; a code change's
 * diff and plan are where apply wrote them. The gate out of self-correction (`task submit`) asks
 * this of every applied lesson of the task. Read-only.
 */
import { join } from 'node:path';
import { loadProtocolSet, type ProtocolSet } from '@ratchet/protocol-compiler';
import { NotFoundError, readTextFile, resolveInsideRoot, sha256Hex } from '@ratchet/store';
import type { Lesson } from './types.js';

export interface VerifyAppliedOptions {
  /** Project root: the files a record names are relative to it. */
  root: string;
  /** The protocols directory the lessons edited. */
  protocolsDir: string;
  /** See LoadOptions.schemaRoot. */
  schemaRoot?: string;
}

export interface UnprovenLesson {
  lessonId: string;
  problem: string;
}

/** Every applied lesson among `lessons` whose application record is missing or whose change is not on disk. */
export async function verifyApplied(lessons: readonly Lesson[], options: VerifyAppliedOptions): Promise<UnprovenLesson[]> {
  const out: UnprovenLesson[] = [];
  let set: ProtocolSet | string | undefined;
  const protocols = async (): Promise<ProtocolSet | string> => {
    set ??= await loadProtocolSet(options.protocolsDir, { schemaRoot: options.schemaRoot ?? options.root }).catch((err: unknown) => `the protocols cannot be read (${reasonOf(err)})`);
    return set;
  };
  for (const lesson of lessons) {
    if (lesson.status !== 'applied') continue;
    const problem = await check(lesson, options, protocols);
    if (problem !== undefined) out.push({ lessonId: lesson.lesson_id, problem });
  }
  return out;
}

async function check(lesson: Lesson, options: VerifyAppliedOptions, protocols: () => Promise<ProtocolSet | string>): Promise<string | undefined> {
  const record = lesson.history.findLast((h) => h.status === 'applied');
  if (record?.changes === undefined) {
    return 'it is marked applied without the record `ratchet lessons apply` writes (the files it changed, with their digests): only `lessons apply` applies a lesson';
  }
  const action = lesson.action;
  if (action.type === 'UPDATE_PROTOCOL') {
    const set = await protocols();
    if (typeof set === 'string') return `cannot check its change: ${set}`;
    const source = set.sources.find((s) => s.protocol.protocol_id === action.parameters.protocol_id);
    if (source === undefined) return `its protocol "${action.parameters.protocol_id}" is gone`;
    const p = source.protocol;
    const where = `${relativeTo(options.root, source.file)}`;
    switch (action.command) {
      case 'add-tool':
        return (p.associated_tools ?? []).includes(action.parameters.tool) ? undefined : `${where} does not list tool "${action.parameters.tool}": its change is not on disk`;
      case 'deprecate-tool':
        return (p.deprecated_tools ?? []).includes(action.parameters.tool) && !(p.associated_tools ?? []).includes(action.parameters.tool)
          ? undefined
          : `${where} does not name tool "${action.parameters.tool}" as deprecated: its change is not on disk`;
      case 'update-rule': {
        const rule = (p.rules ?? []).find((r) => r.rule_id === action.parameters.rule_id);
        return rule?.description.trim() === action.parameters.description.trim() ? undefined : `rule "${action.parameters.rule_id}" in ${where} does not say what the lesson wrote: its change is not on disk`;
      }
    }
  }
  if (action.command === 'propose-code-change') {
    // The suggestion apply wrote: the diff (as the lesson has it) and the plan. The code itself may
    // since have changed (the plan was run): that is the point of the suggestion.
    for (const change of record.changes.filter((c) => /\.(diff|plan)$/.test(c.file))) {
      const text = await readProjectFile(options.root, change.file);
      if (text === undefined) return `${change.file}, which \`lessons apply\` wrote, is gone`;
      if (change.file.endsWith('.diff') && sha256Hex(text) !== change.after) return `${change.file} is not the diff \`lessons apply\` wrote`;
    }
    if (!record.changes.some((c) => c.file.endsWith('.plan'))) return 'its application record names no plan';
  }
  return undefined;
}

async function readProjectFile(root: string, file: string): Promise<string | undefined> {
  try {
    return (await readTextFile(resolveInsideRoot(root, file))).text;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

function relativeTo(root: string, file: string): string {
  const prefix = join(root, '/');
  return file.startsWith(prefix) ? file.slice(prefix.length) : file;
}

function reasonOf(err: unknown): string {
  const reason = (err as { reason?: unknown }).reason;
  return typeof reason === 'string' ? reason : err instanceof Error ? err.message : String(err);
}
