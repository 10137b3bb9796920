/**
 * Plan-stack execution. A running plan is a stack of frames, each a plan flattened to command
 * lines (for_each_file expanded, `{file}` substituted). The files each loop iterates are the ones
 * lint's simulated file system matched (`startPlan`'s `expansion`, kept in the session until each
 * frame is loaded), so the run is the plan lint judged; a session without one (started by an older
 * version, or by a caller that did not lint) globs the given file list instead. `call_plan`
 * lines are resolved lazily, when execution reaches them: the parent frame advances past the call
 * first, then the sub-plan is pushed (so popping it resumes the parent at the next line). The end
 * of a sub-plan pops it; the end of the root plan moves the lifecycle on (plan_complete). Pure:
 * plan text comes from an injected `readPlan`, the clock is injected, nothing is mutated.
 */
import { DEFAULT_MAX_DEPTH, RecursionDepthError, type Machine } from '@ratchet/fsm-core';
import { ROOT_FRAME, bindPlaceholders, childFrame, matchGlob, normalizeRelative, parsePlan, resolveCall, type PlanExpansion, type PlanNode, type PlanRefusal, type PlanRegistry } from '@ratchet/plan-lint';
import { moveTo } from './lifecycle.js';
import { currentStep } from './current-step.js';
import { planSha256 } from './pins.js';
import type { Clock, PlanFrame, PlanPins, Session } from './types.js';

export { DEFAULT_MAX_DEPTH };

/** The lifecycle states the plan stack moves between (destinations; triggers are looked up). */
export const EXECUTING = 'EXECUTING';
export const AFTER_PLAN = 'AWAITING_ANALYSIS';
export const FAILED = 'ERROR';

const CALL = 'call_plan';

export interface PlanStackOptions extends Clock {
  /** The text of a plan file (project-relative path), undefined when there is none, or a refusal (it leads out of the project). */
  readPlan(relPath: string): string | undefined | PlanRefusal;
  /** Plan registry (logical name -> path) for call_plan targets. */
  registry?: PlanRegistry;
  /**
   * Project-relative paths for_each_file globs expand against when the session holds no expansion
   * from lint, or a function returning them (called only when such a plan with for_each_file is
   * loaded, so callers can skip walking the project otherwise).
   */
  files: readonly string[] | (() => readonly string[]);
  /** Most frames on the stack, the root included (default 10, like fsm-core's pushdown runs). */
  maxDepth?: number;
  /** Most command lines one plan may expand to (default DEFAULT_MAX_STEPS); past it, `plan-too-large`. */
  maxSteps?: number;
  machine?: Machine;
  /** What `run plan` linted: a sub-plan whose text (or registry entry) differs when called throws PlanChangedError. */
  pins?: PlanPins | undefined;
}

export interface StartPlanOptions extends PlanStackOptions {
  /**
   * What lint's simulated file system made of the plan's for_each_file lines (`lintPlan` with
   * `expansion: true`): the run serves exactly those iterations, whatever the disk holds when a loop
   * is reached. Without it, loops glob `files`.
   */
  expansion?: PlanExpansion | undefined;
}

export type PlanStackErrorCode = 'plan-not-found' | 'plan-syntax' | 'unresolved-call' | 'no-plan-running' | 'plan-too-large' | 'plan-changed' | 'expansion-mismatch';

/** A plan could not be loaded or there is no plan to step. The session passed in is unchanged. */
export class PlanStackError extends Error {
  readonly code: PlanStackErrorCode;
  /** Plan paths from the root to the plan concerned. */
  readonly chain: readonly string[];
  constructor(code: PlanStackErrorCode, message: string, chain: readonly string[]) {
    super(chain.length > 0 ? `${message} (call chain: ${chain.join(' -> ')})` : message);
    this.name = 'PlanStackError';
    this.code = code;
    this.chain = chain;
  }
}

/**
 * A sub-plan reached at run time is not the one `run plan` linted (its text differs from its pin, lint
 * never read it, or its registry name now points elsewhere). The caller refuses the step: a changed
 * sub-plan is a new plan, linted whole by `run plan`. The session passed in is unchanged.
 */
export class PlanChangedError extends PlanStackError {
  constructor(
    readonly path: string,
    readonly target: string,
    readonly sha256: string,
    readonly why: string,
    chain: readonly string[],
    /** The frame position the plan would run at (expansion.ts): a new lint's expansion is grafted there. */
    readonly at: string = ROOT_FRAME,
  ) {
    super('plan-changed', `${path} ${why} since \`run plan\` linted it`, chain);
    this.name = 'PlanChangedError';
  }
}

export { currentStep, type CurrentStep } from './current-step.js';

/**
 * Accept the plan at `planPath` (a registry name or a project-relative path): load it, move the
 * lifecycle to EXECUTING (plan_accepted) and run up to its first command. An empty plan completes
 * at once. Throws PlanStackError / RecursionDepthError / IllegalMoveError, leaving `session` as it was.
 */
export function startPlan(session: Session, planPath: string, options: StartPlanOptions): Session {
  const { expansion } = options;
  const root = loadFrame(planPath, [], options, { expansion, at: ROOT_FRAME });
  // A previous plan's expansion never leaks into this one.
  const { expansion: _previous, ...accepted } = moveTo(session, EXECUTING, options);
  return settle({ ...accepted, ...(expansion !== undefined ? { expansion: without(expansion, ROOT_FRAME) } : {}), stack: [root] }, options);
}

/** The expansion minus a frame that is now loaded: the session keeps only what is still to run. */
function without(expansion: PlanExpansion, at: string): PlanExpansion {
  if (!Object.hasOwn(expansion, at)) return expansion;
  const { [at]: _loaded, ...rest } = expansion;
  return rest;
}

/**
 * Back to ORIENTING after a failure (reorient): the failed run's stack, expansion, pins and step
 * baseline were kept in ERROR for inspection, and are dropped here, so the next plan starts clean
 * and `run status` shows no stale call stack. Throws IllegalMoveError where the lifecycle does not allow it.
 */
export function reorient(session: Session, options: Clock & { machine?: Machine; message?: string }): Session {
  const { expansion: _e, pins: _p, stepBaseline: _b, ...moved } = moveTo(session, 'ORIENTING', options);
  return { ...moved, stack: [] };
}

export interface StepResult {
  failed?: boolean;
  message?: string;
}

/**
 * Report the current step done. Success: step_complete, then on to the next command (entering
 * sub-plans, popping finished ones, plan_complete after the root's last line). Failure: step_failed
 * (to ERROR) with the message in the history; the stack is kept so the failed step can be inspected.
 */
export function advance(session: Session, result: StepResult, options: PlanStackOptions): Session {
  if (currentStep(session) === undefined) throw new PlanStackError('no-plan-running', `no plan step to advance in state ${JSON.stringify(session.state)}`, []);
  const message = result.message !== undefined ? { message: result.message } : {};
  if (result.failed === true) return moveTo(session, FAILED, { ...options, ...message });
  const done = moveTo(session, EXECUTING, { ...options, ...message });
  const stack = done.stack.map((f) => ({ ...f }));
  stack[stack.length - 1]!.current++;
  return settle({ ...done, stack }, options);
}

/** Walk from the top frame's cursor to the next command line: enter calls, pop finished plans. */
function settle(session: Session, options: PlanStackOptions): Session {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!Number.isSafeInteger(maxDepth) || maxDepth < 1) throw new RangeError(`maxDepth must be a positive integer, got ${String(maxDepth)}`);
  const stack = session.stack.map((f) => ({ ...f }));
  let expansion = session.expansion;
  for (;;) {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      const { expansion: _done, ...finished } = session;
      return moveTo({ ...finished, stack }, AFTER_PLAN, options);
    }
    const line = top.steps[top.current];
    if (line === undefined) {
      stack.pop();
      continue;
    }
    const target = callTarget(line);
    if (target === undefined) return { ...session, ...(expansion !== undefined ? { expansion } : {}), stack };
    top.current++; // the parent moves past the call before the sub-plan runs
    const chain = stack.map((f) => f.planPath);
    const resolved = resolveCall(target, options.registry);
    if (!resolved.ok) throw new PlanStackError('unresolved-call', resolved.message, chain);
    if (stack.length + 1 > maxDepth) throw new RecursionDepthError([...chain, resolved.path], maxDepth);
    // Every frame on the stack has just moved past the call that led to the next one.
    const at = stack.reduce((parent, f) => childFrame(parent, f.current - 1), ROOT_FRAME);
    stack.push(loadFrame(resolved.path, chain, options, { expansion, at }, true, target));
    if (expansion !== undefined) expansion = without(expansion, at);
  }
}

function callTarget(line: string): string | undefined {
  return line.startsWith(`${CALL} `) ? line.slice(CALL.length + 1).trim() : undefined;
}

/** Where a frame's loops come from: lint's expansion (undefined: glob `files`) and the frame's position in it. */
interface FrameLoops {
  expansion: PlanExpansion | undefined;
  at: string;
}

function loadFrame(target: string, chain: readonly string[], options: PlanStackOptions, loops: FrameLoops, resolved = false, callTargetName = target): PlanFrame {
  let path = target;
  if (!resolved) {
    const r = resolveCall(target, options.registry);
    if (!r.ok) throw new PlanStackError('unresolved-call', r.message, chain);
    path = r.path;
  }
  const text = options.readPlan(path);
  const here = [...chain, path];
  if (text === undefined) throw new PlanStackError('plan-not-found', `no plan file ${JSON.stringify(path)}`, here);
  if (typeof text !== 'string') throw new PlanStackError('unresolved-call', text.refused, here);
  const pins = options.pins;
  if (resolved && pins !== undefined) {
    const sha256 = planSha256(text);
    const pointed = Object.hasOwn(pins.registry, callTargetName) ? pins.registry[callTargetName] : undefined;
    if (pointed !== undefined && pointed !== path) throw new PlanChangedError(path, callTargetName, sha256, `is where registry entry ${JSON.stringify(callTargetName)} points now (it pointed to ${pointed})`, here, loops.at);
    if (pins.plans[path] !== sha256) throw new PlanChangedError(path, callTargetName, sha256, Object.hasOwn(pins.plans, path) ? 'changed' : 'was not linted', here, loops.at);
  }
  const { plan, diagnostics } = parsePlan(text, path);
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new PlanStackError('plan-syntax', `${path}:${first.line}:${first.column}: ${first.message} [${first.ruleId}]${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`, here);
  }
  const hasLoops = plan.body.some((node) => node.kind === 'for_each_file');
  const mismatch = (why: string): PlanStackError =>
    new PlanStackError('expansion-mismatch', `${path}: ${why}, so it is not the plan \`run plan\` linted; run \`ratchet run plan\` again`, here);
  let match: readonly string[] | (() => readonly string[]) = [];
  let lists: readonly (readonly string[])[] | undefined;
  let taken = 0;
  if (hasLoops && loops.expansion === undefined) match = typeof options.files === 'function' ? options.files() : options.files;
  else if (hasLoops) {
    const linted = Object.hasOwn(loops.expansion!, loops.at) ? loops.expansion![loops.at] : undefined;
    if (linted === undefined || linted.plan !== path) throw mismatch(`lint expanded no for_each_file of ${path} at this point`);
    const found = linted.loops;
    lists = found;
    // The n-th loop the expansion reaches is the n-th lint reached: both walk the same lines in the same order.
    match = () => {
      const files = found[taken++];
      if (files === undefined) throw mismatch(`it reaches more for_each_file lines than lint expanded (${found.length})`);
      // Lint only lists project-relative paths; anything else was written into the session by hand.
      const outside = files.find((f) => normalizeRelative(f) !== f);
      if (outside !== undefined) throw mismatch(`its expansion names ${JSON.stringify(outside)}, which is not a project-relative path`);
      return files;
    };
  }
  try {
    const steps = expandSteps(plan.body, match, undefined, options.maxSteps);
    if (lists !== undefined && taken !== lists.length) throw mismatch(`it reaches ${taken} for_each_file line(s), lint expanded ${lists.length}`);
    return { planPath: path, steps, current: 0 };
  } catch (err) {
    if (err instanceof RangeError) throw new PlanStackError('plan-too-large', `${path}: ${err.message}`, here);
    throw err;
  }
}

/** The most command lines one plan may flatten to (loops expanded): the session stores them all. */
export const DEFAULT_MAX_STEPS = 1_000_000;

/**
 * Flatten plan nodes to command lines: each for_each_file body repeated for every file it iterates,
 * `{file}` replaced by that file and `{file1}`, `{file2}`, ... by the files of the enclosing loops (also in nested globs); call_plan lines kept as
 * `call_plan <target>` for run-time resolution. The files: those of `files` its glob matches
 * (sorted), or, when `files` is a function, what it returns for the glob, asked once per loop in
 * walk order (lint's expansion). More than `maxSteps` lines (nested loops over a big tree multiply)
 * throws a RangeError instead of filling memory.
 */
export function expandSteps(
  body: readonly PlanNode[],
  files: readonly string[] | ((glob: string) => readonly string[]),
  binding?: string | readonly string[],
  maxSteps = DEFAULT_MAX_STEPS,
): string[] {
  const out: string[] = [];
  // Lines and loop iterations both count: loops of loops with no command inside must end too.
  let work = 0;
  const spend = (): void => {
    if (++work > maxSteps) throw new RangeError(`the plan expands to more than ${maxSteps.toLocaleString('en-US')} steps (for_each_file loops multiply)`);
  };
  // The files of the enclosing loops, outermost first: {file1}, {file2}, ... and {file} (the innermost).
  const walk = (nodes: readonly PlanNode[], bound: readonly string[]): void => {
    const bind = (s: string): string => bindPlaceholders(s, bound);
    for (const node of nodes) {
      spend();
      if (node.kind === 'for_each_file') {
        const glob = bind(node.glob);
        for (const file of typeof files === 'function' ? files(glob) : matchGlob(glob, files)) {
          spend();
          walk(node.body, [...bound, file]);
        }
        continue;
      }
      out.push(node.kind === 'call_plan' ? `${CALL} ${bind(node.target)}` : node.raw === '' ? node.name : `${node.name} ${bind(node.raw)}`);
    }
  };
  walk(body, binding === undefined ? [] : typeof binding === 'string' ? [binding] : binding);
  return out;
}
