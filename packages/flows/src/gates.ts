/**
 * Evaluating artifact gates against the file system: exists, is text, long enough, has every
 * required heading line (outside code fences), and was written for this step: a file still holding
 * what it held when the step began is refused. A symlink that leads out of the project is refused
 * like a `..` path.
 */
import { NotFoundError, OutsideRootError, readTextFileSync, resolveInsideRoot } from '@ratchet/store';
import type { ResolvedGate } from './engine.js';
import { FlowError } from './errors.js';
import { ARTIFACT_MAX_BYTES, contentDigest, type Baseline } from './fresh.js';
import { hasHeading, linesOutsideFences } from './markdown.js';

export { ARTIFACT_MAX_BYTES } from './fresh.js';

export interface GateResult {
  gate: ResolvedGate;
  ok: boolean;
  /** What is wrong, one line each (empty when ok). */
  problems: string[];
  /** The content's digest (contentDigest) when the file was read. */
  digest?: string;
}

/** What a text lacks to pass `gate`: length and heading lines, one line each. */
export function shapeProblems(text: string, what: string, minLength: number, headings: readonly string[], why: string): string[] {
  const problems: string[] = [];
  if (text.length < minLength) problems.push(`${what} has ${text.length} characters, needs at least ${minLength} (${why})`);
  if (headings.length > 0) {
    const lines = linesOutsideFences(text);
    for (const heading of headings) if (!hasHeading(lines, heading)) problems.push(`${what} lacks the heading line "${heading}" outside code blocks (${why})`);
  }
  return problems;
}

/**
 * Check one gate. `baseline` is what the step's artifacts held when it was entered: a file whose
 * digest is still the one recorded there was not written for this step. An artifact the baseline
 * does not name (a session from before baselines existed) is judged on its shape and the ledger only.
 */
// Async in the public API (a gate may one day run a check); its reads are synchronous underneath: the
// promise-based FileHandle costs ~5 ms on its first use, on every `flow advance`.
// eslint-disable-next-line @typescript-eslint/require-await
export async function evaluateGate(root: string, gate: ResolvedGate, baseline?: Baseline): Promise<GateResult> {
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
    text = readTextFileSync(gate.path, { maxBytes: ARTIFACT_MAX_BYTES }).text;
  } catch (err) {
    if (err instanceof NotFoundError) return fail(`${gate.artifact} does not exist (${gate.why})`);
    return fail(`${gate.artifact} is not a readable text file: ${(err as { reason?: string }).reason ?? String(err)} (${gate.why})`);
  }
  const digest = contentDigest(text);
  const problems = shapeProblems(text, gate.artifact, gate.minLength, gate.headings, gate.why);
  if (baseline !== undefined && Object.hasOwn(baseline, gate.artifact) && baseline[gate.artifact] === digest) {
    problems.unshift(`${gate.artifact} is unchanged since this step began (${gate.why}): it must be written for this step, not left over from earlier work`);
  }
  return { gate, ok: problems.length === 0, problems, digest };
}

export async function evaluateGates(root: string, gates: readonly ResolvedGate[], baseline?: Baseline): Promise<GateResult[]> {
  const out: GateResult[] = [];
  for (const gate of gates) out.push(await evaluateGate(root, gate, baseline));
  return out;
}
