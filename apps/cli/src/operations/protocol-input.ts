/**
 * The inputs of the protocol area's operations (src/operations/protocol.ts), apart from the
 * operations so that their declarations import no library type.
 */

/** How much a compiled block says; protocol.ts checks at compile time that this is the compiler's list. */
export const PROTOCOL_DETAILS = ['compact', 'full'] as const;
export type ProtocolDetail = (typeof PROTOCOL_DETAILS)[number];

export interface CompileProtocolsInput {
  /** The directory of *.protocol.json sources, relative to the project (default protocols). */
  protocols?: string | undefined;
  /** Target files, each inside the project (default: the targets of <protocols>/compile.json, else AGENTS.md). */
  out?: string[] | undefined;
  /** Write nothing; a stale target is the result (exit 1), with its diff. */
  check?: boolean | undefined;
  /** Add a "Compiled at" line. */
  timestamp?: boolean | undefined;
  /** Unset: each target keeps the detail it was written with; a new target is compact. */
  detail?: ProtocolDetail | undefined;
}

/** One edit of a protocol source: a tool added or deprecated, or a rule's description replaced. */
export type ProtocolEditInput = { action: 'add-tool' | 'deprecate-tool'; protocolId: string; tool: string } | { action: 'update-rule'; protocolId: string; ruleId: string; description: string };

export type UpdateProtocolInput = ProtocolEditInput & {
  /** The protocols directory, relative to the project (default protocols). */
  protocols?: string | undefined;
  /** Show the diff, write nothing. */
  dryRun?: boolean | undefined;
};
