import type { AuditSummary, Goal } from '@ratchet/goals';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { addGoal, goalProgress, goalSavedResult, listGoals, listGoalsResult, type GoalSaved, type ListGoalsInput } from '../../operations/goals-goals.js';
import type { OptionBag } from '../../option-values.js';
import { addGoalInput, goalProgressInput, historyInput, listGoalsInput, revertInput, type HistoryInput, type RevertInput } from './goals-inputs.js';
import { actorOf, mapErrors, openState } from './shared.js';

/** `ratchet goals add|list|progress|history|revert`. */
export default async function goals(ctx: Context, args: string[], options: OptionBag): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'list') return list(ctx, listGoalsInput(rest, options));
  if (command === 'add') return saved(ctx, await addGoal(ctx, addGoalInput(rest, options)), true);
  if (command === 'progress') return saved(ctx, await goalProgress(ctx, goalProgressInput(rest, options)), false);
  if (command === 'history') return history(ctx, historyInput(rest, options));
  if (command === 'revert') return revert(ctx, revertInput(rest, options));
  throw new CliError(`goals ${command ?? ''}: unknown command`);
}

async function list(ctx: Context, input: ListGoalsInput): Promise<number> {
  const r = await listGoals(ctx, input);
  if (ctx.json) ctx.emitJson(listGoalsResult(r).document);
  else if (r.goals.length === 0) ctx.out('no goals (ratchet goals add "..." to add one)');
  else for (const g of r.goals) ctx.out(line(g));
  return EXIT_OK;
}

/** A goal added or changed (`add` says whether anything changed), or its progress. */
function saved(ctx: Context, r: GoalSaved, added: boolean): number {
  if (ctx.json) ctx.emitJson(goalSavedResult(r).document);
  else ctx.out(`${added ? `${r.changed ? 'saved' : 'unchanged'} ` : ''}${line(r.goal)}  (state v${r.version})`);
  return EXIT_OK;
}

async function history(ctx: Context, input: HistoryInput): Promise<number> {
  const { since } = input;
  const store = await openState(ctx, input);
  return mapErrors(ctx, async () => {
    const entries = await store.history(since);
    const summaries = (await store.summaries()).filter((s) => s.to_version > since);
    if (ctx.json) ctx.emitJson({ ok: true, summaries, history: entries });
    else for (const s of summaries) ctx.out(summaryLine(s));
    // An entry's changes outside the reader's access scope are left out by the scoped read; an entry is never empty otherwise.
    if (!ctx.json) for (const e of entries) ctx.out(`v${e.version}  ${e.at}  ${e.who}${e.agent_id !== undefined ? ` (agent ${e.agent_id})` : ''}  ${e.op}${e.turn_id ? ` (turn ${e.turn_id})` : ''}${e.reverted_to !== undefined ? ` (to v${e.reverted_to})` : ''}  ${e.changes.length === 0 ? '(changes outside your scope)' : e.changes.map((c) => `${c.kind}:${c.id}`).join(' ')}`);
    return EXIT_OK;
  });
}

async function revert(ctx: Context, input: RevertInput): Promise<number> {
  const { to } = input;
  const store = await openState(ctx, input);
  const meta = { actor: actorOf(ctx, input), expected_version: input.expectedVersion };
  return mapErrors(ctx, async () => {
    const r = await store.revert(to, meta);
    if (ctx.json) ctx.emitJson({ ok: true, reverted_to: to, version: r.version, changed: r.entry?.changes.length ?? 0 });
    else ctx.out(r.entry === undefined ? `already as at v${to}: nothing to revert` : `reverted to v${to} as v${r.version} (${r.entry.changes.length} change${r.entry.changes.length === 1 ? '' : 's'})`);
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
