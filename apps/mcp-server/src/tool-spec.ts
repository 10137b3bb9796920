/**
 * What a Ratchet MCP tool is: a name, a one-line description, an input shape, and the CLI's typed
 * operation its arguments are the input of. The shape is built from the zod the server passes in,
 * so reading the tool table (presets, docs, the bin's start-up check) never imports zod or the SDK.
 */
import type { Context, OperationResult } from '@ratchet/cli';
import type * as z from 'zod';

export type Preset = 'core' | 'standard' | 'all';
export type ToolArgs = Record<string, unknown>;
export type Zod = typeof z;

export interface ToolBase {
  /** The MCP tool name, `<group>_<command>` in snake case. */
  name: string;
  /** The smallest preset that includes it (`standard` includes `core`, `all` includes both). */
  preset: Preset;
  /** A human-readable name for the tool (clients show it; MCP `title`). */
  title: string;
  /**
   * The CLI commands the tool runs (their words, e.g. `task start`), one per `action` where it has
   * several. Its MCP annotations are derived from their entries in the CLI's COMMAND_EFFECTS.
   */
  commands: readonly string[];
  /** Its writes remove or overwrite what was there (MCP destructiveHint); otherwise they only add. */
  destructive?: true;
  /** Calling it again with the same arguments changes nothing more (MCP idempotentHint). */
  idempotent?: true;
  /** It reaches beyond the project (the network, child processes) (MCP openWorldHint). */
  openWorld?: true;
  /**
   * The CLI's JSON Schema of the command's --json output (`run-next.v2` names
   * @ratchet/cli/schemas/output/run-next.v2.schema.json), where it has one; the tool's
   * outputSchema is built from it. Without one, the outline in result-outlines.ts is used.
   */
  output?: string;
  /** Short: every description is sent to the model with each request. */
  description: string;
  shape: (z: Zod) => z.ZodRawShape;
  /**
   * Arguments that name a file or directory. A model supplies them, so each must resolve inside
   * the project (the store's own check) before the command runs, including where the CLI trusts
   * its human user with a path elsewhere (a --session file, a jixo log).
   */
  paths?: readonly string[];
  /**
   * Exit 1 means "the check found problems" (lint findings): a successful call whose result says
   * ok:false. For every other tool exit 1 means the command refused to do what was asked.
   */
  findings?: boolean;
}

/**
 * How a tool runs: the CLI's typed operation (built with `operationTool`), given the tool's arguments
 * as its input, with the result handed back as a value.
 */
export type ToolSpec = ToolBase & {
  operation: (ctx: Context, args: ToolArgs) => Promise<OperationResult>;
  /** Which of `commands` this call is (a tool with one per `outcome` or `action`); default the first. */
  command?: (args: ToolArgs) => string;
};

/** A tool's arguments as its zod shape defines them: the input the MCP SDK validated. */
export type ArgsOf<S extends z.ZodRawShape> = z.infer<z.ZodObject<S>>;

/**
 * A tool that runs a typed operation: `operation` receives the arguments typed by the tool's own
 * shape (the SDK validated them against it before the call), so the tool's input is the
 * operation's input with nothing parsed twice. The operation is loaded on the first call
 * (`await import('@ratchet/cli')` inside it), so reading the tool table loads no CLI code.
 */
export function operationTool<S extends z.ZodRawShape>(
  spec: Omit<ToolBase, 'shape'> & {
    shape: (z: Zod) => S;
    operation: (ctx: Context, args: ArgsOf<S>) => Promise<OperationResult>;
    /** Which of `commands` the call with these arguments is, where the tool has several. */
    command?: (args: ArgsOf<S>) => string;
  },
): ToolSpec {
  const { operation, command, ...rest } = spec;
  return {
    ...rest,
    operation: (ctx, args) => operation(ctx, args as ArgsOf<S>),
    ...(command === undefined ? {} : { command: (args: ToolArgs) => command(args as ArgsOf<S>) }),
  };
}
