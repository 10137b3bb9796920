/**
 * What a Ratchet MCP tool is: a name, a one-line description, an input shape, and how its
 * arguments become a `ratchet` argv. The shape is built from the zod the server passes in, so
 * reading the tool table (presets, docs, the bin's start-up check) never imports zod or the SDK.
 */
import type * as z from 'zod';
import type { Argv } from './argv.js';

export type Preset = 'core' | 'standard' | 'all';
export type ToolArgs = Record<string, unknown>;
export type Zod = typeof z;

export interface ToolSpec {
  /** The MCP tool name, `<group>_<command>` in snake case. */
  name: string;
  /** The smallest preset that includes it (`standard` includes `core`, `all` includes both). */
  preset: Preset;
  /** Short: every description is sent to the model with each request. */
  description: string;
  shape: (z: Zod) => z.ZodRawShape;
  argv: (args: ToolArgs) => Argv;
  /**
   * Arguments that name a file or directory. A model supplies them, so each must resolve inside
   * the project (the store's own check) before the command runs, including where the CLI trusts
   * its human user with a path elsewhere (a --session file, a jixo log).
   */
  paths?: readonly string[];
  /** Content the command reads as standard input (`-`), from an argument. */
  stdin?: (args: ToolArgs) => string | undefined;
  /**
   * Exit 1 means "the check found problems" (lint findings): a successful call whose result says
   * ok:false. For every other tool exit 1 means the command refused to do what was asked.
   */
  findings?: boolean;
}
