import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { assessTurn, assessTurnResult } from '../../operations/goals.js';
import { choiceOption, stringOption } from '../../option-values.js';
import { filedNote } from './actions.js';
import { assessmentLines } from './assessment-lines.js';
import { actorOf, clockOf, expectedVersion, intOption, loadRegistryFor, mapErrors, openState, readJsonArg, registryFileOf, type Options } from './shared.js';
import { turnRegistry } from './trace-log.js';
import { traceCommit } from './trace-proposals.js';

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
    const registry = await loadRegistryFor(ctx, options);
    const store = await openState(ctx, options);
    if (file === undefined) throw new CliError('turn commit: missing <file>');
    const input = await readJsonArg(ctx, file);
    const flag = expectedVersion(options);
    if (flag !== undefined && input.value !== null && typeof input.value === 'object' && !Array.isArray(input.value)) {
      const inFile = (input.value as { expected_version?: unknown }).expected_version;
      if (inFile !== undefined && inFile !== flag) throw new CliError(`--expected-version ${flag} contradicts the commit's expected_version ${JSON.stringify(inFile)}`, { file: input.file });
      // The flag is the version the caller's assess saw; it does not change the commit's digest.
      input.value = { ...input.value, expected_version: flag };
    }
    // Problems in the commit are placed in its file: `turn.json:12:7: ... (at /completed_actions/1)`.
    // Judged against the registry the turn started with; trusted as the project's file is now (the agent cannot bring its own).
    const trusted = registryFileOf(ctx, options, registry);
    const turnId = input.value !== null && typeof input.value === 'object' ? (input.value as { turn_id?: unknown }).turn_id : undefined;
    const running = await turnRegistry(ctx, options, turnId, registry);
    const r = await mapErrors(ctx, () => store.commitTurn(running, input.value as never, { actor: actorOf(ctx, options), registry: trusted }), input);
    if (!r.replayed) await traceCommit(ctx, options, r, clockOf(options)());
    if (ctx.json) ctx.emitJson({ ok: true, ...r });
    else if (r.replayed) ctx.out(`turn ${r.turn_id} was already committed: nothing changed (state v${r.version})`);
    else {
      ctx.out(`committed turn ${r.turn_id} as state v${r.version}: ${r.created.length} new, ${r.completed.length} completed, ${r.escalated.length} escalated`);
      for (const p of r.proposals) ctx.note(filedNote(p));
    }
    return EXIT_OK;
  });
}
