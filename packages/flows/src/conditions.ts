/**
 * What conditions read. The variables an OPTIONAL step's skip condition reads decide which steps
 * run, so they are fixed when a session starts (values.ts) and no step may require them on the way
 * (validate-flow.ts).
 */
import type { Step, SkipCondition } from './types.js';

/** The variables a condition reads. */
export function conditionInputs(cond: SkipCondition): string[] {
  if ('not' in cond) return conditionInputs(cond.not);
  return 'input' in cond ? [cond.input] : [];
}

/**
 * The variables that decide which steps run, each with the first step that skips on it. A value
 * changed on the way would skip a phase of a run started without the skip, and take the memory
 * agent's file for the phase it expected as the file for the jump.
 */
export function pathInputs(steps: readonly Step[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const step of steps) if (step.skip !== undefined) for (const name of conditionInputs(step.skip)) if (!out.has(name)) out.set(name, step.id);
  return out;
}
