import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { assessTurn, assessTurnResult } from '../../operations/goals.js';
import { commitTurn, commitTurnResult } from '../../operations/goals-turn.js';
import type { OptionBag } from '../../option-values.js';
import { filedNote } from './actions.js';
import { assessmentLines } from './assessment-lines.js';
import { turnAssessInput, turnCommitInput, type TurnAssessInput, type TurnCommitInput } from './goals-inputs.js';
import { clockOf, mapErrors, readJsonArg } from './shared.js';

/** `ratchet turn assess|commit`: what to look at when a turn starts, and the turn's deltas when it ends. */
export default async function turn(ctx: Context, args: string[], options: OptionBag): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'assess') return assess(ctx, turnAssessInput(rest, options));
  if (command === 'commit') return commit(ctx, turnCommitInput(rest, options));
  throw new CliError(`turn ${command ?? ''}: unknown command`);
}

async function assess(ctx: Context, input: TurnAssessInput): Promise<number> {
  return mapErrors(ctx, async () => {
    const result = await assessTurn(ctx, { now: clockOf(input)(), actions: input.limit, goals: input.goals, query: input.query, owner: input.owner }, input);
    if (ctx.json) ctx.emitJson(assessTurnResult(result).document);
    else for (const text of assessmentLines(result, input.owner)) ctx.out(text);
    return EXIT_OK;
  });
}

async function commit(ctx: Context, input: TurnCommitInput): Promise<number> {
  return mapErrors(ctx, async () => {
    const json = await readJsonArg(ctx, input.file);
    const r = await commitTurn(ctx, { ...input, commit: json.value, file: json.file, locate: json.locate });
    if (ctx.json) ctx.emitJson(commitTurnResult(r).document);
    else if (r.replayed) ctx.out(`turn ${r.turn_id} was already committed: nothing changed (state v${r.version})`);
    else {
      ctx.out(`committed turn ${r.turn_id} as state v${r.version}: ${r.created.length} new, ${r.completed.length} completed, ${r.escalated.length} escalated`);
      for (const p of r.proposals) ctx.note(filedNote(p));
    }
    return EXIT_OK;
  });
}
