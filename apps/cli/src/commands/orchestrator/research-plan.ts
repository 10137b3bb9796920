import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { enterResearch, legalTriggers, researchPlan, researchSlug, normaliseTopic, type Session } from '@ratchet/orchestrator';
import { isAcceptState, type Machine } from '@ratchet/fsm-core';
import { formatStylish, hasErrors, lintPlan } from '@ratchet/plan-lint';
import { writeFileAtomic } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { displayPath, resolvePath } from '../../paths.js';
import { defaultDialectPath, loadDialectFile, loadPlanProject, researchDialectPath } from '../../plan-project.js';
import { withBaseline } from '../../step-effect.js';
import { LIFECYCLE_FSM, asCliError, isPlanRunError, lifecycleMachine, logActivity, openTaskSession, printDirective, requireTrigger, sessionJson } from '../../task-session.js';

/**
 * `ratchet research plan "<topic>"`: write an L4 deep-research plan to research/<id>/plan.txt (the
 * seed's phases: review, scoping, broad gathering, targeted extraction, synthesis into the report),
 * lint it in the research dialect (refused when it does not lint: a project's own research dialect
 * may lack the research commands) and in the project's default plan language (a note when it does
 * not: it could not run as a call_plan sub-plan there), and, when the task may start research
 * (PLANNING, or EXECUTING: the running plan is paused under it), enter the research cycle:
 * RESEARCHING serves the plan's steps through `run next` / `run done`, then `research done` returns
 * to where it started. Without a task in progress it only writes the plan; in any other state it is
 * refused (exit 1) and writes nothing.
 */
export default async function researchPlanCommand(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const raw = args.join(' ');
  if (raw.trim() === '') throw new CliError('research plan: missing <topic>');
  const topic = normaliseTopic(raw);

  const { session: file, exists } = openTaskSession(ctx, options);
  let session: Session | undefined = exists ? await file.read() : undefined;
  const machine = await lifecycleMachine(ctx);
  // No task in progress: the plan is written for later (e.g. to call_plan it). A task in a state research
  // cannot start from (the lifecycle's research_needed): refused like any command in the wrong state.
  const inProgress = session !== undefined && session.state !== 'START' && !isAcceptState(machine, session.state);
  if (session !== undefined && inProgress) requireTrigger(session, 'research_needed', machine, 'research plan');

  const id = uniqueId(ctx, researchSlug(topic));
  const plan = researchPlan(topic, { researchId: id });
  const planPath = `research/${id}/plan.txt`;
  await writeFileAtomic(resolvePath(ctx, planPath), plan.text, { createParentDirs: true });

  // Belt and braces: the planner is property-tested to lint clean in both; a project's own copies could differ.
  const researchLint = lintPlan(await loadPlanProject(ctx, planPath, { root: ctx.cwd, dialect: researchDialectPath(ctx.cwd) })).findings;
  if (hasErrors(researchLint)) {
    await rm(resolvePath(ctx, `research/${id}`), { recursive: true, force: true });
    throw new CliError(
      `the generated research plan does not lint against ${displayPath(ctx, researchDialectPath(ctx.cwd))} (a research dialect from before the research commands? Ratchet's shipped protocols/research.dialect.json has them):\n${formatStylish(researchLint, { color: false })}`,
      { code: 'research-plan-lint', exitCode: 1 },
    );
  }
  const defaultLint = lintPlan(await loadPlanProject(ctx, planPath, { root: ctx.cwd, dialect: defaultDialectPath(ctx.cwd) })).findings;
  if (hasErrors(defaultLint)) {
    const first = defaultLint.find((f) => f.severity === 'error')!;
    ctx.note(`note: ${planPath} does not lint in ${displayPath(ctx, defaultDialectPath(ctx.cwd))} (${first.line}:${first.column} ${first.message} [${first.ruleId}]), so it cannot run as a call_plan sub-plan of plans written in it; the research cycle runs it in the research dialect`);
  }

  let entered = false;
  if (session !== undefined && inProgress) {
    requireResearchSteps(ctx, session, machine, planPath);
    const now = (): Date => new Date();
    const before = session;
    const dialect = loadDialectFile(ctx, researchDialectPath(ctx.cwd));
    try {
      session = await file.update((s) => withBaseline(ctx, enterResearch(s, { topic, planPath, reportPath: plan.reportPath, text: plan.text }, { now, machine }), dialect));
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
  ctx.out(`Research plan written to ${planPath}; it writes ${plan.reportPath}.`);
  if (entered) {
    const paused = session!.research?.from === 'EXECUTING' ? ' (the running plan is paused until `ratchet research done`)' : '';
    ctx.out(`Task ${session!.taskId} entered the research cycle: ${session!.state}${paused}.`);
    printDirective(ctx, session);
  } else ctx.out(session ? `(task ${session.taskId} is ${session.state}: no task in progress, the lifecycle is unchanged)` : '(no task session: the lifecycle is unchanged)');
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
