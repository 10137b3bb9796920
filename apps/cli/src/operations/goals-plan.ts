/**
 * Plans run in the goals state as typed operations (`ratchet goals plan start|step`; the MCP tool
 * `goals_plan`): a plan that checks is started (one with errors is refused, exit 1, with its
 * problems), and its steps start, succeed with evidence or fail; each is recorded in the open turn's
 * trace. The document `--json` prints for each.
 */
import { resolve } from 'node:path';
import { failStep, parsePlan, planDigest, readySteps, startPlan, startStep, succeedStep, type ParsedPlan, type PlanRun } from '@ratchet/goals';
import { readTextFile } from '@ratchet/store';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import { displayPath } from '../paths.js';
import type { PlanStepInput, StartPlanInput, GoalsPlace } from './goals-input.js';
import type { OperationResult } from './invoke.js';

export type { PlanStepInput, StartPlanInput } from './goals-input.js';

/** Plans are a page or two; a larger file is not one (and is refused before it is read). */
export const MAX_PLAN_BYTES = 1024 * 1024;

/** A plan's text and how it is shown: a file (through the store's guarded reader, relative to the project). */
export async function readPlanFile(ctx: Context, file: string): Promise<{ text: string; shown: string }> {
  const read = await readTextFile(resolve(ctx.cwd, file), { maxBytes: MAX_PLAN_BYTES });
  return { text: read.text, shown: displayPath(ctx, read.path) };
}

/** A plan checked: the problems and the waves, under the name it is shown by. */
export interface CheckedPlan {
  shown: string;
  parsed: ParsedPlan;
}

export type PlanStarted = { started: true; shown: string; version: number; plan: PlanRun } | ({ started: false } & CheckedPlan);

export async function startPlanRun(ctx: Context, input: StartPlanInput): Promise<PlanStarted> {
  let text: string;
  let shown: string;
  if (input.text !== undefined) {
    text = input.text;
    shown = input.source ?? 'text';
    if (Buffer.byteLength(text) > MAX_PLAN_BYTES) throw new CliError(`the plan is over ${MAX_PLAN_BYTES} bytes, the most a plan may be`, { file: shown, code: 'too-large' });
  } else if (input.file !== undefined) ({ text, shown } = await readPlanFile(ctx, input.file));
  else throw new CliError('goals plan start: missing <file>');
  const parsed = parsePlan(text);
  if (!parsed.ok) return { started: false, shown, parsed };
  const { actorOf, clockOf, mapErrors, openState } = await import('../commands/goals/shared.js');
  const { tracePlanStart } = await import('../commands/goals/trace-plan.js');
  const place: GoalsPlace = input;
  return mapErrors(ctx, async () => {
    const r = await (await openState(ctx, place)).mutate({ actor: actorOf(ctx, place), expected_version: input.expectedVersion, op: 'plan.start' }, (tx) =>
      startPlan(tx, { plan: parsed, digest: planDigest(text), source: shown, id: input.id, goal_id: input.goal, turn_id: input.turn }),
    );
    await tracePlanStart(ctx, place, r.result, clockOf(place)());
    return { started: true, shown, version: r.version, plan: r.result };
  });
}

/** `plan check`'s document: the file and the parsed plan; exit 1 when it has errors. */
export function checkedPlanResult(c: CheckedPlan): OperationResult {
  return { exitCode: c.parsed.ok ? EXIT_OK : EXIT_PROBLEMS, document: { file: c.shown, ...c.parsed } };
}

export function startPlanResult(r: PlanStarted): OperationResult {
  if (!r.started) return checkedPlanResult(r);
  return planRunResult(r.version, r.plan);
}

export interface PlanStepped {
  version: number;
  plan: PlanRun;
}

export async function stepPlan(ctx: Context, input: PlanStepInput): Promise<PlanStepped> {
  const { actorOf, clockOf, mapErrors, openState } = await import('../commands/goals/shared.js');
  const { tracePlanStep } = await import('../commands/goals/trace-plan.js');
  const { plan: planId, step: number, event } = input;
  if (!Number.isSafeInteger(number) || number < 1) throw new CliError(`<step> must be an integer >= 1, got ${JSON.stringify(number)}`);
  const place: GoalsPlace = input;
  const evidence = [...(input.evidence ?? [])];
  return mapErrors(ctx, async () => {
    const r = await (await openState(ctx, place)).mutate({ actor: actorOf(ctx, place), expected_version: input.expectedVersion, op: `plan.step.${event}` }, (tx) =>
      event === 'start'
        ? startStep(tx, planId, number)
        : event === 'succeed'
          ? succeedStep(tx, planId, number, { evidence_refs: evidence, note: input.note })
          : failStep(tx, planId, number, { reason: input.reason ?? '', regenerate: input.regenerate === true }),
    );
    await tracePlanStep(ctx, place, r.result, number, event, clockOf(place)());
    return { version: r.version, plan: r.result };
  });
}

/** A plan run as `plan start|step|show <plan> --json` print it: with the steps ready now. */
export function planRunResult(version: number, plan: PlanRun): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, version, plan, ready: readySteps(plan).map((s) => s.number) } };
}
