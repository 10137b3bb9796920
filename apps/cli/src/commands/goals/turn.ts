import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { assessTurn, assessTurnResult } from '../../operations/goals.js';
import { commitTurn, commitTurnResult } from '../../operations/goals-turn.js';
import { choiceOption, stringOption } from '../../option-values.js';
import { filedNote } from './actions.js';
import { assessmentLines } from './assessment-lines.js';
import { expectedVersionInput, locationInput, traceInput } from './goals-inputs.js';
import { clockOf, intOption, mapErrors, readJsonArg, type Options } from './shared.js';

/** `ratchet turn assess|commit`: what to look at when a turn starts, and the turn's deltas when it ends. */
export default async function turn(ctx: Context, args: string[], options: Options): Promise<number> {
  const [command, file] = args;
  return mapErrors(ctx, async () => {
    if (command === 'assess') {
      const owner = choiceOption(options, 'owner', ['agent', 'user'] as const);
      const result = await assessTurn(ctx, { now: clockOf(options)(), actions: intOption(options.limit, '--limit', 1), goals: intOption(options.goals, '--goals', 0), query: stringOption(options, 'query'), owner }, options);
      if (ctx.json) ctx.emitJson(assessTurnResult(result).document);
      else for (const text of assessmentLines(result, owner)) ctx.out(text);
      return EXIT_OK;
    }
    if (file === undefined) throw new CliError('turn commit: missing <file>');
    const input = await readJsonArg(ctx, file);
    const r = await commitTurn(ctx, { ...locationInput(options), ...traceInput(options), expectedVersion: expectedVersionInput(options), commit: input.value, file: input.file, locate: input.locate });
    if (ctx.json) ctx.emitJson(commitTurnResult(r).document);
    else if (r.replayed) ctx.out(`turn ${r.turn_id} was already committed: nothing changed (state v${r.version})`);
    else {
      ctx.out(`committed turn ${r.turn_id} as state v${r.version}: ${r.created.length} new, ${r.completed.length} completed, ${r.escalated.length} escalated`);
      for (const p of r.proposals) ctx.note(filedNote(p));
    }
    return EXIT_OK;
  });
}
