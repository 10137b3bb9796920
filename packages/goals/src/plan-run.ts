/**
 * Executing a plan (seed 002, "Executor Interpretation"): a checked plan becomes a run in the goals
 * state, and each step is recorded as started, succeeded (with the evidence that met its success
 * criteria) or failed (optionally asking the planner for a new plan). Every move is a mutation of
 * the versioned state, so it is locked, audited and revertible like the rest.
 *
 * The rules are the shortcuts an executor would take, refused (`plan-state`): finishing a step that
 * never started, succeeding without evidence, starting a step before the steps it waits for have
 * succeeded, or moving a step of a run that is over.
 */
import { createHash } from 'node:crypto';
import { InputError } from './errors.js';
import type { ParsedPlan } from './plan-format.js';
import type { Tx } from './tx.js';
import type { PlanRun, PlanRunStep } from './types.js';

export interface StartPlanInput {
  /** The plan, parsed and checked (`parsePlan`): a plan with errors is refused. */
  plan: ParsedPlan;
  /** sha256 of the plan text (pins the run to it). */
  digest: string;
  id?: string | undefined;
  source?: string | undefined;
  goal_id?: string | undefined;
  turn_id?: string | undefined;
}

/** What a run records to pin the plan text: sha256, hex. */
export function planDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function startPlan(tx: Tx, input: StartPlanInput): PlanRun {
  const errors = input.plan.issues.filter((i) => i.severity === 'error');
  if (errors.length > 0 || !input.plan.ok) {
    const first = errors[0];
    throw new InputError(`the plan does not check (${errors.length} error${errors.length === 1 ? '' : 's'}${first === undefined ? '' : `; line ${first.line}: ${first.message}`}): fix it and run \`goals plan check\``, 'invalid-input');
  }
  if (input.goal_id !== undefined) tx.get('goal', input.goal_id);
  const run: PlanRun = {
    id: input.id ?? tx.nextId('plan'),
    digest: input.digest,
    source: input.source,
    goal_id: input.goal_id,
    turn_id: input.turn_id,
    status: 'running',
    steps: input.plan.steps.map((s) => ({ number: s.number, name: s.name, success_criteria: s.success_criteria, depends_on: s.depends_on, status: 'pending' })),
    created_by: tx.who,
    created_at: tx.now,
    updated_at: tx.now,
    version: 0,
  };
  return tx.create('plan', stripUndefined(run));
}

function runningStep(tx: Tx, planId: string, number: number): { run: PlanRun; step: PlanRunStep } {
  const run = tx.edit('plan', planId);
  const step = run.steps.find((s) => s.number === number);
  if (step === undefined) throw new InputError(`plan ${planId} has no Step ${number}`, 'not-found');
  if (run.status !== 'running') throw new InputError(`plan ${planId} is ${run.status}: its steps no longer move (start a new plan)`, 'plan-state');
  run.updated_at = tx.now;
  return { run, step };
}

/** Mark a step started: it must be pending, and every step it waits for must have succeeded. */
export function startStep(tx: Tx, planId: string, number: number): PlanRun {
  const { run, step } = runningStep(tx, planId, number);
  if (step.status !== 'pending') throw new InputError(`Step ${number} of plan ${planId} is ${step.status}, not pending: it cannot start again`, 'plan-state');
  const waiting = step.depends_on.filter((d) => run.steps.find((s) => s.number === d)?.status !== 'succeeded');
  if (waiting.length > 0) throw new InputError(`Step ${number} of plan ${planId} waits for ${waiting.map((d) => `Step ${d}`).join(', ')}, which ${waiting.length === 1 ? 'has' : 'have'} not succeeded`, 'plan-state');
  step.status = 'started';
  step.started_at = tx.now;
  step.by = tx.who;
  return run;
}

/** Mark a started step succeeded, recording the evidence that met its success criteria (at least one reference). */
export function succeedStep(tx: Tx, planId: string, number: number, evidence: { evidence_refs: readonly string[]; note?: string | undefined }): PlanRun {
  const { run, step } = runningStep(tx, planId, number);
  if (step.status !== 'started') throw new InputError(`Step ${number} of plan ${planId} is ${step.status}: only a started step can succeed (start it first)`, 'plan-state');
  const refs = [...new Set(evidence.evidence_refs.map((r) => r.trim()).filter((r) => r !== ''))];
  if (refs.length === 0) throw new InputError(`Step ${number} of plan ${planId} cannot succeed without evidence: name what shows "${oneLine(step.success_criteria)}" was met`, 'plan-state');
  step.status = 'succeeded';
  step.finished_at = tx.now;
  step.by = tx.who;
  step.criteria_met = stripUndefined({ criteria: step.success_criteria, evidence_refs: refs, note: evidence.note });
  if (run.steps.every((s) => s.status === 'succeeded')) run.status = 'succeeded';
  return run;
}

/** Mark a started step failed; the run fails with it. `regenerate` records a request for a new plan. */
export function failStep(tx: Tx, planId: string, number: number, failure: { reason: string; regenerate?: boolean | undefined }): PlanRun {
  const { run, step } = runningStep(tx, planId, number);
  if (step.status !== 'started') throw new InputError(`Step ${number} of plan ${planId} is ${step.status}: only a started step can fail`, 'plan-state');
  const reason = failure.reason.trim();
  if (reason === '') throw new InputError(`say why Step ${number} of plan ${planId} failed`, 'invalid-input');
  step.status = 'failed';
  step.finished_at = tx.now;
  step.by = tx.who;
  step.failure = reason;
  run.status = 'failed';
  if (failure.regenerate === true) run.regeneration = { step: number, reason, requested_at: tx.now, by: tx.who };
  return run;
}

/** The steps that can start now: pending, with every step they wait for succeeded. */
export function readySteps(run: PlanRun): PlanRunStep[] {
  if (run.status !== 'running') return [];
  const done = new Set(run.steps.filter((s) => s.status === 'succeeded').map((s) => s.number));
  return run.steps.filter((s) => s.status === 'pending' && s.depends_on.every((d) => done.has(d)));
}

const oneLine = (s: string): string => (s.length > 120 ? `${s.slice(0, 117)}...` : s).replace(/\s+/g, ' ');

function stripUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
