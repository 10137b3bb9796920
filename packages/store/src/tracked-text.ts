/**
 * State kept as text that is not one JSON document, written only by Ratchet and tracked by digest
 * like a document (`knowledge_core/lessons.jsonl`: one lesson per line, a bad line kept byte for
 * byte, so neither `openDocument` nor the append-only JSONL helpers fit). Reads check the text
 * against the digest record and refuse a hand edit with TamperedError; updates take the file's lock,
 * re-read and check inside it, and write with the digest record and the kept copy, in the order
 * digest.ts gives. A file without a record is not tracked and reads as it is; its first update
 * starts tracking it.
 */
import { checkDigest, readDigestRecord, writeTracked } from './digest.js';
import { NotFoundError } from './errors.js';
import { confined, lockedUpdate, type WriterOptions } from './locked-update.js';
import { readTextFileSync } from './read-file.js';

export interface TrackedTextOptions {
  /** Refuse files larger than this (bytes); also the limit a write must stay under. Default 16 MiB. */
  maxBytes?: number;
  /** The project root the file must stay in (see WriterOptions.root). */
  root?: string;
}

export interface TrackedText {
  /** The checked text; undefined when there is no file. */
  text: string | undefined;
  /** Whether a digest record guards the file (false: never written by Ratchet, or written before this version). */
  tracked: boolean;
}

/** The file's text, checked against its digest record (TamperedError on a hand edit). */
export function readTrackedText(path: string, options: TrackedTextOptions = {}): TrackedText {
  const file = confined(path, options);
  const reread = (): string | undefined => readOrUndefined(file, options.maxBytes);
  const text = checkDigest(file, reread(), reread);
  return { text, tracked: text !== undefined && readDigestRecord(file) !== undefined };
}

/**
 * Locked read-modify-write: `fn` gets the checked text (undefined: no file) and returns the new text
 * (undefined or the same text: nothing is written) and a result. If `fn` throws, nothing is written.
 */
export async function updateTrackedText<R>(
  path: string,
  fn: (text: string | undefined) => { text?: string | undefined; result: R } | Promise<{ text?: string | undefined; result: R }>,
  options: WriterOptions = {},
): Promise<R> {
  return lockedUpdate(path, options, async (beforeRename) => {
    const file = confined(path, options);
    const reread = (): string | undefined => readOrUndefined(file, options.maxBytes);
    const current = checkDigest(file, reread(), reread);
    const { text, result } = await fn(current);
    if (text !== undefined && text !== current) {
      const writtenAt = new Date((options.lock?.clock ?? Date.now)()).toISOString();
      await writeTracked(file, text, { writtenAt, replacing: current, beforeRename, ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }) });
    }
    return result;
  });
}

function readOrUndefined(path: string, maxBytes: number | undefined): string | undefined {
  try {
    return readTextFileSync(path, maxBytes === undefined ? {} : { maxBytes }).text;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}
