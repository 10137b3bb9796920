import { resolve } from 'node:path';
import { fire, pinsOf, startPlan, type Session } from '@ratchet/orchestrator';
import { formatJson, formatStylish, hasErrors, lintPlan } from '@ratchet/plan-lint';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import { defaultDialectPath, dialectMeaning, loadPlanProject } from '../../plan-project.js';
import { pinnedSource } from '../../rule-pins.js';
import { patcherFor, withBaseline } from '../../step-effect.js';
import { asCliError, isPlanRunError, requireTrigger, logActivity, printDirective, requireSession, sessionJson } from '../../task-session.js';
import { versioned } from '../../output/json-output.js';

/**
 * `ratchet run plan <file>`: the orchestrator's PLANNING gate. The plan is linted (FSM, closure,
 * files, call_plan); with errors the task stays in PLANNING (plan_rejected) and the findings are
 * printed (exit 1); a clean plan goes on the stack and its first step is the directive. Its
 * for_each_file loops iterate what lint's simulated file system held at each loop (files the plan
 * creates first included), stored in the session for the sub-plans still to be called.
 */
export default async function runPlan(ctx: Context, [plan]: string[], options: Record<string, unknown>): Promise<number> {
  if (plan === undefined) throw new CliError('run plan: missing <plan>');
  const { file, session, machine } = await requireSession(ctx, options);
  requireTrigger(session, 'plan_accepted', machine);

  const registry = options.registry as string | undefined;
  const dialect = options.dialect as string | undefined;
  // A started task is checked against the project's own language: a per-call dialect cannot lower the bar.
  if (dialect !== undefined) {
    const own = defaultDialectPath(ctx.cwd);
    if (dialectMeaning(resolve(ctx.cwd, dialect), ctx.cwd) !== dialectMeaning(own, ctx.cwd)) {
      const source = pinnedSource(ctx.cwd, own);
      const shown = source === undefined ? displayPath(ctx, own) : `${source} (as pinned when the task started)`;
      throw new CliError(`--dialect ${dialect} differs from ${shown} (or the FSM it names): a task's plans are checked against the project's dialect and FSM; drop --dialect, or change the project's protocols`, {
        code: 'dialect-differs',
        file: resolve(ctx.cwd, dialect),
      });
    }
  }
  const project = await loadPlanProject(ctx, plan, { root: ctx.cwd, dialect, registry });
  // Every plan lint reads, as it read it: the run starts from these texts and pins each one
  // ({file} targets included), so a plan edited after this lint is never the one that runs.
  const read = new Map<string, string>();
  const host = {
    readPlan: (rel: string): ReturnType<typeof project.host.readPlan> => {
      const text = read.get(rel) ?? project.host.readPlan(rel);
      if (typeof text === 'string') read.set(rel, text);
      return text;
    },
  };
  // The expansion: what each for_each_file iterates in lint's simulated file system, which the run serves.
  const { findings, expansion } = lintPlan({ ...project, host, expansion: true });
  const now = (): Date => new Date();

  if (hasErrors(findings)) {
    const errors = findings.filter((f) => f.severity === 'error').length;
    const rejected = await file.update((s) => fire(s, 'plan_rejected', { now, machine, message: `${project.entry}: ${errors} lint error(s)` }));
    await logActivity(ctx, rejected, { type: 'PLAN_REJECTED', status: 'FAILURE', message: `${errors} lint error(s)`, details: { plan: project.entry, rules: [...new Set(findings.map((f) => f.ruleId))] } });
    if (ctx.json) ctx.emitJson({ ok: false, ...sessionJson(rejected, machine), plan: project.entry, findings: JSON.parse(formatJson(findings)) as unknown });
    else {
      ctx.out(formatStylish(findings, { color: ctx.color }).trimEnd());
      ctx.out(`\nPlan rejected: task ${rejected.taskId} stays in PLANNING. Fix the plan and run \`ratchet run plan ${plan}\` again.`);
    }
    return EXIT_PROBLEMS;
  }

  let started: Session;
  // A code-change plan's first step may be its edit: its diff is known before the step is served.
  const patch = await patcherFor(ctx, read.keys());
  try {
    // The registry is remembered: `run done` resolves later call_plan names through the same one.
    started = await file.update((s) => {
      const { registry: _previous, ...next } = startPlan(s, project.entry, { now, machine, registry: project.registry, files: () => [...project.files.list()], readPlan: host.readPlan, expansion });
      // The content that was linted, and the registry it was linted with: a sub-plan that differs when called is refused.
      const pinned = withBaseline(ctx, { ...next, pins: pinsOf(read, project.registry) }, project.dialect, patch);
      return registry === undefined ? pinned : { ...pinned, registry };
    });
  } catch (err) {
    if (isPlanRunError(err)) throw new CliError(err.message, { code: err.code, exitCode: EXIT_PROBLEMS });
    asCliError(err, session);
  }
  await logActivity(ctx, started, { type: 'PLAN_ACCEPTED', status: 'SUCCESS', message: `${project.entry} accepted`, phase: 'PLANNING', details: { plan: project.entry } });
  if (ctx.json) {
    ctx.emitJson(versioned('task-transition', { ok: true, ...sessionJson(started, machine), plan: project.entry, warnings: findings.length, next: printDirective({ ...ctx, out: () => undefined }, started) }));
    return EXIT_OK;
  }
  const warnings = formatStylish(findings, { color: ctx.color }).trimEnd();
  if (warnings) ctx.out(warnings);
  ctx.out(`Plan ${project.entry} accepted: task ${started.taskId} is ${started.state}.`);
  printDirective(ctx, started);
  return EXIT_OK;
}
