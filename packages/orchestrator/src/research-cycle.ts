/**
 * The research cycle (L4) in the lifecycle. `enterResearch` starts it from PLANNING, or from
 * EXECUTING with the running plan paused under it: the research plan goes on top of the plan stack,
 * so `currentStep` (and with it `ratchet run next` and the activity log) serves its steps like any
 * plan's. `advanceResearch` steps it in RESEARCHING; after its last step the frame is popped and the
 * task waits in AWAITING_RESULT. `leaveResearch` returns to the state the research started in (the
 * paused plan resumes at the step it was on) or, on failure, goes to ERROR. Pure, like plan-stack.ts:
 * plan text is passed in, the clock is injected, nothing is mutated.
 */
import { DEFAULT_MAX_DEPTH, RecursionDepthError, type Machine } from '@ratchet/fsm-core';
import { parsePlan } from '@ratchet/plan-lint';
import { moveTo } from './lifecycle.js';
import { PlanStackError, expandSteps, type StepResult } from './plan-stack.js';
import { currentStep } from './current-step.js';
import { returnState } from './research-return.js';
import type { Clock, Session } from './types.js';

export { returnState };

export const RESEARCHING = 'RESEARCHING';
export const AWAITING_RESULT = 'AWAITING_RESULT';

export interface ResearchCycleOptions extends Clock {
  machine?: Machine;
  message?: string;
  /** Most frames on the stack, the research plan included (default 10). */
  maxDepth?: number;
}

export interface ResearchStart {
  topic: string;
  /** Project-relative path of the research plan. */
  planPath: string;
  /** The plan's text (a generated research plan: no call_plan, no for_each_file). */
  text: string;
  reportPath: string;
}

/**
 * Enter the research cycle (research_needed). From PLANNING the research plan is the only frame (a
 * stack left over from a failed run is not resumed); from EXECUTING it goes on top of the running
 * plan, which resumes after `leaveResearch`. Throws IllegalMoveError where the lifecycle has no way
 * into research, PlanStackError for a plan that does not parse or has nothing to run.
 */
export function enterResearch(session: Session, start: ResearchStart, options: ResearchCycleOptions): Session {
  const from = session.state;
  const moved = moveTo(session, RESEARCHING, { ...options, message: options.message ?? start.topic });
  const { plan, diagnostics } = parsePlan(start.text, start.planPath);
  const error = diagnostics.find((d) => d.severity === 'error');
  if (error !== undefined) throw new PlanStackError('plan-syntax', `${start.planPath}:${error.line}:${error.column}: ${error.message} [${error.ruleId}]`, [start.planPath]);
  const steps = expandSteps(plan.body, []);
  if (steps.length === 0 || steps.some((line) => line.startsWith('call_plan '))) {
    throw new PlanStackError('plan-syntax', `${start.planPath}: a research plan needs steps and no call_plan (write it with \`ratchet research plan\`)`, [start.planPath]);
  }
  const below = from === 'EXECUTING' ? session.stack : [];
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (below.length + 1 > maxDepth) throw new RecursionDepthError([...below.map((f) => f.planPath), start.planPath], maxDepth);
  return {
    ...moved,
    stack: [...below, { planPath: start.planPath, steps, current: 0 }],
    research: { topic: start.topic, planPath: start.planPath, reportPath: start.reportPath, startedAt: options.now().toISOString(), from },
  };
}

/**
 * The triggers `run done` fires for the current step: the research plan's own in RESEARCHING, a
 * plan step's otherwise. The CLI checks them before it advances, so a refusal names the right move.
 */
export function stepTriggers(session: Session): { done: string; failed: string } {
  return session.state === RESEARCHING ? { done: 'research_step_complete', failed: 'research_failed' } : { done: 'step_complete', failed: 'step_failed' };
}

/**
 * Report the research plan's current step done. Success: research_step_complete, then the next
 * step; after the last one the frame is popped and the task waits in AWAITING_RESULT for
 * `research done`. Failure: research_failed (to ERROR), the stack kept for inspection.
 */
export function advanceResearch(session: Session, result: StepResult, options: ResearchCycleOptions): Session {
  const top = session.stack[session.stack.length - 1];
  if (session.state !== RESEARCHING || currentStep(session) === undefined || top === undefined) {
    throw new PlanStackError('no-plan-running', `no research step to advance in state ${JSON.stringify(session.state)}`, []);
  }
  const message = result.message !== undefined ? { message: result.message } : {};
  if (result.failed === true) return moveTo(session, 'ERROR', { ...options, ...message });
  const next = top.current + 1;
  if (next < top.steps.length) {
    const stepped = moveTo(session, RESEARCHING, { ...options, ...message });
    return { ...stepped, stack: [...session.stack.slice(0, -1), { ...top, current: next }] };
  }
  return moveTo({ ...session, stack: session.stack.slice(0, -1) }, AWAITING_RESULT, { ...options, message: result.message ?? `${top.planPath} complete` });
}

/**
 * Leave the research cycle from AWAITING_RESULT: back to the state it started in (research_complete
 * to PLANNING, research_resumed to EXECUTING with the paused plan's step next), or to ERROR when
 * `failed` (also from RESEARCHING, giving up midway).
 */
export function leaveResearch(session: Session, result: StepResult, options: ResearchCycleOptions): Session {
  const message = result.message !== undefined ? { message: result.message } : {};
  if (result.failed === true) return moveTo(session, 'ERROR', { ...options, ...message });
  const back = returnState(session);
  const moved = moveTo(session, back, { ...options, ...message });
  // Back in PLANNING nothing runs; in EXECUTING the paused plan is the stack as it was.
  return back === 'EXECUTING' ? moved : { ...moved, stack: [] };
}
