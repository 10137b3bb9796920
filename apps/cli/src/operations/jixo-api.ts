/**
 * The JIXO area as the faces that take results as values call it (the MCP tools): each operation
 * with its result as the `--json` document and exit code. Declared here, apart from jixo.ts,
 * jixo-tasks.ts and jixo-worklog.ts, so that the CLI's public types import no library type; the
 * operations load on the first call.
 */
import type { Context } from '../context.js';
import type { OperationResult } from './invoke.js';
import type { JixoCheckInput, JixoClarifyInput, JixoLockInput, JixoLogChangeInput, JixoLogInput, JixoTaskMoveInput, JixoTriageInput, JixoUnlockInput } from './jixo-input.js';

export const jixoOperations = {
  /** `jixo check`: exit 1 (findings) when the file has errors. */
  check: async (ctx: Context, input: JixoCheckInput): Promise<OperationResult> => {
    const ops = await import('./jixo.js');
    return ops.checkJixoFileResult(await ops.checkJixoFile(ctx, input));
  },
  triage: async (ctx: Context, input: JixoTriageInput): Promise<OperationResult> => {
    const ops = await import('./jixo.js');
    return ops.triageJobResult(await ops.triageJob(ctx, input));
  },
  /** Records the lock as an obligation the Stop hook sees, as the command does. */
  lock: async (ctx: Context, input: JixoLockInput): Promise<OperationResult> => {
    const ops = await import('./jixo.js');
    return ops.lockJixoLogResult(await ops.lockJixoLog(ctx, input));
  },
  unlock: async (ctx: Context, input: JixoUnlockInput): Promise<OperationResult> => {
    const ops = await import('./jixo.js');
    return ops.unlockJixoLogResult(await ops.unlockJixoLog(ctx, input));
  },
  taskList: async (ctx: Context, input: JixoLogInput): Promise<OperationResult> => {
    const ops = await import('./jixo-tasks.js');
    return ops.listJixoTasksResult(await ops.listJixoTasks(ctx, input));
  },
  /** Every `jixo task <verb>` change: lock, complete, fail, pause, and the Planner's moves. */
  task: async (ctx: Context, input: JixoTaskMoveInput): Promise<OperationResult> => {
    const ops = await import('./jixo-tasks.js');
    return ops.moveJixoTaskResult(await ops.moveJixoTask(ctx, input));
  },
  /** `jixo log add`, `jixo title`, `jixo progress`, `jixo exit`. */
  log: async (ctx: Context, input: JixoLogChangeInput): Promise<OperationResult> => {
    const ops = await import('./jixo-worklog.js');
    return ops.changeJixoLogResult(await ops.changeJixoLog(ctx, input));
  },
  clarify: async (ctx: Context, input: JixoClarifyInput): Promise<OperationResult> => {
    const ops = await import('./jixo.js');
    return ops.clarifyJobResult(await ops.clarifyJob(ctx, input));
  },
};
