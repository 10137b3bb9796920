/** The parsed form of a plan: plain JSON (its JSON Schema is schemas/plan.schema.json). */
export interface CommandNode {
  kind: 'command';
  /** The command name (first word). */
  name: string;
  /** The arguments, split on whitespace. */
  args: string[];
  /** The rest of the line after the command name, trimmed (what `when.argsMatch` tests). */
  raw: string;
  line: number;
  /** Column of the command name (1-based). */
  column: number;
  /** Column where `raw` starts (1-based); equals the end of the line + 1 when there are no args. */
  argsColumn: number;
}

export interface ForEachNode {
  kind: 'for_each_file';
  glob: string;
  line: number;
  column: number;
  argsColumn: number;
  body: PlanNode[];
}

export interface CallNode {
  kind: 'call_plan';
  target: string;
  line: number;
  column: number;
  argsColumn: number;
}

export type PlanNode = CommandNode | ForEachNode | CallNode;

export interface Plan {
  /** Project-relative path of the plan file. */
  file: string;
  body: PlanNode[];
  /** Deepest for_each_file nesting in this plan (0: none). */
  loopDepth: number;
}

export const PLACEHOLDER = '{file}';
