import { formatProgress } from '@ratchet/jixo-log';
import type { Context } from '../../context.js';
import { listJixoTasks, listJixoTasksResult, moveJixoTask, moveJixoTaskResult } from '../../operations/jixo-tasks.js';
import type { JixoLogInput, JixoTaskMoveInput } from '../../operations/jixo-input.js';
import { argument, withInput, type OptionBag } from '../../option-values.js';
import { taskInput } from './inputs.js';

type TaskCommandInput = { verb: 'list'; input: JixoLogInput } | { verb: 'move'; input: JixoTaskMoveInput };

function parse(args: readonly string[], options: OptionBag): TaskCommandInput {
  return args[0] === 'list' ? { verb: 'list', input: { log: argument(args, 1, 'log') } } : { verb: 'move', input: taskInput(args, options) };
}

/**
 * `ratchet jixo task lock|complete|fail|pause|add|retry|cancel|unblock|edit|depends|remove|list`: each
 * change is one locked, atomic write (src/operations/jixo-tasks.ts).
 */
async function task(ctx: Context, command: TaskCommandInput): Promise<number> {
  if (command.verb === 'list') {
    const listed = await listJixoTasks(ctx, command.input);
    const result = listJixoTasksResult(listed);
    if (ctx.json) ctx.emitJson(result.document);
    else {
      for (const t of listed.tasks) ctx.out(`${t.status!.padEnd(9)} ${t.text}${t.runner ? `  [${t.runner}${t.leaseUntil ? ` until ${t.leaseUntil}` : ''}]` : ''}`);
      ctx.out(`progress ${formatProgress(listed.progress)}`);
    }
    return result.exitCode;
  }
  const moved = await moveJixoTask(ctx, command.input);
  const result = moveJixoTaskResult(moved);
  if (ctx.json) ctx.emitJson(result.document);
  else ctx.out(`${moved.verb}: ${moved.target ? `${moved.target.text} -> ${moved.target.status ?? 'phase'}` : 'done'} (progress ${formatProgress(moved.progress)})`);
  return result.exitCode;
}
export default withInput(parse, task);
