/**
 * The L4 research cycle as typed operations (`ratchet research plan|done`; the MCP tools
 * `research_plan`, `research_done`): writing a research plan and entering the cycle, and leaving it,
 * each answered with a typed outcome; `xxxResult` turns it into the document `--json` prints and
 * the command's exit code.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isAcceptState, type Machine } from '@ratchet/fsm-core';
import { enterResearch, leaveResearch, legalTriggers, nextDirective, normaliseTopic, researchPlan, researchSlug, returnState, type Session } from '@ratchet/orchestrator';
import { formatStylish, hasErrors, lintPlan } from '@ratchet/plan-lint';
import { writeFileAtomic } from '@ratchet/store';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import { versioned } from '../output/json-output.js';
import { displayPath, resolvePath } from '../paths.js';
import { defaultDialectPath, loadDialectFile, loadPlanProject, loadProjectDialect, researchDialectPath } from '../plan-project.js';
import { checkResearchReport, reportErrorCode } from '../research-report.js';
import { withBaseline } from '../step-effect.js';
import { LIFECYCLE_FSM, asCliError, isPlanRunError, lifecycleMachine, logActivity, requireSessionAt, requireTrigger, sessionJson, taskSessionAt } from '../task-session.js';
import type { OperationResult } from './invoke.js';
import type { ResearchPlanInput, StepResultInput } from './orchestrator-input.js';

export type { ResearchPlanInput, StepResultInput } from './orchestrator-input.js';

// ---------------------------------------------------------------------------------------------
// research plan

/** The research plan written; `session` is the task (after entering the cycle, when `entered`), if any. */
export interface ResearchPlanOutcome {
  topic: string;
  /** research/<id>/plan.txt */
  plan: string;
  /** The report the plan writes. */
  report: string;
  text: string;
  entered: boolean;
  session: Session | undefined;
  machine: Machine;
}

/**
 * Write an L4 deep-research plan to research/<id>/plan.txt (the seed's phases: review, scoping,
 * broad gathering, targeted extraction, synthesis into the report), lint it in the research dialect
 * (refused when it does not lint: a project's own research dialect may lack the research commands)
 * and in the project's default plan language (a note when it does not: it could not run as a
 * call_plan sub-plan there), and, when the task may start research (PLANNING, or EXECUTING: the
 * running plan is paused under it), enter the research cycle: RESEARCHING serves the plan's steps
 * through `run next` / `run done`, then `research done` returns to where it started. Without a task
 * in progress it only writes the plan; in any other state it is refused (exit 1) and writes nothing.
 */
export async function planResearch(ctx: Context, input: ResearchPlanInput): Promise<ResearchPlanOutcome> {
  if (input.topic.trim() === '') throw new CliError('research plan: missing <topic>');
  const topic = normaliseTopic(input.topic);

  const { session: file, exists } = taskSessionAt(ctx, input.session);
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
  return { topic, plan: planPath, report: plan.reportPath, text: plan.text, entered, session, machine };
}

export function planResearchResult(_ctx: Context, o: ResearchPlanOutcome): OperationResult {
  const lifecycle = o.entered && o.session !== undefined ? o.session : undefined;
  return {
    exitCode: EXIT_OK,
    document: { ok: true, topic: o.topic, plan: o.plan, report: o.report, text: o.text, lifecycle: lifecycle ? sessionJson(lifecycle, o.machine) : null, ...(lifecycle ? { next: nextDirective(lifecycle) } : {}) },
  };
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

// ---------------------------------------------------------------------------------------------
// research done

export type ResearchDoneOutcome =
  /** The report is missing, empty or headings only: nothing changed. */
  | { left: false; session: Session; machine: Machine; code: string; message: string; file: string }
  /** Back where the research started (PLANNING, or EXECUTING with the paused step next), or in ERROR when failed. */
  | { left: true; session: Session; machine: Machine; failed: boolean };

/**
 * Leave the research cycle once its plan's steps are done (AWAITING_RESULT), back to where it
 * started. A successful finish needs the report the research plan creates, with findings in it
 * (refused, exit 1, while it is missing, empty or headings only); `failed` says the research could
 * not be done (to ERROR, also midway through the plan; exit 1, a failure report).
 */
export async function finishResearch(ctx: Context, input: StepResultInput): Promise<ResearchDoneOutcome> {
  const failed = input.failed === true;
  const message = input.message;
  const { file, session, machine } = await requireSessionAt(ctx, input.session);
  requireTrigger(session, failed ? 'research_failed' : returnState(session) === 'EXECUTING' ? 'research_resumed' : 'research_complete', machine, failed ? 'research done --failed' : 'research done');
  const report = session.research?.reportPath;
  const problem = failed || report === undefined ? undefined : checkResearchReport(ctx, report);
  if (problem !== undefined && report !== undefined) {
    const msg = `${problem.message}: write the findings of ${session.research!.planPath} into it, then run \`ratchet research done\` again (or finish with --failed --message "<why>")`;
    return { left: false, session, machine, code: reportErrorCode(problem), message: msg, file: report };
  }
  const now = (): Date => new Date();
  let next;
  try {
    // Back in EXECUTING the paused step is current again: its file is recorded as it is now.
    next = await file.update((s) => withBaseline(ctx, leaveResearch(s, { failed, ...(message !== undefined ? { message } : {}) }, { now, machine }), loadProjectDialect(ctx)));
  } catch (err) {
    asCliError(err, session, 'research done');
  }
  await logActivity(ctx, { ...next, state: session.state }, {
    type: 'RESEARCH_END',
    status: failed ? 'FAILURE' : 'SUCCESS',
    message: message ?? (failed ? 'research failed' : 'research complete'),
    details: { plan: session.research?.planPath ?? null, report: report ?? null, returnedTo: next.state },
  });
  return { left: true, session: next, machine, failed };
}

/** task-transition.v1 (exit 0; exit 1 when the research failed: a failure report), or the missing report (exit 1). */
export function finishResearchResult(_ctx: Context, o: ResearchDoneOutcome): OperationResult {
  if (!o.left) return { exitCode: EXIT_PROBLEMS, document: { ok: false, ...sessionJson(o.session, o.machine), error: { code: o.code, message: o.message, file: o.file } } };
  // Giving up is a failure report, like `run done --failed`: exit 1.
  return { exitCode: o.failed ? EXIT_PROBLEMS : EXIT_OK, document: versioned('task-transition', { ok: true, ...sessionJson(o.session, o.machine), next: nextDirective(o.session) }) };
}
