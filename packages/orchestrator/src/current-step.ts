/**
 * The step a session executes now. Its own module (no FSM, no plan parser) so that readers on the
 * hot path, like the hooks, can ask without loading the plan-stack machinery.
 */
import type { Session } from './types.js';

export interface CurrentStep {
  /** The command line to run. */
  line: string;
  planPath: string;
  /** Index of the line in its plan's flattened steps. */
  index: number;
  /** Plan paths from the root to the plan the line is in. */
  chain: string[];
}

/** The step to run next, or undefined when no plan is running. Never a call_plan line. */
export function currentStep(session: Session): CurrentStep | undefined {
  const top = session.stack[session.stack.length - 1];
  if (top === undefined) return undefined;
  const line = top.steps[top.current];
  if (line === undefined) return undefined;
  return { line, planPath: top.planPath, index: top.current, chain: session.stack.map((f) => f.planPath) };
}
