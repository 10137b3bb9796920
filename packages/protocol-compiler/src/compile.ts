/**
 * Compiling a protocols directory into the managed block of one or more target files (AGENTS.md,
 * CLAUDE.md, ...). Writes go through the store: lock the target, re-read it inside the lock, write a
 * temp file and rename. `check` writes nothing and reports which targets are stale, with a diff.
 */
import { NotFoundError, readTextFile, withLock, writeFileAtomic } from '@ratchet/store';
import { unifiedDiff } from './diff.js';
import { ProtocolError } from './errors.js';
import { loadProtocolSet, type LoadOptions } from './load.js';
import { BEGIN_MARKER, END_MARKER, containsMarker, replaceManagedBlock } from './managed-block.js';
import { renderProtocols, type RenderOptions } from './render.js';
import type { ProtocolSet } from './types.js';

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
}

export type TargetStatus = 'unchanged' | 'updated' | 'created' | 'stale' | 'missing';

export interface TargetResult {
  path: string;
  status: TargetStatus;
  /** Unified diff from the current file to the compiled one (empty when unchanged; when writing, only with `diff: true`). */
  diff: string;
}

export interface CompileResult {
  version: string | undefined;
  protocols: string[];
  targets: TargetResult[];
  /** True when `check` found a stale or missing target. */
  stale: boolean;
}

/** Renders the managed block body for a loaded set; refuses sources that would forge a marker. */
export function compileSet(set: ProtocolSet, options: RenderOptions = {}): string {
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
  const body = compileSet(set, options);
  const targets: TargetResult[] = [];
  for (const target of options.targets) {
    const label = options.labelFor?.(target) ?? target;
    if (options.check === true) {
      const current = await readTarget(target);
      const next = replaceManagedBlock(current, body, target);
      targets.push({
        path: target,
        status: current === undefined ? 'missing' : current === next ? 'unchanged' : 'stale',
        diff: unifiedDiff(current ?? '', next, { from: `${label} (current)`, to: `${label} (compiled)` }),
      });
      continue;
    }
    targets.push(
      await withLock(target, async () => {
        const current = await readTarget(target);
        const next = replaceManagedBlock(current, body, target);
        const diff = options.diff === true ? unifiedDiff(current ?? '', next, { from: `${label} (before)`, to: `${label} (after)` }) : '';
        if (current === next) return { path: target, status: 'unchanged' as const, diff };
        await writeFileAtomic(target, next);
        return { path: target, status: current === undefined ? ('created' as const) : ('updated' as const), diff };
      }),
    );
  }
  return {
    version: set.version,
    protocols: set.sources.map((s) => s.protocol.protocol_id),
    targets,
    stale: targets.some((t) => t.status === 'stale' || t.status === 'missing'),
  };
}

async function readTarget(path: string): Promise<string | undefined> {
  try {
    return (await readTextFile(path)).text;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}
