/**
 * The inputs of the plan checks' typed operations (src/operations/plan.ts), apart from the
 * operations so that their declarations import no library type.
 */

/** `plan lint` and `plan analyze`: the plan, and what it is checked against (paths relative to the project). */
export interface PlanCheckInput {
  plan: string;
  /** The project root (default the working directory): seeds the simulated file system, confines call_plan paths. */
  root?: string | undefined;
  dialect?: string | undefined;
  /** `plan lint` only: check against this plan FSM instead of the dialect's. */
  fsm?: string | undefined;
  /** Default knowledge_core/plan_registry.json. */
  registry?: string | undefined;
}

/** `plan registry register <name> <path>`. */
export interface RegisterPlanInput {
  name: string;
  path: string;
  /** Replace an entry of the same name. */
  force?: boolean | undefined;
  /** Default knowledge_core/plan_registry.json. */
  registry?: string | undefined;
}

/** `plan registry deregister <name>`. */
export interface DeregisterPlanInput {
  name: string;
  registry?: string | undefined;
}
