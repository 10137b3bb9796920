import type { Context } from '../../context.js';
import { displayPath } from '../../paths.js';
import { reviewLines } from '../../orientation-review.js';
import { ORIENTATION_REPORT, startTask, startTaskResult, type TaskStartInput } from '../../operations/orchestrator-lifecycle.js';
import { withInput } from '../../option-values.js';
import { printDirective } from '../../task-session.js';
import { taskStartInput } from './inputs.js';

/**
 * `ratchet task start --task-id ID`: begin (or, after a failure, re-orient) a task and run the
 * orientation cascade (src/operations/orchestrator-lifecycle.ts). Orientation failing at L1 leaves
 * the task in ERROR with the reason, exit 2.
 */
async function taskStart(ctx: Context, input: TaskStartInput): Promise<number> {
  const outcome = await startTask(ctx, input);
  const result = startTaskResult(ctx, outcome);
  if (ctx.json) {
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  const { taskId } = outcome;
  if (!outcome.started) {
    const err = outcome.error;
    const place = [displayPath(ctx, err.path), err.line, err.column].filter((x) => x !== undefined).join(':');
    ctx.io.stderr(`${place}: ${err.message}\n`);
    ctx.io.stderr(`Task ${taskId} is in ERROR (orientation failed at level 1). Fix the file, then run \`ratchet task start --task-id ${taskId}\` again.\n`);
    return result.exitCode;
  }
  const { report, session: planning } = outcome;
  const { level2, level3 } = report;
  const broken = level2.artifacts.filter((a) => !a.ok);
  ctx.out(`Task ${taskId} started (session ${planning.sessionId ?? ''}).`);
  ctx.out(`  L1 agent        ${report.level1.agent.name}${report.level1.agent.version ? ` ${report.level1.agent.version}` : ''} (${report.level1.path})`);
  ctx.out(`  L2 artifacts    ${level2.artifacts.length} in knowledge_core/${broken.length > 0 ? `; unreadable: ${broken.map((a) => `${a.path} (${a.error ?? ''})`).join(', ')}` : ''}`);
  for (const line of reviewLines(level2.review)) ctx.out(line);
  const fs = level3.filesystem;
  ctx.out(`  L3 file system  ${fs.ok ? `ok (write ${fs.writeMs} ms, read ${fs.readMs} ms, delete ${fs.deleteMs} ms)` : `FAILED: ${fs.error ?? ''}`}`);
  const net = level3.network;
  ctx.out(`  L3 network      ${net.skipped ? 'skipped (--no-network)' : net.ok ? `ok (${net.target}, ${net.ms} ms)` : `unreachable: ${net.target} ${net.error ?? ''}`}`);
  ctx.out(`  L3 environment  set: ${level3.environment.present.join(' ') || '(none)'}${level3.environment.missing.length ? `; unset: ${level3.environment.missing.join(' ')}` : ''}`);
  ctx.out(`Orientation report: ${ORIENTATION_REPORT}; logged TASK_START to logs/activity.log.jsonl.`);
  printDirective(ctx, planning);
  return result.exitCode;
}

export default withInput(taskStartInput, taskStart);
