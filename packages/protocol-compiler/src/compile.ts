/**
 * Compiling a protocols directory into the managed block of one or more target files (AGENTS.md,
 * CLAUDE.md, ...). Writes go through the store: lock the target, re-read it inside the lock, write a
 * temp file and rename. `check` writes nothing and reports which targets are stale, with a diff.
 *
 * A "Compiled at" timestamp appears only when asked, and then records when the block's content last
 * changed: recompiling unchanged sources with a timestamp changes nothing, and `check` compares
 * content, not the timestamp.
 */
import { NotFoundError, readTextFile, withLock, writeFileAtomic } from '@ratchet/store';
import { unifiedDiff } from './diff.js';
import { ProtocolError, problemsError, type ProtocolProblem } from './errors.js';
import { withBom } from './edit.js';
import { loadProtocolSet, placeOf, type LoadOptions } from './load.js';
import { BEGIN_MARKER, END_MARKER, containsMarker, findManagedBlock, replaceManagedBlock } from './managed-block.js';
import { renderProtocols, type RenderOptions } from './render.js';
import type { ProtocolSet } from './types.js';
import { detailOfBlock, type Detail } from './detail.js';

export interface CompileOptions extends RenderOptions, LoadOptions {
  protocolsDir: string;
  /** Target files; each gets the same managed block. */
  targets: readonly string[];
  /** Report stale targets instead of writing them. */
  check?: boolean;
  /** Also compute the diff when writing (always computed for `check`). */
  diff?: boolean;
  /** How diffs name the targets (defaults to the path). */
  labelFor?: (target: string) => string;
  /**
   * Tools that must have usage from `usageFor` (the CLI: every `ratchet ...` tool). An associated
   * tool it claims but cannot document is an error, so a renamed command cannot silently drop out
   * of the docs.
   */
  requireUsage?: ((tool: string) => boolean) | undefined;
  /**
   * The detail of a target that has no managed block yet (default `full`). A target with a block keeps
   * the detail it was written with unless `detail` says otherwise, so a plain recompile (or `check`)
   * never switches a project's chosen detail.
   */
  newTargetDetail?: Detail | undefined;
}

export type TargetStatus = 'unchanged' | 'updated' | 'created' | 'stale' | 'missing';

export interface TargetResult {
  path: string;
  status: TargetStatus;
  /** Unified diff from the current file to the compiled one (empty when unchanged; when writing, only with `diff: true`). */
  diff: string;
  /** The detail the target was compiled (or checked) at. */
  detail: Detail;
}

export interface CompileResult {
  version: string | undefined;
  protocols: string[];
  targets: TargetResult[];
  /** True when `check` found a stale or missing target. */
  stale: boolean;
  /** Files that look like sources but are not, with why (the original's generated leftovers). */
  skipped: { file: string; reason: string }[];
}

/** Renders the managed block body for a loaded set; refuses sources that would forge a marker. */
export function compileSet(set: ProtocolSet, options: RenderOptions = {}): string {
  for (const prose of set.prose ?? []) {
    if (containsMarker(prose.text)) throw new ProtocolError('bad-markers', prose.file, `prose contains a ${BEGIN_MARKER} or ${END_MARKER} line, which would break the managed block`);
  }
  for (const source of set.sources) {
    if (source.prose !== undefined && containsMarker(source.prose.text)) {
      throw new ProtocolError('bad-markers', source.prose.file, `prose contains a ${BEGIN_MARKER} or ${END_MARKER} line, which would break the managed block`);
    }
  }
  const body = renderProtocols(set, options);
  if (containsMarker(body)) {
    const culprit = set.sources.find((s) => JSON.stringify(s.protocol).includes('ratchet:protocols:'));
    throw new ProtocolError('bad-markers', culprit?.file ?? set.dir, 'a protocol text contains a managed-block marker line, which would break the block');
  }
  return body;
}

export async function compileProtocols(options: CompileOptions): Promise<CompileResult> {
  if (options.targets.length === 0) throw new TypeError('compileProtocols: no targets');
  const set = await loadProtocolSet(options.protocolsDir, options);
  await checkUsage(set, options);
  // Rendered once per detail a target asks for, with and without the timestamp: `check` compares
  // (and a compile without --timestamp writes) the plain one.
  const rendered = new Map<string, string>();
  const render = (detail: Detail, timestamp: string | undefined): string => {
    const key = `${detail}\u0000${timestamp ?? ''}`;
    let body = rendered.get(key);
    if (body === undefined) rendered.set(key, (body = compileSet(set, { ...options, detail, timestamp })));
    return body;
  };
  const detailFor = (current: string | undefined, target: string): Detail => {
    if (options.detail !== undefined) return options.detail;
    const where = current === undefined ? undefined : findManagedBlock(current, target);
    return where === undefined ? (options.newTargetDetail ?? 'full') : detailOfBlock(current!.slice(where.start, where.end));
  };
  // Every target must be renderable before any is written (a broken source fails them all).
  render(options.detail ?? options.newTargetDetail ?? 'full', options.timestamp);
  const targets: TargetResult[] = [];
  for (const target of options.targets) {
    const label = options.labelFor?.(target) ?? target;
    if (options.check === true) {
      const current = await readTarget(target);
      const detail = detailFor(current, target);
      const before = withoutTimestamp(current ?? '', target);
      const after = replaceManagedBlock(current === undefined ? undefined : before, render(detail, undefined), target);
      targets.push({
        path: target,
        status: current === undefined ? 'missing' : before === after ? 'unchanged' : 'stale',
        diff: unifiedDiff(current === undefined ? '' : before, after, { from: `${label} (current)`, to: `${label} (compiled)` }),
        detail,
      });
      continue;
    }
    targets.push(
      await withLock(target, async () => {
        const current = await readTarget(target);
        const detail = detailFor(current, target);
        let next = replaceManagedBlock(current, render(detail, options.timestamp), target);
        // A timestamped block whose content did not change keeps its old timestamp.
        if (options.timestamp !== undefined && current !== undefined && withoutTimestamp(current, target) === withoutTimestamp(next, target)) next = current;
        const diff = options.diff === true ? unifiedDiff(current ?? '', next, { from: `${label} (before)`, to: `${label} (after)` }) : '';
        if (current === next) return { path: target, status: 'unchanged' as const, diff, detail };
        await writeFileAtomic(target, next, { createParentDirs: true });
        return { path: target, status: current === undefined ? ('created' as const) : ('updated' as const), diff, detail };
      }, { createParentDirs: true }),
    );
  }
  return {
    version: set.version,
    protocols: set.sources.map((s) => s.protocol.protocol_id),
    targets,
    stale: targets.some((t) => t.status === 'stale' || t.status === 'missing'),
    skipped: set.skipped ?? [],
  };
}

async function checkUsage(set: ProtocolSet, options: CompileOptions): Promise<void> {
  const { requireUsage, usageFor } = options;
  if (requireUsage === undefined) return;
  const problems: ProtocolProblem[] = [];
  for (const source of set.sources) {
    for (const [i, tool] of (source.protocol.associated_tools ?? []).entries()) {
      if (!requireUsage(tool) || usageFor?.(tool) !== undefined) continue;
      const pointer = `/associated_tools/${i}`;
      problems.push({
        code: 'unknown-tool',
        file: source.file,
        pointer,
        message: `"${tool}" is not a command of this CLI, so its usage cannot be embedded (renamed or removed? fix the protocol, or deprecate the tool)`,
        ...(await placeOf(source.file, pointer, options.overrides)),
      });
    }
  }
  if (problems.length > 0) throw problemsError(problems);
}

const TIMESTAMP_LINE = /^\*\*Compiled at:\*\* .*\r?\n\r?\n/m;

/** The text with the managed block's "Compiled at" line (and the blank line after it) removed. */
export function withoutTimestamp(text: string, path = '<target>'): string {
  const where = findManagedBlock(text, path);
  if (where === undefined) return text;
  const block = text.slice(where.start, where.end);
  return `${text.slice(0, where.start)}${block.replace(TIMESTAMP_LINE, '')}${text.slice(where.end)}`;
}

async function readTarget(path: string): Promise<string | undefined> {
  try {
    return withBom(await readTextFile(path));
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}
