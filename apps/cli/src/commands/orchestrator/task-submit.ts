import { POST_MORTEM_GAPS, fire, resetCommand, selfCorrectionGaps, type Session } from '@ratchet/orchestrator';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { selfCorrectionEvidence } from '../../self-correction-evidence.js';
import { checkTaskId, logActivity, printDirective, requireSession, requireTrigger, sessionJson } from '../../task-session.js';
import { versioned } from '../../output/json-output.js';

/** The trigger `task submit` fires first from each state on the way to DONE. */
const SUBMIT_FROM: Record<string, string> = { POST_MORTEM: 'post_mortem_complete', SELF_CORRECTING: 'lessons_applied', AWAITING_SUBMISSION: 'submit' };

/**
 * `ratchet task submit --task-id ID`: finish a closed task once self-correction is done. Refused
 * (exit 1, listing everything still missing, in order) until the post-mortem has every section
 * written and at least one lesson, its lessons are in the lessons file, each one is applied, failed
 * with a reason or manual, and AGENTS.md is current if a lesson changed a protocol. A filled-in
 * post-mortem moves the task to SELF_CORRECTING even when lessons are still missing; the rest walks
 * SELF_CORRECTING -> AWAITING_SUBMISSION -> DONE.
 */
export default async function taskSubmit(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const taskId = checkTaskId(options.taskId);
  const { file, session, machine } = await requireSession(ctx, options);
  if (session.taskId !== taskId) throw new CliError(`--task-id ${taskId}: the session's task is ${session.taskId}`, { code: 'wrong-task' });
  // Wherever on the way to DONE the task stands (a session stopped in AWAITING_SUBMISSION included), the gate below decides.
  requireTrigger(session, SUBMIT_FROM[session.state] ?? 'post_mortem_complete', machine, 'task submit');
  const pm = session.postMortem;
  if (!pm) {
    const how = session.state === 'POST_MORTEM' ? `close it with \`ratchet task close --task-id ${taskId}\`` : `the lifecycle has no way back to close it from ${session.state}: a person resets it with \`${resetCommand(taskId)}\``;
    throw new CliError(`task ${taskId} has no post-mortem recorded; ${how}`, { code: 'no-postmortem', exitCode: EXIT_PROBLEMS });
  }

  const gaps = selfCorrectionGaps(session, await selfCorrectionEvidence(ctx, session));
  const now = (): Date => new Date();
  const postMortemDone = !gaps.some((g) => POST_MORTEM_GAPS.has(g.code));
  // Every update re-checks the state inside the lock: a concurrent submit may have moved it on.
  const enter = (s: Session): Session => (s.state === 'POST_MORTEM' && postMortemDone ? fire(s, 'post_mortem_complete', { now, machine }) : s);

  if (gaps.length > 0) {
    const current = postMortemDone && session.state === 'POST_MORTEM' ? await file.update(enter) : session;
    if (ctx.json) ctx.emitJson({ ok: false, ...sessionJson(current, machine), missing: gaps, next: printDirective({ ...ctx, out: () => undefined }, current) });
    else {
      ctx.io.stderr(`Task ${taskId} cannot be submitted yet (${current.state}); missing:\n`);
      for (const [i, g] of gaps.entries()) ctx.io.stderr(`  ${i + 1}. ${g.what}\n     -> ${g.command}\n`);
    }
    return EXIT_PROBLEMS;
  }

  const done = await file.update((s) => {
    let t = enter(s);
    if (t.state === 'SELF_CORRECTING') t = fire(t, 'lessons_applied', { now, machine });
    return fire(t, 'submit', { now, machine });
  });
  await logActivity(ctx, done, { type: 'TASK_SUBMIT', status: 'SUCCESS', message: `task ${taskId} done`, details: { postMortem: pm.path, outcome: pm.outcome } });
  if (ctx.json) {
    ctx.emitJson(versioned('task-transition', { ok: true, ...sessionJson(done, machine), next: printDirective({ ...ctx, out: () => undefined }, done) }));
    return EXIT_OK;
  }
  ctx.out(`Task ${taskId} submitted: DONE.`);
  printDirective(ctx, done);
  return EXIT_OK;
}
