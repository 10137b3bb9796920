/**
 * What the planner's moves record in the current turn's trace (`goals plan start|step`): starting a
 * plan is a Decision; a step is a span `<plan>.s<N>` (component "planner") that depends on the spans
 * of the steps it waits for, ending ok when the step succeeds (an Observation with the evidence) or
 * error when it fails (an Error event, and a Decision when a new plan is requested). A step started
 * in an earlier turn has no span in this one: its outcome is a turn-level event.
 */
import type { NewRecord, PlanRun, TurnTrace } from '@ratchet/goals';
import type { Context } from '../../context.js';
import type { GoalsPlace } from '../../operations/goals-input.js';
import { traceAlong } from './trace-log.js';

const spanOf = (planId: string, step: number): string => `${planId}.s${step}`;

export async function tracePlanStart(ctx: Context, place: GoalsPlace, run: PlanRun, now: number): Promise<void> {
  const ts = new Date(now).toISOString();
  await traceAlong(
    ctx,
    place,
    (_trace, turn) => [{ type: 'event', turn_id: turn, ts, kind: 'Decision', summary: `started plan ${run.id}: ${run.steps.length} steps${run.source === undefined ? '' : ` from ${run.source}`}`, payload: { plan_id: run.id, digest: run.digest, steps: run.steps.length, ...(run.goal_id === undefined ? {} : { goal_id: run.goal_id }) } }],
    run.turn_id ?? place.turn,
  );
}

export async function tracePlanStep(ctx: Context, place: GoalsPlace, run: PlanRun, number: number, event: string, now: number): Promise<void> {
  const ts = new Date(now).toISOString();
  const step = run.steps.find((s) => s.number === number);
  if (step === undefined) return;
  const span_id = spanOf(run.id, number);
  await traceAlong(ctx, place, (trace: TurnTrace, turn): NewRecord[] => {
    if (event === 'start') {
      const depends_on = step.depends_on.map((d) => spanOf(run.id, d)).filter((id) => trace.spans.some((s) => s.span_id === id));
      return [{ type: 'span_start', turn_id: turn, span_id, component: 'planner', ts, depends_on }];
    }
    const open = trace.spans.some((s) => s.span_id === span_id && s.status === 'open');
    const inSpan = open ? { span_id } : {};
    const plan = { plan_id: run.id, step: number };
    const records: NewRecord[] =
      event === 'succeed'
        ? [{ type: 'event', turn_id: turn, ts, kind: 'Observation', summary: `plan ${run.id} Step ${number} (${step.name}) succeeded`, payload: { ...plan, evidence_refs: step.criteria_met?.evidence_refs ?? [] }, ...inSpan }]
        : [{ type: 'event', turn_id: turn, ts, kind: 'Error', summary: `plan ${run.id} Step ${number} (${step.name}) failed: ${step.failure ?? ''}`, payload: plan, ...inSpan }];
    if (open) records.push({ type: 'span_end', turn_id: turn, span_id, ts, status: event === 'succeed' ? 'ok' : 'error' });
    if (event === 'fail' && run.regeneration !== undefined) records.push({ type: 'event', turn_id: turn, ts, kind: 'Decision', summary: `plan ${run.id}: a new plan is requested`, payload: { ...plan, regenerate: true } });
    return records;
  }, place.turn);
}
