/**
 * The plan that runs is the plan that was linted. `run done` advances with the pins `run plan`
 * took; a sub-plan that differs from its pin when it is called (PlanChangedError) is linted again
 * here, against the project's dialect and registry: clean, its new content is pinned and the step
 * goes through; not clean, PlanRefusedError carries the findings and the caller sends the task back
 * to PLANNING.
 */
import { PlanChangedError, advance, type PlanPins, type PlanStackOptions, type Session, type SessionFile, type StepResult } from '@ratchet/orchestrator';
import { formatStylish, lintPlan } from '@ratchet/plan-lint';
import type { Context } from './context.js';
import { loadPlanProject } from './plan-project.js';

export class PlanRefusedError extends Error {
  readonly code = 'plan-changed' as const;
  constructor(
    message: string,
    readonly findings: string,
  ) {
    super(message);
    this.name = 'PlanRefusedError';
  }
}

function withPin(pins: PlanPins | undefined, changed: PlanChangedError): PlanPins | undefined {
  if (pins === undefined) return undefined;
  const registry = Object.hasOwn(pins.registry, changed.target) ? { ...pins.registry, [changed.target]: changed.path } : pins.registry;
  return { plans: { ...pins.plans, [changed.path]: changed.sha256 }, registry };
}

export async function advancePinned(
  ctx: Context,
  file: SessionFile,
  result: StepResult,
  options: PlanStackOptions,
  registry: string | undefined,
  /** Called with the session as read inside the lock, before it advances (may throw to refuse). */
  inLock: (session: Session) => void = () => undefined,
): Promise<Session> {
  let accepted: PlanChangedError | undefined;
  // Each round lints one changed sub-plan; a plan edited again between the lint and the update is linted again.
  for (let round = 0; round < 20; round++) {
    try {
      return await file.update((s) => {
        inLock(s);
        const pins = accepted !== undefined ? withPin(s.pins, accepted) : s.pins;
        return { ...advance(s, result, { ...options, pins }), ...(pins !== undefined ? { pins } : {}) };
      });
    } catch (err) {
      if (!(err instanceof PlanChangedError)) throw err;
      const project = await loadPlanProject(ctx, err.path, { root: ctx.cwd, registry });
      const errors = lintPlan(project).findings.filter((f) => f.severity === 'error');
      if (errors.length > 0) {
        throw new PlanRefusedError(`${err.path} ${err.why} since \`run plan\` linted it and no longer lints (${errors.length} error(s)); the task goes back to PLANNING: fix the plan and run \`ratchet run plan\` again`, formatStylish(errors, { color: ctx.color }).trimEnd());
      }
      accepted = err;
    }
  }
  throw new Error('a sub-plan kept changing while it was linted');
}
