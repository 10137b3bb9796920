/**
 * `ratchet goals plan check|start|step|show`: a plan in the seed's format (narrative, then
 * `## Step N: name` sections) parsed and checked by @ratchet/goals, then executed step by step in
 * the goals state. `check` exits 1 when the plan has errors, 2 when it cannot be read; a refused
 * step move (not started, no evidence, waiting on another step) exits 1.
 */
import { parsePlan, readySteps, type ParsedPlan, type PlanRun } from '@ratchet/goals';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import type { GoalsLocation } from '../../operations/goals-input.js';
import { checkedPlanResult, planRunResult, readPlanFile, startPlanResult, startPlanRun, stepPlan, type PlanStepInput } from '../../operations/goals-plan.js';
import type { OptionBag } from '../../option-values.js';
import { countDiagnostics, formatStylish, formatSummary } from '../../output/diagnostics.js';
import { makeStyle } from '../../style.js';
import { locationInput, planStepInput, startPlanInput } from './goals-inputs.js';
import { mapErrors, openState } from './shared.js';

export default async function plan(ctx: Context, args: string[], options: OptionBag): Promise<number> {
  const [command, file] = args;
  if (command === 'step') return step(ctx, planStepInput(args.slice(1), options));
  if (command === 'show') return show(ctx, file, locationInput(options));
  if (file === undefined) throw new CliError(`goals plan ${command ?? 'check'}: missing <file>`);
  if (command === 'start') {
    const from = file === '-' ? { text: await ctx.io.readStdin(), source: '<stdin>' } : { file };
    const r = await startPlanRun(ctx, { ...startPlanInput(options), ...from });
    if (!r.started) return report(ctx, r.shown, r.parsed);
    if (ctx.json) ctx.emitJson(startPlanResult(r).document);
    else ctx.out(`started plan ${r.plan.id} from ${r.shown}: ${r.plan.steps.length} steps; ready: ${readyList(r.plan)}  (state v${r.version})`);
    return EXIT_OK;
  }
  const { text, shown } = file === '-' ? { text: await ctx.io.readStdin(), shown: '<stdin>' } : await readPlanFile(ctx, file);
  return report(ctx, shown, parsePlan(text));
}

/** `check`'s output: the problems (stylish) or the waves; the exit code. */
function report(ctx: Context, shown: string, parsed: ParsedPlan): number {
  const result = checkedPlanResult({ shown, parsed });
  if (ctx.json) {
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  const style = makeStyle(ctx.color);
  const diagnostics = parsed.issues.map((i) => ({ ruleId: i.rule, severity: i.severity, message: i.message, pointer: '', line: i.line, column: i.column }));
  for (const line of formatStylish(shown, diagnostics, style)) ctx.out(line);
  if (diagnostics.length > 0) ctx.out(formatSummary(countDiagnostics(diagnostics), style));
  if (parsed.ok) {
    ctx.out(`${style.green('✔')} ${shown}: ${parsed.steps.length} step${parsed.steps.length === 1 ? '' : 's'} in ${parsed.waves.length} wave${parsed.waves.length === 1 ? '' : 's'}`);
    parsed.waves.forEach((w, i) => ctx.out(`  wave ${i + 1}: ${w.map((n) => `Step ${n} (${parsed.steps[n - 1]!.name})`).join(', ')}`));
  }
  return result.exitCode;
}

/** `goals plan step <plan> <n> start|succeed|fail`. */
async function step(ctx: Context, input: PlanStepInput): Promise<number> {
  const r = await stepPlan(ctx, input);
  const run = r.plan;
  if (ctx.json) ctx.emitJson(planRunResult(r.version, run).document);
  else {
    const s = run.steps.find((x) => x.number === input.step)!;
    ctx.out(`plan ${run.id} Step ${input.step} (${s.name}): ${s.status}; plan ${run.status}${run.status === 'running' ? `; ready: ${readyList(run)}` : ''}  (state v${r.version})`);
    if (run.regeneration !== undefined && input.event === 'fail') ctx.note(`plan ${run.id}: a new plan is requested (Step ${run.regeneration.step} failed: ${run.regeneration.reason}); see \`ratchet goals context\``);
  }
  return EXIT_OK;
}

/** `goals plan show [plan]`: every run, or one run's steps. */
async function show(ctx: Context, planId: string | undefined, location: GoalsLocation): Promise<number> {
  return mapErrors(ctx, async () => {
    const state = await (await openState(ctx, location)).read();
    const runs = state.plans ?? [];
    if (planId === undefined) {
      if (ctx.json) ctx.emitJson({ ok: true, version: state.version, plans: runs.map((p) => ({ ...p, ready: readySteps(p).map((s) => s.number) })) });
      else if (runs.length === 0) ctx.out('no plans (ratchet goals plan start plan.md)');
      else for (const p of runs) ctx.out(`${p.id}  [${p.status}]  ${p.steps.filter((s) => s.status === 'succeeded').length}/${p.steps.length} steps${p.source !== undefined ? `  ${p.source}` : ''}${p.regeneration !== undefined ? '  REGENERATE' : ''}`);
      return EXIT_OK;
    }
    const run = runs.find((p) => p.id === planId);
    if (run === undefined) throw new CliError(`no plan "${planId}"`, { code: 'not-found' });
    if (ctx.json) ctx.emitJson(planRunResult(state.version, run).document);
    else {
      ctx.out(`${run.id}  [${run.status}]${run.goal_id !== undefined ? `  goal ${run.goal_id}` : ''}${run.source !== undefined ? `  ${run.source}` : ''}`);
      for (const s of run.steps) {
        const detail = s.criteria_met !== undefined ? `  evidence: ${s.criteria_met.evidence_refs.join(', ')}` : s.failure !== undefined ? `  failed: ${s.failure}` : '';
        ctx.out(`  Step ${s.number} [${s.status}] ${s.name}${detail}`);
      }
      if (run.regeneration !== undefined) ctx.out(`  new plan requested: Step ${run.regeneration.step} failed: ${run.regeneration.reason}`);
    }
    return EXIT_OK;
  });
}

function readyList(run: PlanRun): string {
  const ready = readySteps(run);
  return ready.length === 0 ? 'none' : ready.map((s) => `Step ${s.number}`).join(', ');
}
