import { updateProgress, upsertGoal, type AuditSummary, type Goal } from '@ratchet/goals';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { parsePairs } from '../../pairs.js';
import { actorOf, expectedVersion, intOption, mapErrors, numberOption, openState, type Options } from './shared.js';

/** `ratchet goals add|list|progress|history|revert`. */
export default async function goals(ctx: Context, args: string[], options: Options): Promise<number> {
  const [command, arg] = args;
  const store = await openState(ctx, options);
  const meta = { actor: actorOf(ctx, options), expected_version: expectedVersion(options) };
  return mapErrors(ctx, async () => {
    if (command === 'list') {
      const state = await store.read();
      const list = state.goals.filter((g) => options.all === true || g.status === 'active' || g.status === 'proposed').sort((a, b) => b.priority - a.priority || (a.id < b.id ? -1 : 1));
      if (ctx.json) ctx.emitJson({ ok: true, version: state.version, goals: list });
      else if (list.length === 0) ctx.out('no goals (ratchet goals add "..." to add one)');
      else for (const g of list) ctx.out(line(g));
      return EXIT_OK;
    }
    if (command === 'history') {
      const since = intOption(options.since, '--since') ?? 0;
      const entries = await store.history(since);
      const summaries = (await store.summaries()).filter((s) => s.to_version > since);
      if (ctx.json) ctx.emitJson({ ok: true, summaries, history: entries });
      else for (const s of summaries) ctx.out(summaryLine(s));
      // An entry's changes outside the reader's access scope are left out by the scoped read; an entry is never empty otherwise.
      if (!ctx.json) for (const e of entries) ctx.out(`v${e.version}  ${e.at}  ${e.who}${e.agent_id !== undefined ? ` (agent ${e.agent_id})` : ''}  ${e.op}${e.turn_id ? ` (turn ${e.turn_id})` : ''}${e.reverted_to !== undefined ? ` (to v${e.reverted_to})` : ''}  ${e.changes.length === 0 ? '(changes outside your scope)' : e.changes.map((c) => `${c.kind}:${c.id}`).join(' ')}`);
      return EXIT_OK;
    }
    if (command === 'revert') {
      const to = intOption(arg, 'version');
      if (to === undefined) throw new CliError('goals revert: missing <version>');
      const r = await store.revert(to, meta);
      if (ctx.json) ctx.emitJson({ ok: true, reverted_to: to, version: r.version, changed: r.entry?.changes.length ?? 0 });
      else ctx.out(r.entry === undefined ? `already as at v${to}: nothing to revert` : `reverted to v${to} as v${r.version} (${r.entry.changes.length} change${r.entry.changes.length === 1 ? '' : 's'})`);
      return EXIT_OK;
    }
    if (command === 'add') {
      if (arg === undefined && options.id === undefined) throw new CliError('goals add: missing <title> (or --id of a goal to update)');
      const days = numberOption(options.horizonDays, '--horizon-days');
      const steps = numberOption(options.horizonSteps, '--horizon-steps');
      const metrics = metricsOf(options.metric);
      const r = await store.mutate({ ...meta, op: 'goal.upsert' }, (tx) => {
        // An update keeps what it does not name: the other metrics, the other half of the horizon.
        const existing = typeof options.id === 'string' ? tx.find('goal', options.id) : undefined;
        return upsertGoal(tx, {
          id: options.id as string | undefined,
          title: arg,
          priority: numberOption(options.priority, '--priority'),
          description: options.description as string | undefined,
          parent_goal_id: options.parent as string | undefined,
          status: options.status as Goal['status'] | undefined,
          horizon: days === undefined && steps === undefined ? undefined : { ...existing?.horizon, ...(days === undefined ? {} : { days }), ...(steps === undefined ? {} : { steps }) },
          metrics: metrics === undefined ? undefined : { ...existing?.metrics, ...metrics },
          constraints: options.constraint as string[] | undefined,
        });
      });
      if (ctx.json) ctx.emitJson({ ok: true, version: r.version, goal: r.result });
      else ctx.out(`${r.entry === undefined ? 'unchanged' : 'saved'} ${line(r.result)}  (state v${r.version})`);
      return EXIT_OK;
    }
    // progress
    if (arg === undefined) throw new CliError('goals progress: missing <id>');
    const set = numberOption(options.set, '--set');
    const delta = numberOption(options.delta, '--delta');
    if (set === undefined && delta === undefined && options.evidence === undefined) throw new CliError('goals progress: give --set, --delta or --evidence');
    const r = await store.mutate({ ...meta, op: 'goal.progress' }, (tx) => updateProgress(tx, { goal_id: arg, progress: set, delta, evidence_refs: options.evidence as string[] | undefined }));
    if (ctx.json) ctx.emitJson({ ok: true, version: r.version, goal: r.result });
    else ctx.out(`${line(r.result)}  (state v${r.version})`);
    return EXIT_OK;
  });
}

/** One line per compacted range: what it holds, and the revert point it keeps. */
function summaryLine(s: AuditSummary): string {
  const ops = Object.entries(s.ops).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 5).map(([op, n]) => `${op} x${n}`).join(', ');
  const extra = [`${s.milestones.length} milestone${s.milestones.length === 1 ? '' : 's'}`, `${s.evidence_refs.length} evidence ref${s.evidence_refs.length === 1 ? '' : 's'}`, `${s.archived.length} archived`];
  return `v${s.from_version}-v${s.to_version}  ${s.from_at} .. ${s.to_at}  summary of ${s.entries} entries (${ops})  ${extra.join(', ')}  ${s.revert_point === undefined ? 'no revert point' : `revert point v${s.revert_point}`}`;
}

function line(g: Goal): string {
  return `${g.id}  [${g.status}]  p${g.priority}  ${Math.round(g.progress * 100)}%  ${g.title}`;
}

/** `--metric name=value` pairs: each value a number, each name a plain key (never `__proto__`). */
function metricsOf(values: unknown): Record<string, number> | undefined {
  if (values === undefined) return undefined;
  const out: Record<string, number> = {};
  for (const [name, text] of Object.entries(parsePairs(values, '--metric'))) {
    if (!/^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/.test(name)) throw new CliError(`--metric ${name}: a metric name starts with a letter and uses letters, digits, "_", ".", ":" or "-"`);
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value)) throw new CliError(`--metric ${name}=${text}: the value must be a number`);
    out[name] = value;
  }
  return out;
}
