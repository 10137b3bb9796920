/**
 * The plan that runs is the plan that was linted. `run done` advances with the pins `run plan`
 * took; a sub-plan that differs from its pin when it is called (PlanChangedError) is linted again
 * here, against the project's dialect and registry: clean, its new content is pinned, its
 * for_each_file expansion (from this lint, against the project as it is now) replaces the old one
 * for that frame and the frames below it, and the step goes through; not clean, PlanRefusedError
 * carries the findings and the caller sends the task back to PLANNING.
 */
import { PlanChangedError, advance, type PlanPins, type PlanStackOptions, type Session, type SessionFile, type StepResult } from '@ratchet/orchestrator';
import { formatStylish, graftExpansion, lintPlan, type PlanExpansion } from '@ratchet/plan-lint';
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

/** A changed sub-plan that linted clean, and what that lint expanded its loops to. */
interface Relinted {
  changed: PlanChangedError;
  expansion: PlanExpansion;
}

function withPin(pins: PlanPins | undefined, { changed }: Relinted): PlanPins | undefined {
  if (pins === undefined) return undefined;
  const registry = Object.hasOwn(pins.registry, changed.target) ? { ...pins.registry, [changed.target]: changed.path } : pins.registry;
  return { plans: { ...pins.plans, [changed.path]: changed.sha256 }, registry };
}

/** The session with every accepted sub-plan pinned and its expansion grafted, in the order they were met. */
function withRelinted(s: Session, accepted: readonly Relinted[]): Session {
  let { pins, expansion } = s;
  for (const r of accepted) {
    pins = withPin(pins, r);
    // A session started before expansions were stored globs at run time: it stays that way.
    if (expansion !== undefined) expansion = graftExpansion(expansion, r.changed.at, r.expansion);
  }
  return { ...s, ...(pins !== undefined ? { pins } : {}), ...(expansion !== undefined ? { expansion } : {}) };
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
  // Kept across rounds: one step can enter several changed sub-plans (a changed plan whose first step
  // calls another), and each must stay accepted while the next is linted.
  const accepted: Relinted[] = [];
  // Each round lints one changed sub-plan; a plan edited again between the lint and the update is linted again.
  for (let round = 0; round < 20; round++) {
    try {
      return await file.update((stored) => {
        inLock(stored);
        const s = withRelinted(stored, accepted);
        return { ...advance(s, result, { ...options, pins: s.pins }), ...(s.pins !== undefined ? { pins: s.pins } : {}) };
      });
    } catch (err) {
      if (!(err instanceof PlanChangedError)) throw err;
      const project = await loadPlanProject(ctx, err.path, { root: ctx.cwd, registry });
      const { findings, expansion } = lintPlan({ ...project, expansion: true });
      const errors = findings.filter((f) => f.severity === 'error');
      if (errors.length > 0) {
        throw new PlanRefusedError(`${err.path} ${err.why} since \`run plan\` linted it and no longer lints (${errors.length} error(s)); the task goes back to PLANNING: fix the plan and run \`ratchet run plan\` again`, formatStylish(errors, { color: ctx.color }).trimEnd());
      }
      accepted.push({ changed: err, expansion: expansion ?? {} });
    }
  }
  throw new Error('a sub-plan kept changing while it was linted');
}
