/**
 * What lint's simulated file system made of every `for_each_file`: the files each one iterates, in
 * order, per plan frame (the entry plan and every call_plan run). A run that serves these lists
 * instead of globbing the disk again runs exactly the plan lint judged: files the plan creates before
 * a loop are iterated, files it deletes before it are not, and files that appear on disk later (an
 * agent's stray output) change nothing.
 */

/** The loops of one plan frame. */
export interface FrameExpansion {
  /** Project-relative path of the plan the frame runs. */
  plan: string;
  /**
   * One list per `for_each_file` the frame reaches, in the order it reaches them (a nested loop
   * once per iteration of the loop around it): the files that loop iterates, in iteration order.
   */
  loops: string[][];
}

/**
 * Frame position -> its loops; frames without a `for_each_file` are left out. A position names a
 * frame by the call_plan lines that lead to it: see `childFrame`.
 */
export type PlanExpansion = Record<string, FrameExpansion>;

/** The position of the entry plan's frame. */
export const ROOT_FRAME = '';

/**
 * The position of the frame a call_plan line starts: its parent's position and the index of the
 * call among the parent's steps (its command and call lines, loops unrolled, counted from 0). Lint
 * and the run both count steps, so both name a frame the same way without sharing any state.
 */
export function childFrame(parent: string, callStep: number): string {
  return parent === ROOT_FRAME ? String(callStep) : `${parent}/${callStep}`;
}

/**
 * `into` with the frame at `at` and every frame below it replaced by `sub`, an expansion whose root
 * is that frame (a sub-plan linted again on its own when it changed after `run plan`).
 */
export function graftExpansion(into: PlanExpansion, at: string, sub: PlanExpansion): PlanExpansion {
  const below = `${at}/`;
  const out: PlanExpansion = {};
  for (const [key, frame] of Object.entries(into)) if (key !== at && !(at === ROOT_FRAME || key.startsWith(below))) out[key] = frame;
  for (const [key, frame] of Object.entries(sub)) out[key === ROOT_FRAME ? at : at === ROOT_FRAME ? key : `${at}/${key}`] = frame;
  return out;
}
