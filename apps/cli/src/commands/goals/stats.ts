import { actionStats, type ActionTypeCounts } from '@ratchet/goals';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { withInput } from '../../option-values.js';
import { statsInput, type StatsInput } from './goals-inputs.js';
import { clockOf, loadRegistryFor, mapErrors, openState } from './shared.js';

const pct = (r: number | null): string => (r === null ? '-' : `${(r * 100).toFixed(1)}%`);

/** `ratchet actions stats [--since T] [--now T]`: per-type figures for a type's rollout (seed 002). */
async function stats(ctx: Context, input: StatsInput): Promise<number> {
  const { since } = input;
  const now = clockOf(input)();
  return mapErrors(ctx, async () => {
    const [state, registry] = await Promise.all([(await openState(ctx, input)).read(), loadRegistryFor(ctx, input)]);
    const doc = actionStats(state, registry, { now, since });
    if (ctx.json) {
      // The document as its JSON Schema describes it (it names the schema in $schema), as goals context prints its own.
      ctx.emitJson(doc);
      return EXIT_OK;
    }
    const head = ['type', 'created', 'completed', 'completion', 'open', 'overdue', 'escalated', 'cancelled', 'failed', 'failure', 'coerced'];
    const cells = (name: string, c: ActionTypeCounts): string[] => [name, String(c.created), String(c.completed), pct(c.completion_rate), String(c.open), String(c.overdue), String(c.escalated), String(c.cancelled), String(c.failed), pct(c.failure_rate), String(c.coerced)];
    const rows = [head, ...doc.types.map((t) => cells(t.registered ? t.type : `${t.type} (unregistered)`, t)), cells('total', doc.totals)];
    const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) ctx.out(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd());
    ctx.out(`(state v${doc.version}${doc.since === undefined ? ', whole history' : `, since ${doc.since}`}, as of ${doc.generated_at})`);
    return EXIT_OK;
  });
}

export default withInput(statsInput, stats);
