import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { enterResearch, legalTriggers, researchPlan, researchSlug, normaliseTopic, type Session } from '@ratchet/orchestrator';
import type { Machine } from '@ratchet/fsm-core';
import { formatStylish, hasErrors, lintPlan } from '@ratchet/plan-lint';
import { writeFileAtomic } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { displayPath, resolvePath } from '../../paths.js';
import { defaultDialectPath, loadPlanProject, researchDialectPath } from '../../plan-project.js';
import { LIFECYCLE_FSM, asCliError, isPlanRunError, lifecycleMachine, logActivity, openTaskSession, printDirective, sessionJson } from '../../task-session.js';

/**
 * `ratchet research plan "<topic>"`: write an L4 deep-research plan to research/<id>/plan.txt, lint
 * it in the research dialect and in the project's default plan language (so it also runs as a
 * call_plan sub-plan), and, when the task may start research (PLANNING, or EXECUTING: the running
 * plan is paused under it), enter the research cycle: RESEARCHING serves the plan's steps through
 * `run next` / `run done`, then `research done` returns to where it started.
 */
export default async function researchPlanCommand(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const raw = args.join(' ');
  if (raw.trim() === '') throw new CliError('research plan: missing <topic>');
  const topic = normaliseTopic(raw);
  const id = uniqueId(ctx, researchSlug(topic));
  const plan = researchPlan(topic, { researchId: id });
  const planPath = `research/${id}/plan.txt`;
  await writeFileAtomic(resolvePath(ctx, planPath), plan.text, { createParentDirs: true });

  // Belt and braces: the planner is property-tested to lint clean in both; a project's own copies could differ.
  for (const dialect of [researchDialectPath(ctx.cwd), defaultDialectPath(ctx.cwd)]) {
    const project = await loadPlanProject(ctx, planPath, { root: ctx.cwd, dialect });
    const { findings } = lintPlan(project);
    if (hasErrors(findings)) {
      await rm(resolvePath(ctx, `research/${id}`), { recursive: true, force: true });
      throw new CliError(`the generated research plan does not lint against ${displayPath(ctx, dialect)}:\n${formatStylish(findings, { color: false })}`, { code: 'research-plan-lint', exitCode: 1 });
    }
  }

  const { session: file, exists } = openTaskSession(ctx, options);
  let session: Session | undefined = exists ? await file.read() : undefined;
  let entered = false;
  const machine = await lifecycleMachine(ctx);
  // The lifecycle says where research may start (research_needed): PLANNING and EXECUTING in the shipped one.
  if (session !== undefined && legalTriggers(session, machine).includes('research_needed')) {
    requireResearchSteps(ctx, session, machine, planPath);
    const now = (): Date => new Date();
    const before = session;
    try {
      session = await file.update((s) => enterResearch(s, { topic, planPath, reportPath: plan.reportPath, text: plan.text }, { now, machine }));
    } catch (err) {
      if (isPlanRunError(err)) throw new CliError(err.message, { code: err.code, exitCode: 1 });
      asCliError(err, before, 'research plan');
    }
    entered = true;
    await logActivity(ctx, session, { type: 'RESEARCH_START', status: 'INFO', message: topic, details: { plan: planPath, report: plan.reportPath, from: before.state } });
  }

  if (ctx.json) {
    ctx.emitJson({ ok: true, topic, plan: planPath, report: plan.reportPath, text: plan.text, lifecycle: entered ? sessionJson(session!, machine) : null, ...(entered ? { next: printDirective({ ...ctx, out: () => undefined }, session) } : {}) });
    return EXIT_OK;
  }
  ctx.out(`Research plan written to ${planPath} (lint-clean in the research and the default plan language); it creates ${plan.reportPath}.`);
  if (entered) {
    const paused = session!.research?.from === 'EXECUTING' ? ' (the running plan is paused until `ratchet research done`)' : '';
    ctx.out(`Task ${session!.taskId} entered the research cycle: ${session!.state}${paused}.`);
    printDirective(ctx, session);
  } else ctx.out(session ? `(task ${session.taskId} is in ${session.state}, where research cannot start: the lifecycle is unchanged)` : '(no task session: the lifecycle is unchanged)');
  return EXIT_OK;
}

/**
 * A lifecycle copied before research steps existed moves into RESEARCHING but has no move on from
 * there (`run done` would be refused for ever): say so, naming the file, before the task enters it.
 */
function requireResearchSteps(ctx: Context, session: Session, machine: Machine, planPath: string): void {
  const inResearch = legalTriggers({ ...session, state: 'RESEARCHING' }, machine);
  const missing = ['research_step_complete', 'research_plan_complete'].filter((t) => !inResearch.includes(t));
  if (missing.length === 0) return;
  throw new CliError(
    `${LIFECYCLE_FSM} has no ${missing.join(' or ')} from RESEARCHING, so the research plan's steps could not run; the plan is written, and the task stays in ${session.state}. Add the research transitions from Ratchet's shipped copy (\`ratchet init\` writes it in an empty directory), or run the plan as a sub-plan: call_plan ${planPath}`,
    { code: 'lifecycle-without-research-steps', file: resolvePath(ctx, LIFECYCLE_FSM) },
  );
}

/** research/<slug>, or research/<slug>-2, -3, ... when taken: an earlier study is never overwritten. */
function uniqueId(ctx: Context, slug: string): string {
  for (let n = 1; ; n++) {
    const id = n === 1 ? slug : `${slug}-${n}`;
    if (!existsSync(join(resolvePath(ctx, 'research'), id))) return id;
  }
}
