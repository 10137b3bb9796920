/**
 * The research report gate, shared by `research done` and by `run done` on a research plan's last
 * step (in the research cycle or as a call_plan sub-plan): research that leaves no findings is not
 * finished. What counts as written is @ratchet/orchestrator's `researchReportProblem`; this reads the
 * file and says which command to run.
 */
import { researchReportPath, researchReportProblem, type CurrentStep, type ResearchReportProblem, type Session } from '@ratchet/orchestrator';
import { NotFoundError, OutsideRootError, readTextFileSync, resolveInsideRoot } from '@ratchet/store';
import type { Context } from './context.js';

/** The problem with the report at `reportPath` (project-relative), or undefined when it holds findings. */
export function checkResearchReport(ctx: Context, reportPath: string): ResearchReportProblem | undefined {
  let text: string | undefined;
  try {
    text = readTextFileSync(resolveInsideRoot(ctx.cwd, reportPath)).text;
  } catch (err) {
    // A report out of the project (a symbolic link) is no report of this project's research.
    if (!(err instanceof NotFoundError) && !(err instanceof OutsideRootError)) throw err;
  }
  return researchReportProblem(reportPath, text);
}

/**
 * The report a step's plan must leave when the step is the last of a research plan (the one the
 * research cycle runs, or any research/<id>/plan.txt called as a sub-plan), else undefined.
 */
export function reportDueAt(session: Session, step: CurrentStep): string | undefined {
  const frame = session.stack[session.stack.length - 1];
  if (frame === undefined || frame.planPath !== step.planPath || step.index !== frame.steps.length - 1) return undefined;
  const research = session.research;
  if (research?.reportPath !== undefined && research.planPath === frame.planPath) return research.reportPath;
  return researchReportPath(frame.planPath);
}

/** The refusal's code: the same names `research done` has always used for a missing report. */
export function reportErrorCode(problem: ResearchReportProblem): string {
  return problem.code === 'missing' ? 'research-report-missing' : 'research-report-empty';
}
