/**
 * Whether an artifact was written for this step of this session. A gate that only checks a file's
 * shape is satisfied by last week's memory files, so every step records, when it is entered, what
 * its artifacts hold (content digests; null when absent), and leaving it refuses a file that is still
 * what it was then. Copies of files accepted elsewhere are the ledger's business (ledger.ts).
 */
import { OutsideRootError, QUICK_MAX, quickHash, readTextFileSync, resolveInsideRoot, sha256Hex } from '@ratchet/store';

/** Artifacts larger than this do not count (a memory file is a few KiB). */
export const ARTIFACT_MAX_BYTES = 8 * 1024 * 1024;

/**
 * One content's digest: the store's quick hash for texts it checks that way, SHA-256 above (the
 * length decides, so equal texts always get equal digests). A collision could only refuse a fresh
 * file, never let a stale one through: a stale file has exactly the recorded content.
 */
export function contentDigest(text: string): string {
  return text.length <= QUICK_MAX ? `q:${quickHash(text)}` : `s:${sha256Hex(text)}`;
}

/** What a step's artifacts held when it was entered: artifact -> digest, null when there was no readable text file. */
export type Baseline = Record<string, string | null>;

/**
 * Digest each artifact as it is now. Never throws for a file: what cannot be read (missing, a
 * directory, binary, a link out of the project) is recorded as absent, and the gate reports it
 * properly when the step is left.
 */
// Async in the public API; the reads are synchronous (the promise FileHandle costs ~5 ms on first use).
// eslint-disable-next-line @typescript-eslint/require-await
export async function snapshot(root: string, artifacts: readonly { artifact: string; path: string }[]): Promise<Baseline> {
  const out: Baseline = {};
  for (const a of artifacts) {
    if (Object.hasOwn(out, a.artifact)) continue;
    out[a.artifact] = digestOrNull(root, a.path);
  }
  return out;
}

function digestOrNull(root: string, path: string): string | null {
  try {
    resolveInsideRoot(root, path, { allowAbsolute: true });
    return contentDigest(readTextFileSync(path, { maxBytes: ARTIFACT_MAX_BYTES }).text);
  } catch (err) {
    if (err instanceof OutsideRootError || (err as { code?: unknown }).code !== undefined) return null;
    throw err;
  }
}
