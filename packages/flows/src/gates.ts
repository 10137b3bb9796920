/**
 * Evaluating artifact gates against the file system: exists, is text, long enough, has every
 * required heading line. A symlink that leads out of the project is refused like a `..` path.
 */
import { NotFoundError, OutsideRootError, readTextFile, resolveInsideRoot } from '@ratchet/store';
import type { ResolvedGate } from './engine.js';
import { FlowError } from './errors.js';

/** Artifacts larger than this do not count (a memory file is a few KiB). */
export const ARTIFACT_MAX_BYTES = 8 * 1024 * 1024;

export interface GateResult {
  gate: ResolvedGate;
  ok: boolean;
  /** What is wrong, one line each (empty when ok). */
  problems: string[];
}

export async function evaluateGate(root: string, gate: ResolvedGate): Promise<GateResult> {
  const fail = (...problems: string[]): GateResult => ({ gate, ok: false, problems });
  // Checked again now, not only when the path was rendered: the artifact (or a directory above it)
  // may have become a symbolic link since.
  try {
    resolveInsideRoot(root, gate.path, { allowAbsolute: true });
  } catch (err) {
    if (!(err instanceof OutsideRootError)) throw err;
    if (err.kind === 'broken-symlink') return fail(`${gate.artifact} does not exist (${gate.why})`);
    throw new FlowError('artifact-outside-project', `artifact ${gate.artifact} ${err.reason}`);
  }
  let text: string;
  try {
    text = (await readTextFile(gate.path, { maxBytes: ARTIFACT_MAX_BYTES })).text;
  } catch (err) {
    if (err instanceof NotFoundError) return fail(`${gate.artifact} does not exist (${gate.why})`);
    return fail(`${gate.artifact} is not a readable text file: ${(err as { reason?: string }).reason ?? String(err)} (${gate.why})`);
  }
  const problems: string[] = [];
  if (text.length < gate.minLength) problems.push(`${gate.artifact} has ${text.length} characters, needs at least ${gate.minLength} (${gate.why})`);
  if (gate.headings.length > 0) {
    const lines = new Set(text.split(/\r?\n/).map((l) => l.trimEnd()));
    for (const heading of gate.headings) if (!lines.has(heading.trimEnd())) problems.push(`${gate.artifact} lacks the heading line "${heading}" (${gate.why})`);
  }
  return { gate, ok: problems.length === 0, problems };
}

export async function evaluateGates(root: string, gates: readonly ResolvedGate[]): Promise<GateResult[]> {
  const out: GateResult[] = [];
  for (const gate of gates) out.push(await evaluateGate(root, gate));
  return out;
}
