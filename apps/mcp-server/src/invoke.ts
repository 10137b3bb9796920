/**
 * Runs one tool in this process and turns its outcome into an MCP tool result: a typed operation of
 * the CLI's application layer (its result document comes back as a value), or, for an area without
 * typed operations yet, a `ratchet` command run through the CLI's command layer with a capturing Io
 * (what it printed is parsed).
 */
import { EXIT_OK, EXIT_PROBLEMS, run, type OperationOutcome } from '@ratchet/cli';
import { resolveInsideRoot } from '@ratchet/store';
import { captureIo } from './capture-io.js';
import type { ToolArgs, ToolSpec } from './tool-spec.js';

export interface InvokeOptions {
  /** The project directory every command runs in (`--cwd`). */
  project: string;
  env: Record<string, string | undefined>;
  /** The client's id for this tool call, when it sent one (Claude Code does, in `_meta`). */
  toolUseId?: string | undefined;
}

/**
 * The environment a tool's command runs with: the server's, marked as the agent's MCP channel. The
 * MCP tools always act as the agent (no tool has an `as`, actor or accept argument), whatever the
 * server's own environment says; RATCHET_VIA tells the command layer which channel it serves.
 */
export function agentEnv(options: InvokeOptions): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...options.env, RATCHET_ACTOR: 'agent', RATCHET_VIA: 'mcp' };
  if (options.toolUseId === undefined) delete env.RATCHET_TOOL_USE_ID;
  else env.RATCHET_TOOL_USE_ID = options.toolUseId;
  return env;
}

/** The shape of an MCP CallToolResult, kept local so this module does not import the SDK. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface CommandOutcome {
  /** The argv run (empty for a typed operation). */
  argv: string[];
  exitCode: number;
  stdout: string;
  stderr: string;
  /** The result document, when the tool ran a typed operation (nothing printed to parse). */
  document?: Record<string, unknown> | undefined;
}

/**
 * Runs the tool: its typed operation with the arguments as input (the result comes back as a
 * value), or, for an area without typed operations yet, its command with `--json --cwd <project>`
 * (what it printed is read back).
 */
export async function runCommand(spec: ToolSpec, args: ToolArgs, options: InvokeOptions): Promise<CommandOutcome> {
  if (spec.operation !== undefined) return runOperation(spec, args, options);
  return runArgv(spec.argv(args).build(), options, spec.stdin?.(args));
}

/** The tool's typed operation, as the agent, in the project; its document is the result. */
async function runOperation(spec: ToolSpec & { operation: NonNullable<ToolSpec['operation']> }, args: ToolArgs, options: InvokeOptions): Promise<CommandOutcome> {
  const { invokeOperation } = await import('@ratchet/cli');
  const capture = captureIo({ cwd: options.project, env: agentEnv(options) });
  // The command it is (`lessons list`): the trust boundary and the command effects table know it by that.
  const command = spec.command?.(args) ?? spec.commands[0]!;
  if (!spec.commands.includes(command)) throw new Error(`tool ${spec.name}: ${command} is not one of its commands (${spec.commands.join(', ')})`);
  const outcome: OperationOutcome = await invokeOperation(capture.io, options.project, command, (ctx) => spec.operation(ctx, args));
  return { argv: [], exitCode: outcome.exitCode, stdout: '', stderr: outcome.message ?? capture.stderr(), document: outcome.document };
}

/** Runs `ratchet --json --cwd <project> <command>` as the agent, in process. */
export async function runArgv(command: readonly string[], options: InvokeOptions, stdin?: string): Promise<CommandOutcome> {
  const argv = ['--json', '--cwd', options.project, ...command];
  const capture = captureIo({ cwd: options.project, env: agentEnv(options), stdin });
  const exitCode = await run(argv, capture.io);
  return { argv, exitCode, stdout: capture.stdout(), stderr: capture.stderr() };
}

export async function invokeTool(spec: ToolSpec, args: ToolArgs, options: InvokeOptions): Promise<ToolResult> {
  try {
    for (const name of spec.paths ?? []) {
      const value = args[name];
      // A path argument may be a list (protocol_compile's out): every element is checked.
      for (const path of Array.isArray(value) ? value : [value]) if (typeof path === 'string') resolveInsideRoot(options.project, path, { allowAbsolute: true });
    }
    return toToolResult(spec, await runCommand(spec, args, options));
  } catch (err) {
    // run() reports command failures itself; this is a failure around it (a bug): still a tool error.
    return errorResult(err instanceof Error ? err.message : String(err));
  }
}

/**
 * Exit 0, or exit 1 of a check (`findings`): the document is the result. Exit 1 of any other
 * command means it refused to do what was asked, exit 2 a usage or input error, anything else an
 * internal error: a tool error whose text is the CLI's own message.
 */
export function toToolResult(spec: ToolSpec, outcome: CommandOutcome): ToolResult {
  const document = outcome.document ?? parseDocument(outcome.stdout);
  const ok = outcome.exitCode === EXIT_OK || (outcome.exitCode === EXIT_PROBLEMS && spec.findings === true);
  if (ok && document !== undefined) return { content: [{ type: 'text', text: JSON.stringify(document) }], structuredContent: document };
  // A refusal without an error message (a plan rejected for its findings) shows its document.
  const message =
    errorMessage(document) ??
    (document === undefined ? lastLine(outcome.stderr) || `ratchet ${outcome.argv.slice(3).join(' ')} exited with ${outcome.exitCode} without a JSON result` : JSON.stringify(document));
  return ok ? errorResult(message) : errorResult(message, document);
}

function errorResult(text: string, document?: Record<string, unknown>): ToolResult {
  return document === undefined ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }], structuredContent: document, isError: true };
}

/** The one JSON document a --json run prints; structured content must be an object, so others are wrapped. */
export function parseDocument(stdout: string): Record<string, unknown> | undefined {
  const text = stdout.trim();
  if (text === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { output: text };
  }
}

/** The CLI's error message, after the place it names (`file:line:col: `) as the CLI prints it on stderr. */
function errorMessage(document: Record<string, unknown> | undefined): string | undefined {
  const error = document?.error as { message?: unknown; file?: unknown; line?: unknown; column?: unknown } | undefined;
  if (error === null || typeof error !== 'object' || typeof error.message !== 'string') return undefined;
  if (typeof error.file !== 'string') return error.message;
  const place = [error.file, error.line, error.line === undefined ? undefined : error.column].filter((p) => typeof p === 'string' || typeof p === 'number').join(':');
  return `${place}: ${error.message}`;
}

function lastLine(text: string): string {
  return text.trimEnd().split('\n').pop() ?? '';
}
