/**
 * `ratchet goals plan check|start|step|show`: a plan in the seed's format (narrative, then
 * `## Step N: name` sections) parsed and checked by @ratchet/goals, then executed step by step in
 * the goals state. `check` exits 1 when the plan has errors, 2 when it cannot be read; a refused
 * step move (not started, no evidence, waiting on another step) exits 1.
 */
import { resolve } from 'node:path';
import { failStep, parsePlan, planDigest, readySteps, startPlan, startStep, succeedStep, type ParsedPlan, type PlanRun } from '@ratchet/goals';
import { readTextFile } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { countDiagnostics, formatStylish, formatSummary } from '../../output/diagnostics.js';
import { displayPath } from '../../paths.js';
import { makeStyle } from '../../style.js';
import { actorOf, clockOf, expectedVersion, intOption, mapErrors, openState, type Options } from './shared.js';
import { tracePlanStart, tracePlanStep } from './trace-plan.js';

/** Plans are a page or two; a larger file is not one (and is refused before it is read). */
const MAX_PLAN_BYTES = 1024 * 1024;

export default async function plan(ctx: Context, args: string[], options: Options): Promise<number> {
  const [command, file] = args;
  if (command === 'step') return step(ctx, args.slice(1), options);
  if (command === 'show') return show(ctx, file, options);
  if (file === undefined) throw new CliError(`goals plan ${command ?? 'check'}: missing <file>`);
  const { text, shown } = await readPlan(ctx, file);
  const parsed = parsePlan(text);
  if (command === 'start') {
    if (!parsed.ok) {
      report(ctx, shown, parsed);
      return EXIT_PROBLEMS;
    }
    return mapErrors(ctx, async () => {
      const r = await (await openState(ctx, options)).mutate({ actor: actorOf(ctx, options), expected_version: expectedVersion(options), op: 'plan.start' }, (tx) =>
        startPlan(tx, { plan: parsed, digest: planDigest(text), source: shown, id: options.id as string | undefined, goal_id: options.goal as string | undefined, turn_id: options.turn as string | undefined }),
      );
      if (ctx.json) ctx.emitJson({ ok: true, version: r.version, plan: r.result, ready: readySteps(r.result).map((s) => s.number) });
      else ctx.out(`started plan ${r.result.id} from ${shown}: ${r.result.steps.length} steps; ready: ${readyList(r.result)}  (state v${r.version})`);
      await tracePlanStart(ctx, options, r.result, clockOf(options)());
      return EXIT_OK;
    });
  }
  return report(ctx, shown, parsed);
}

async function readPlan(ctx: Context, file: string): Promise<{ text: string; shown: string }> {
  let text: string;
  let shown: string;
  if (file === '-') {
    text = await ctx.io.readStdin();
    shown = '<stdin>';
  } else {
    const read = await readTextFile(resolve(ctx.cwd, file), { maxBytes: MAX_PLAN_BYTES });
    text = read.text;
    shown = displayPath(ctx, read.path);
  }
  return { text, shown };
}

/** `check`'s output: the problems (stylish) or the waves; the exit code. */
function report(ctx: Context, shown: string, parsed: ParsedPlan): number {
  if (ctx.json) {
    ctx.emitJson({ file: shown, ...parsed });
    return parsed.ok ? EXIT_OK : EXIT_PROBLEMS;
  }
  const style = makeStyle(ctx.color);
  const diagnostics = parsed.issues.map((i) => ({ ruleId: i.rule, severity: i.severity, message: i.message, pointer: '', line: i.line, column: i.column }));
  for (const line of formatStylish(shown, diagnostics, style)) ctx.out(line);
  if (diagnostics.length > 0) ctx.out(formatSummary(countDiagnostics(diagnostics), style));
  if (parsed.ok) {
    ctx.out(`${style.green('✔')} ${shown}: ${parsed.steps.length} step${parsed.steps.length === 1 ? '' : 's'} in ${parsed.waves.length} wave${parsed.waves.length === 1 ? '' : 's'}`);
    parsed.waves.forEach((w, i) => ctx.out(`  wave ${i + 1}: ${w.map((n) => `Step ${n} (${parsed.steps[n - 1]!.name})`).join(', ')}`));
  }
  return parsed.ok ? EXIT_OK : EXIT_PROBLEMS;
}

/** `goals plan step <plan> <n> start|succeed|fail`. */
async function step(ctx: Context, args: string[], options: Options): Promise<number> {
  const [planId, numberText, event] = args;
  if (planId === undefined || numberText === undefined || event === undefined) throw new CliError('goals plan step: give <plan> <step> <start|succeed|fail>');
  const number = intOption(numberText, '<step>', 1)!;
  if (!['start', 'succeed', 'fail'].includes(event)) throw new CliError(`goals plan step: the event is start, succeed or fail, not ${JSON.stringify(event)}`);
  const evidence = (options.evidence as string[] | undefined) ?? [];
  return mapErrors(ctx, async () => {
    const r = await (await openState(ctx, options)).mutate({ actor: actorOf(ctx, options), expected_version: expectedVersion(options), op: `plan.step.${event}` }, (tx) =>
      event === 'start'
        ? startStep(tx, planId, number)
        : event === 'succeed'
          ? succeedStep(tx, planId, number, { evidence_refs: evidence, note: options.note as string | undefined })
          : failStep(tx, planId, number, { reason: (options.reason as string | undefined) ?? '', regenerate: options.regenerate === true }),
    );
    const run = r.result;
    await tracePlanStep(ctx, options, run, number, event, clockOf(options)());
    if (ctx.json) ctx.emitJson({ ok: true, version: r.version, plan: run, ready: readySteps(run).map((s) => s.number) });
    else {
      const s = run.steps.find((x) => x.number === number)!;
      ctx.out(`plan ${run.id} Step ${number} (${s.name}): ${s.status}; plan ${run.status}${run.status === 'running' ? `; ready: ${readyList(run)}` : ''}  (state v${r.version})`);
      if (run.regeneration !== undefined && event === 'fail') ctx.note(`plan ${run.id}: a new plan is requested (Step ${run.regeneration.step} failed: ${run.regeneration.reason}); see \`ratchet goals context\``);
    }
    return EXIT_OK;
  });
}

/** `goals plan show [plan]`: every run, or one run's steps. */
async function show(ctx: Context, planId: string | undefined, options: Options): Promise<number> {
  return mapErrors(ctx, async () => {
    const state = await (await openState(ctx, options)).read();
    const runs = state.plans ?? [];
    if (planId === undefined) {
      if (ctx.json) ctx.emitJson({ ok: true, version: state.version, plans: runs.map((p) => ({ ...p, ready: readySteps(p).map((s) => s.number) })) });
      else if (runs.length === 0) ctx.out('no plans (ratchet goals plan start plan.md)');
      else for (const p of runs) ctx.out(`${p.id}  [${p.status}]  ${p.steps.filter((s) => s.status === 'succeeded').length}/${p.steps.length} steps${p.source !== undefined ? `  ${p.source}` : ''}${p.regeneration !== undefined ? '  REGENERATE' : ''}`);
      return EXIT_OK;
    }
    const run = runs.find((p) => p.id === planId);
    if (run === undefined) throw new CliError(`no plan "${planId}"`, { code: 'not-found' });
    if (ctx.json) ctx.emitJson({ ok: true, version: state.version, plan: run, ready: readySteps(run).map((s) => s.number) });
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
