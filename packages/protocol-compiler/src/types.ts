/** The plain data a protocol source holds (the default schema; a project may extend it). */
export interface ProtocolRule {
  rule_id: string;
  description: string;
  enforcement: string;
  [key: string]: unknown;
}

export interface Protocol {
  protocol_id: string;
  description: string;
  rules: ProtocolRule[];
  associated_tools?: string[];
  associated_artifacts?: string[];
  /** Tools a lesson retired: still listed (so readers know not to use them), never recommended. */
  deprecated_tools?: string[];
  [key: string]: unknown;
}

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
