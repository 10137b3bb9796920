/**
 * The plain data a protocol source holds. The known fields' types are derived from the default
 * schema's zod definition (schema.ts, the one source of the format: it also generates
 * schemas/protocol.schema.json and documents each field), with `import type` only: the main entry
 * validates with ajv and never loads zod. A project may extend the default schema with its own
 * fields, so both types also admit other keys (as `unknown`), which the strict zod object does not.
 */
import type { z } from 'zod';
import type { ProtocolRuleSchema, ProtocolSchema } from './schema.js';

/** The fields a project's extended schema may add: read as `unknown`, kept as they are. */
type Extensible<T> = T & { [key: string]: unknown };

/** One rule of a protocol: its id, what it requires, what enforces it (plus the original's kept data). */
export type ProtocolRule = Extensible<z.infer<typeof ProtocolRuleSchema>>;

/**
 * A *.protocol.json source. `deprecated_tools`: tools a lesson retired, still listed (so readers
 * know not to use them), never recommended.
 */
export type Protocol = Extensible<Omit<z.infer<typeof ProtocolSchema>, 'rules'> & { rules: ProtocolRule[] }>;

export interface ProtocolSource {
  /** Path of the *.protocol.json file (as found under the protocols directory). */
  file: string;
  /** File name relative to the protocols directory: the sort key of the compiled output. */
  name: string;
  protocol: Protocol;
  /** The paired *.protocol.md prose, if any. */
  prose?: { file: string; text: string } | undefined;
}

export interface ProtocolSet {
  dir: string;
  /** From the VERSION file (semver), if there is one. */
  version: string | undefined;
  /** Sorted by file name, so the output order is stable and chosen by the author (prefix numbers). */
  sources: ProtocolSource[];
  /**
   * Prose files that belong to no protocol (the original Jules layout's `00-introduction.md`):
   * compiled as prose, in file-name order among the protocols. Sorted by name.
   */
  prose?: { file: string; name: string; text: string }[];
  /**
   * Files in the directory that look like sources but are not, with why: the original's generated
   * `_z_child_summary_*` leftovers and `*.autodoc.md` placeholders. Callers show them as notes.
   */
  skipped?: { file: string; reason: string }[];
}
