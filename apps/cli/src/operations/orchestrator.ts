/**
 * The task lifecycle's read operations as typed operations (`ratchet run status`, `run next`; the
 * MCP tools `run_status`, `run_next`): each reads the task session and answers with the document
 * `--json` prints (run-status.v1, run-next.v2) and the command's exit code. The commands render the
 * same session for people.
 */
import { SESSION_SCHEMA_URL, SESSION_SCHEMA_VERSION, currentStep, legalTriggers, nextDirective } from '@ratchet/orchestrator';
import type { Context } from '../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import { versioned } from '../output/json-output.js';
import { allowedCommands, lifecycleMachine, sessionJson, taskSessionAt } from '../task-session.js';
import type { OperationResult } from './invoke.js';
import type { TaskSessionInput } from './orchestrator-input.js';

export type { TaskSessionInput } from './orchestrator-input.js';

/** The lifecycle state, the commands allowed in it, the plan stack and the current step. Read-only; no session is START. */
export async function runStatusResult(ctx: Context, input: TaskSessionInput): Promise<OperationResult> {
  const { session: file, exists } = taskSessionAt(ctx, input.session);
  if (!exists) return { exitCode: EXIT_OK, document: versioned('run-status', { ok: true, session: null, state: 'START' }) };
  const session = file.readSync();
  const machine = await lifecycleMachine(ctx);
  // The session as its file holds it (with the envelope), so the session schema describes it.
  return {
    exitCode: EXIT_OK,
    document: versioned('run-status', {
      ok: true,
      session: { $schema: SESSION_SCHEMA_URL, schemaVersion: SESSION_SCHEMA_VERSION, ...session },
      legal: legalTriggers(session, machine),
      allowed: allowedCommands(session, machine),
      step: currentStep(session) ?? null,
    }),
  };
}

/**
 * The step to execute now. Read-only. Exit 0 when a step is pending; exit 1 when the task's state has
 * none (no task, planning, closed, ...), with what to do instead all the same.
 */
export async function runNextResult(ctx: Context, input: TaskSessionInput): Promise<OperationResult> {
  const { session: file, exists } = taskSessionAt(ctx, input.session);
  const session = exists ? file.readSync() : undefined;
  const next = nextDirective(session);
  const exitCode = next.step === undefined ? EXIT_PROBLEMS : EXIT_OK;
  return { exitCode, document: versioned('run-next', { ok: exitCode === EXIT_OK, ...(session ? sessionJson(session, await lifecycleMachine(ctx)) : { state: 'START' }), next }) };
}
