/**
 * The plan that runs is the plan that was linted. `run done` advances with the pins `run plan` took
 * (every plan lint read, by content, and the registry it resolved names through). A sub-plan that
 * differs from its pin when it is called, or one lint never read, is refused: PlanRefusedError, and
 * the caller sends the task back to PLANNING. It is not linted again on its own: a changed sub-plan
 * is a new plan, and only `run plan` lints a plan whole (a sub-plan that lints alone may still break
 * its caller, or simply do something else than what was accepted).
 */
import { PlanChangedError, advance, type PlanStackOptions, type Session, type SessionFile, type StepResult } from '@ratchet/orchestrator';

export class PlanRefusedError extends Error {
  readonly code = 'plan-changed' as const;
  constructor(
    message: string,
    /** The changed plan. */
    readonly path: string,
  ) {
    super(message);
    this.name = 'PlanRefusedError';
  }
}

export async function advancePinned(
  file: SessionFile,
  result: StepResult,
  options: PlanStackOptions,
  /** Called with the session as read inside the lock, before it advances (may throw to refuse). */
  inLock: (session: Session) => void = () => undefined,
  /** Applied to the advanced session inside the same update (the next step's baseline). */
  after: (session: Session) => Session = (s) => s,
): Promise<Session> {
  let root = '';
  try {
    return await file.update((s) => {
      inLock(s);
      root = s.stack[0]?.planPath ?? '';
      // Names resolve through the registry lint used (sessions from before pins: the project's).
      const registry = s.pins?.registry ?? options.registry;
      return after(advance(s, result, { ...options, ...(registry !== undefined ? { registry } : {}), pins: s.pins }));
    });
  } catch (err) {
    if (!(err instanceof PlanChangedError)) throw err;
    throw new PlanRefusedError(
      `${err.path} ${err.why} since \`run plan\` linted it (call chain: ${err.chain.join(' -> ')}); a changed sub-plan is a new plan, so the step is refused and the task goes back to PLANNING: run \`ratchet run plan ${root}\` again: it lints the plan whole`,
      err.path,
    );
  }
}
