/**
 * What `protocol compile`, `protocol update` and `lessons apply` share: the usage provider built from
 * the CLI's own command tree (so embedded usage cannot drift from the tool), the plan vocabulary
 * from the project's dialects (plan-vocabulary.ts), the compile call, and
 * the report of protocol problems (every one, each with its file and place).
 */
import { checkOwnedOutput, type OutputRule } from '../../owned-output.js';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { CONFIG_FILE, ProtocolError, compileProtocols, describeProblem, problemsOf, readCompileConfig, resolveInsideRoot, type CompileResult, type Detail } from '@ratchet/protocol-compiler';
import { OutsideRootError, resolveInsideRoot as resolveInStore } from '@ratchet/store';
import type { Context } from '../../context.js';
import type { OperationResult } from '../../operations/invoke.js';
import { CliError } from '../../errors.js';
import type { CommandAction } from '../../program.js';
import { EXIT_USAGE } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import { wholeProgram } from '../../whole-program.js';
import { planVocabularies } from '../../plan-vocabulary.js';

export { displayPath };

/** Fixed so the compiled docs do not depend on the terminal that ran the compiler. */
const HELP_WIDTH = 100;

/** `ratchet <command...>`: a tool whose usage the CLI must be able to embed. */
export function isRatchetTool(tool: string): boolean {
  return /^ratchet\s+\S/.test(tool.trim());
}

/**
 * `usageFor('ratchet plan lint')` -> that command's help text, or undefined when the tool is not a
 * ratchet command. By default it reads a private copy of the whole program (output goes nowhere);
 * tests pass their own to show the docs follow the definitions.
 */
export async function cliUsage(program?: Command): Promise<(tool: string) => string | undefined> {
  const root = program ?? (await wholeProgram());
  return (tool) => {
    if (!isRatchetTool(tool)) return undefined;
    let cmd: Command | undefined = root;
    for (const word of tool.trim().split(/\s+/).slice(1)) {
      cmd = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
      if (cmd === undefined) return undefined;
    }
    cmd.configureHelp({ ...cmd.configureHelp(), helpWidth: HELP_WIDTH });
    return cmd.helpInformation();
  };
}

/** For `add-tool`: refuses a `ratchet ...` tool this CLI does not have (it could never be documented). */
export async function ratchetToolCheck(): Promise<(tool: string) => string | undefined> {
  const usage = await cliUsage();
  return (tool) => (isRatchetTool(tool) && usage(tool) === undefined ? `"${tool}" is not a ratchet command (see \`ratchet --help\`)` : undefined);
}

export interface CompileFlags {
  protocols?: string;
  out?: string[];
  check?: boolean;
  timestamp?: boolean;
  /** Unset: each target keeps the detail it was written with; a new target is compact. */
  detail?: Detail | undefined;
  /** Source texts to use instead of the files (a dry run's edits). */
  overrides?: ReadonlyMap<string, string>;
}

/**
 * The targets: `--out` when given, else `targets` of `<protocols>/compile.json`, else AGENTS.md. All
 * resolve inside the project, symlinks included: neither a flag an agent passes nor a file in the
 * repository (AGENTS.md itself may be a link) may make Ratchet write outside it.
 */
/** Compile targets: the Markdown instruction files agents read (AGENTS.md, CLAUDE.md, .cursor/rules/*.mdc, ...). */
const COMPILE_TARGET: OutputRule = { flag: '--out', what: 'an instruction file for agents (Markdown)', extensions: ['.md', '.mdc', '.markdown', '.txt'] };

export async function resolveTargets(ctx: Context, protocolsDir: string, out: readonly string[] | undefined): Promise<string[]> {
  if (out !== undefined && out.length > 0) {
    const targets: string[] = [];
    for (const o of out) {
      let target: string;
      try {
        target = resolveInStore(ctx.cwd, o, { allowAbsolute: true });
      } catch (err) {
        if (!(err instanceof OutsideRootError)) throw err;
        throw new CliError(`--out ${o} refused: ${err.reason}`, { code: 'outside-root', file: o });
      }
      checkOwnedOutput(ctx, target, COMPILE_TARGET);
      targets.push(target);
    }
    return [...new Set(targets)];
  }
  const config = await readCompileConfig(protocolsDir);
  if (config === undefined) return [await resolveInsideRoot(ctx.cwd, 'AGENTS.md', 'compile target')];
  const targets: string[] = [];
  for (const [i, target] of config.targets.entries()) {
    try {
      const abs = await resolveInsideRoot(ctx.cwd, target, 'compile target');
      checkOwnedOutput(ctx, abs, { ...COMPILE_TARGET, flag: 'target' });
      targets.push(abs);
    } catch (err) {
      const file = join(protocolsDir, CONFIG_FILE);
      throw new ProtocolError('bad-config', file, `/targets/${i}: ${(err as { reason?: string }).reason ?? (err as Error).message}`, { pointer: `/targets/${i}` });
    }
  }
  return [...new Set(targets)];
}

export async function compileTargets(ctx: Context, flags: CompileFlags): Promise<CompileResult> {
  const protocolsDir = resolve(ctx.cwd, flags.protocols ?? 'protocols');
  return compileProtocols({
    protocolsDir,
    targets: await resolveTargets(ctx, protocolsDir, flags.out),
    check: flags.check === true,
    detail: flags.detail,
    newTargetDetail: 'compact',
    usageFor: await cliUsage(),
    requireUsage: isRatchetTool,
    // The plan vocabulary follows the project's dialects: editing one makes `--check` report drift.
    vocabularies: planVocabularies(ctx),
    timestamp: flags.timestamp === true ? new Date().toISOString() : undefined,
    sourceLabel: `${displayPath(ctx, protocolsDir)}/`,
    labelFor: (t) => displayPath(ctx, t),
    overrides: flags.overrides,
    // A sub-folder (protocols/security) without its own protocol.schema.json uses the nearest one above it.
    schemaRoot: ctx.cwd,
  });
}

/**
 * Reports a protocol or file problem (all of them, when loading found several) and returns the
 * usage-error exit code; anything else is rethrown (a bug prints its stack).
 */
export function reportProblems(ctx: Context, err: unknown): number {
  const problems = problemsOf(err);
  if (problems === undefined) throw err;
  const shown = problems.map((p) => ({ ...p, file: displayPath(ctx, p.file) }));
  if (ctx.json) {
    ctx.emitJson(problemsDocument(err, shown));
  } else {
    for (const p of shown) {
      const place = p.line !== undefined ? `:${p.line}:${p.column ?? 1}` : '';
      // Errors are the one thing --quiet does not silence.
      ctx.io.stderr(`${p.file}${place}: ${describeProblem(p)}\n`);
    }
  }
  return EXIT_USAGE;
}

function problemsDocument(err: unknown, shown: { file: string; message: string }[]): Record<string, unknown> {
  const [first] = shown;
  return { ok: false, error: { ...first, message: (err as { reason?: string }).reason ?? first!.message }, problems: shown };
}

/**
 * A placed problem (file, line, pointer) as an operation's result: the document `--json` prints for
 * it (every problem, relative to the project) and exit 2; undefined for any other error.
 */
export function problemsResult(ctx: Context, err: unknown): OperationResult | undefined {
  const problems = problemsOf(err);
  if (problems === undefined) return undefined;
  return { exitCode: EXIT_USAGE, document: problemsDocument(err, problems.map((p) => ({ ...p, file: displayPath(ctx, p.file) }))) };
}

/** Wraps a command so a placed problem (file, line, pointer) prints relative to --cwd, all of them, exit 2. */
export function reportingProblems(command: CommandAction): CommandAction {
  return async (ctx, args, options) => {
    try {
      return await command(ctx, args, options);
    } catch (err) {
      return reportProblems(ctx, err);
    }
  };
}
