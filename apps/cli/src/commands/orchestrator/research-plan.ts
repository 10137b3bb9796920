import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { moveTo, researchPlan, researchSlug, normaliseTopic, type Session } from '@ratchet/orchestrator';
import { formatStylish, hasErrors, lintPlan } from '@ratchet/plan-lint';
import { writeFileAtomic } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { resolvePath } from '../../paths.js';
import { loadPlanProject, researchDialectPath } from '../../plan-project.js';
import { lifecycleMachine, logActivity, openTaskSession, printDirective, sessionJson } from '../../task-session.js';

/**
 * `ratchet research plan "<topic>"`: write an L4 deep-research plan (research dialect) to
 * research/<id>/plan.txt, lint it against the research FSM, and, when a task is in PLANNING, move
 * the lifecycle into the research cycle (PLANNING -> RESEARCHING -> AWAITING_RESULT) until
 * `ratchet research done`.
 */
export default async function researchPlanCommand(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const raw = args.join(' ');
  if (raw.trim() === '') throw new CliError('research plan: missing <topic>');
  const topic = normaliseTopic(raw);
  const id = uniqueId(ctx, researchSlug(topic));
  const plan = researchPlan(topic, { researchId: id });
  const planPath = `research/${id}/plan.txt`;
  await writeFileAtomic(resolvePath(ctx, planPath), plan.text, { createParentDirs: true });

  // Belt and braces: the planner is property-tested to lint clean; a project dialect could differ.
  const dialect = researchDialectPath(ctx.cwd);
  const project = await loadPlanProject(ctx, planPath, { root: ctx.cwd, dialect });
  const { findings } = lintPlan(project);
  if (hasErrors(findings)) {
    await rm(resolvePath(ctx, `research/${id}`), { recursive: true, force: true });
    throw new CliError(`the generated research plan does not lint against ${dialect}:\n${formatStylish(findings, { color: false })}`, { code: 'research-plan-lint', exitCode: 1 });
  }

  const { session: file, exists } = openTaskSession(ctx, options);
  let session: Session | undefined = exists ? await file.read() : undefined;
  let entered = false;
  const machine = lifecycleMachine(ctx);
  if (session?.state === 'PLANNING') {
    const now = (): Date => new Date();
    session = await file.update((s) => ({
      ...moveTo(moveTo(s, 'RESEARCHING', { now, machine, message: topic }), 'AWAITING_RESULT', { now, machine, message: planPath }),
      research: { topic, planPath, reportPath: plan.reportPath, startedAt: now().toISOString() },
    }));
    entered = true;
    await logActivity(ctx, session, { type: 'RESEARCH_START', status: 'INFO', message: topic, details: { plan: planPath, report: plan.reportPath } });
  }

  if (ctx.json) {
    ctx.emitJson({ ok: true, topic, plan: planPath, report: plan.reportPath, text: plan.text, lifecycle: entered ? sessionJson(session!, machine) : null });
    return EXIT_OK;
  }
  ctx.out(`Research plan written to ${planPath} (lint-clean against the research FSM); it creates ${plan.reportPath}.`);
  if (entered) {
    ctx.out(`Task ${session!.taskId} entered the research cycle: ${session!.state}.`);
    printDirective(ctx, session);
  } else ctx.out(session ? `(task ${session.taskId} is in ${session.state}, not PLANNING: the lifecycle is unchanged)` : '(no task session: the lifecycle is unchanged)');
  return EXIT_OK;
}

/** research/<slug>, or research/<slug>-2, -3, ... when taken: an earlier study is never overwritten. */
function uniqueId(ctx: Context, slug: string): string {
  for (let n = 1; ; n++) {
    const id = n === 1 ? slug : `${slug}-${n}`;
    if (!existsSync(join(resolvePath(ctx, 'research'), id))) return id;
  }
}
