/**
 * Runs one tool in this process and turns its outcome into an MCP tool result. Every tool is a typed
 * operation of the CLI's application layer: its arguments are the operation's input and its result
 * document comes back as a value. No argv is built and nothing printed is parsed.
 */
import { EXIT_OK, EXIT_PROBLEMS, type Context, type OperationOutcome, type OperationResult } from '@ratchet/cli';
import { resolveInsideRoot } from '@ratchet/store';
import { captureIo } from './capture-io.js';
import { MissingArgument } from './tool-args.js';
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
  exitCode: number;
  /** The error's one-line text on a failure, else what the operation wrote to stderr (warnings). */
  stderr: string;
  /** The result document, or on a failure the CLI's error document. */
  document: Record<string, unknown>;
}

/** Runs the tool: its typed operation with the arguments as input, as the agent, in the project. */
export async function runCommand(spec: ToolSpec, args: ToolArgs, options: InvokeOptions): Promise<CommandOutcome> {
  // The command it is (`lessons list`): the trust boundary and the command effects table know it by that.
  const command = (): string => {
    const chosen = spec.command?.(args) ?? spec.commands[0]!;
    if (!spec.commands.includes(chosen)) throw new Error(`tool ${spec.name}: ${chosen} is not one of its commands (${spec.commands.join(', ')})`);
    return chosen;
  };
  return runOperation(command, (ctx) => spec.operation(ctx, args), options);
}

/** `operation` as the command `command` would run it, as the agent, in the project (the tools and the resources). */
export async function runOperation(command: string | (() => string), operation: (ctx: Context) => Promise<OperationResult>, options: InvokeOptions): Promise<CommandOutcome> {
  const { CliError, invokeOperation } = await import('@ratchet/cli');
  // An argument the choice of command needs, missing: the CLI's usage error (exit 2, `bad-option`).
  const chosen =
    typeof command === 'string'
      ? command
      : (): string => {
          try {
            return command();
          } catch (err) {
            throw err instanceof MissingArgument ? new CliError(err.message, { code: 'bad-option' }) : err;
          }
        };
  const capture = captureIo({ cwd: options.project, env: agentEnv(options) });
  const outcome: OperationOutcome = await invokeOperation(capture.io, options.project, chosen, operation);
  return { exitCode: outcome.exitCode, stderr: outcome.message ?? capture.stderr(), document: outcome.document };
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
    // invokeOperation reports the operation's failures itself; this is a failure around it (a path
    // outside the project, an argument one action needs): still a tool error.
    return errorResult(err instanceof Error ? err.message : String(err));
  }
}

/**
 * Exit 0, or exit 1 of a check (`findings`): the document is the result. Exit 1 of any other
 * command means it refused to do what was asked, exit 2 a usage or input error, anything else an
 * internal error: a tool error whose text is the CLI's own message.
 */
export function toToolResult(spec: ToolSpec, outcome: CommandOutcome): ToolResult {
  const { document } = outcome;
  const ok = outcome.exitCode === EXIT_OK || (outcome.exitCode === EXIT_PROBLEMS && spec.findings === true);
  if (ok) return { content: [{ type: 'text', text: JSON.stringify(document) }], structuredContent: document };
  // A refusal without an error message (a plan rejected for its findings) shows its document.
  return errorResult(errorMessage(document) ?? JSON.stringify(document), document);
}

function errorResult(text: string, document?: Record<string, unknown>): ToolResult {
  return document === undefined ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }], structuredContent: document, isError: true };
}

/** The CLI's error message, after the place it names (`file:line:col: `) as the CLI prints it on stderr. */
function errorMessage(document: Record<string, unknown> | undefined): string | undefined {
  const error = document?.error as { message?: unknown; file?: unknown; line?: unknown; column?: unknown } | undefined;
  if (error === null || typeof error !== 'object' || typeof error.message !== 'string') return undefined;
  if (typeof error.file !== 'string') return error.message;
  const place = [error.file, error.line, error.line === undefined ? undefined : error.column].filter((p) => typeof p === 'string' || typeof p === 'number').join(':');
  return `${place}: ${error.message}`;
}
