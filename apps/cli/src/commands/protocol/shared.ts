/**
 * What `protocol compile` and `lessons apply` share: the usage provider built from the CLI's own
 * command tree (so embedded usage cannot drift from the tool) and the compile call.
 */
import { relative, resolve, sep } from 'node:path';
import type { Command } from 'commander';
import { compileProtocols, type CompileResult } from '@ratchet/protocol-compiler';
import type { Context, Io } from '../../context.js';
import { buildProgram } from '../../program.js';

/** Fixed so the compiled docs do not depend on the terminal that ran the compiler. */
const HELP_WIDTH = 100;

/**
 * `usageFor('ratchet plan lint')` -> that command's help text, or undefined when the tool is not a
 * ratchet command (yet). Builds a private program: its output goes nowhere.
 */
export function cliUsage(): (tool: string) => string | undefined {
  const silent: Io = { stdout: () => {}, stderr: () => {}, isTTY: false, env: {}, cwd: '/', readStdin: () => Promise.resolve('') };
  const program = buildProgram(silent, { exitCode: 0 });
  return (tool) => {
    const words = tool.trim().split(/\s+/);
    if (words[0] !== 'ratchet' || words.length < 2) return undefined;
    let cmd: Command | undefined = program;
    for (const word of words.slice(1)) {
      cmd = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
      if (cmd === undefined) return undefined;
    }
    cmd.configureHelp({ ...cmd.configureHelp(), helpWidth: HELP_WIDTH });
    return cmd.helpInformation();
  };
}

export function displayPath(ctx: Context, path: string): string {
  const rel = relative(ctx.cwd, path);
  return (rel === '' ? '.' : rel.startsWith('..') ? path : rel).split(sep).join('/');
}

export interface CompileFlags {
  protocols?: string;
  out?: string[];
  check?: boolean;
  timestamp?: boolean;
}

export function compileTargets(ctx: Context, flags: CompileFlags): Promise<CompileResult> {
  const protocolsDir = resolve(ctx.cwd, flags.protocols ?? 'protocols');
  const outs = flags.out !== undefined && flags.out.length > 0 ? flags.out : ['AGENTS.md'];
  return compileProtocols({
    protocolsDir,
    targets: [...new Set(outs.map((o) => resolve(ctx.cwd, o)))],
    check: flags.check === true,
    usageFor: cliUsage(),
    timestamp: flags.timestamp === true ? new Date().toISOString() : undefined,
    sourceLabel: `${displayPath(ctx, protocolsDir)}/`,
    labelFor: (t) => displayPath(ctx, t),
  });
}
