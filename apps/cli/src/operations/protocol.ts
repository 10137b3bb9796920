/**
 * The protocol area's writes as typed operations (`ratchet protocol compile|update`; the MCP tools
 * `protocol_compile`, `protocol_update`): render the protocols into their targets (confined to the
 * project, see resolveTargets) or check them, and edit a protocol source. Each returns its typed
 * outcome; `...Result` builds the `--json` document and exit code. A protocol problem is thrown
 * with its place; the faces report it (commands: reportProblems; values: orProblems).
 */
import { resolve } from 'node:path';
import { updateProtocol, type CompileResult, type Detail, type ProtocolEdit, type UpdateResult } from '@ratchet/protocol-compiler';
import { compileTargets, displayPath, ratchetToolCheck } from '../commands/protocol/shared.js';
import type { Context } from '../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import type { OperationResult } from './invoke.js';
import type { CompileProtocolsInput, PROTOCOL_DETAILS, UpdateProtocolInput } from './protocol-input.js';

export type { CompileProtocolsInput, ProtocolDetail, ProtocolEditInput, UpdateProtocolInput } from './protocol-input.js';
export { PROTOCOL_DETAILS } from './protocol-input.js';

// The list in protocol-input.ts is the compiler's details, all of them and no other.
type Listed = (typeof PROTOCOL_DETAILS)[number];
const everyDetailListed: [Exclude<Detail, Listed>] extends [never] ? ([Exclude<Listed, Detail>] extends [never] ? true : never) : never = true;
void everyDetailListed;

export interface ProtocolsCompiled {
  check: boolean;
  result: CompileResult;
}

export async function compileProtocolTargets(ctx: Context, input: CompileProtocolsInput): Promise<ProtocolsCompiled> {
  const check = input.check === true;
  const result = await compileTargets(ctx, { protocols: input.protocols, out: input.out, check, timestamp: input.timestamp === true, detail: input.detail });
  return { check, result };
}

/** Exit 1 when `check` found a stale target (its diff is in the document). */
export function compileProtocolsResult(ctx: Context, compiled: ProtocolsCompiled): OperationResult {
  const { check, result } = compiled;
  return {
    exitCode: result.stale ? EXIT_PROBLEMS : EXIT_OK,
    document: {
      ok: !result.stale,
      version: result.version ?? null,
      protocols: result.protocols,
      skipped: result.skipped.map((s) => ({ file: displayPath(ctx, s.file), reason: s.reason })),
      targets: result.targets.map((t) => ({ path: displayPath(ctx, t.path), status: t.status, detail: t.detail, ...(check && t.status !== 'unchanged' ? { diff: t.diff } : {}) })),
    },
  };
}

export interface ProtocolUpdated {
  dryRun: boolean;
  result: UpdateResult;
}

export async function updateProtocolSource(ctx: Context, input: UpdateProtocolInput): Promise<ProtocolUpdated> {
  const edit: ProtocolEdit =
    input.action === 'update-rule' ? { command: input.action, protocolId: input.protocolId, ruleId: input.ruleId, description: input.description } : { command: input.action, protocolId: input.protocolId, tool: input.tool };
  const dryRun = input.dryRun === true;
  const result = await updateProtocol(resolve(ctx.cwd, input.protocols ?? 'protocols'), edit, {
    dryRun,
    labelFor: (f) => displayPath(ctx, f),
    checkTool: await ratchetToolCheck(),
    schemaRoot: ctx.cwd,
  });
  return { dryRun, result };
}

export function updateProtocolResult(ctx: Context, updated: ProtocolUpdated): OperationResult {
  const { dryRun, result } = updated;
  return { exitCode: EXIT_OK, document: { ok: true, file: displayPath(ctx, result.file), changed: result.changed, dryRun, message: result.message, diff: result.diff } };
}
