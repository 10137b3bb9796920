/**
 * `ratchet scratch add|list|review|promote|archive|expire`: the Scratch Page of @ratchet/goals,
 * low-commitment observations beside the formal goals and actions. Items past their time leave
 * `list` on read; `expire` archives them. The writes are typed operations (src/operations/notes.ts).
 */
import { scratchView, type Observation } from '@ratchet/goals';
import type { CommandAction, Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import {
  addScratch,
  archiveScratch,
  expireScratch,
  expireScratchResult,
  promoteScratch,
  promoteScratchResult,
  reviewScratch,
  scratchItemResult,
  type NotesWritten,
} from '../../operations/notes.js';
import { withInput, type OptionBag } from '../../option-values.js';
import { filedNote, line as actionLine } from './actions.js';
import { scratchAddInput, scratchArchiveInput, scratchExpireInput, scratchListInput, scratchPromoteInput, scratchReviewInput, type ScratchListInput } from './notes-inputs.js';
import { clockOf, mapErrors, openState } from './shared.js';

export default async function scratch(ctx: Context, args: string[], options: OptionBag): Promise<number> {
  const [command] = args;
  const write = command === undefined ? undefined : WRITES[command];
  if (write !== undefined) return write(ctx, args, options);
  return list(ctx, scratchListInput(args, options));
}

/** `scratch list`. */
async function list(ctx: Context, input: ScratchListInput): Promise<number> {
  const store = await openState(ctx, input);
  return mapErrors(ctx, async () => {
    const view = scratchView(await store.read(), clockOf(input)(), { status: input.status, tag: input.tag });
    if (ctx.json) ctx.emitJson({ ok: true, ...view, ...(input.all ? {} : { settled: undefined }) });
    else {
      if (view.active.length === 0) ctx.out('no active observations (ratchet scratch add "..." --source <where>)');
      for (const o of view.active) ctx.out(line(o));
      if (view.expired.length > 0) ctx.out(`${view.expired.length} expired (out of the active set; ratchet scratch expire archives them)${input.all ? ':' : ''}`);
      if (input.all) for (const o of [...view.expired, ...view.settled]) ctx.out(line(o));
    }
    return EXIT_OK;
  });
}

/** The writes: add, review, archive, expire, promote (src/operations/notes.ts does them). */
const WRITES: Record<string, CommandAction> = {
  add: withInput(scratchAddInput, async (ctx, input) => done(ctx, await addScratch(ctx, input), 'added')),
  review: withInput(scratchReviewInput, async (ctx, input) => done(ctx, await reviewScratch(ctx, input), 'reviewed')),
  archive: withInput(scratchArchiveInput, async (ctx, input) => done(ctx, await archiveScratch(ctx, input), 'archived')),
  expire: withInput(scratchExpireInput, async (ctx, input) => {
    const w = await expireScratch(ctx, input);
    const result = expireScratchResult(w);
    if (ctx.json) ctx.emitJson(result.document);
    else ctx.out(w.result.length === 0 ? 'nothing has expired' : `archived ${w.result.length} expired: ${w.result.join(', ')}  (state v${w.version})`);
    return result.exitCode;
  }),
  promote: withInput(scratchPromoteInput, async (ctx, input) => {
    const w = await promoteScratch(ctx, input);
    const result = promoteScratchResult(w);
    if (ctx.json) ctx.emitJson(result.document);
    else {
      ctx.out(`promoted ${input.id} to ${w.result.goal !== undefined ? `goal ${w.result.goal.id}: ${w.result.goal.title}` : `action ${actionLine(w.result.action!.action)}`}  (state v${w.version})`);
      if (w.result.action?.proposal !== undefined) ctx.note(filedNote(w.result.action.proposal));
    }
    return result.exitCode;
  }),
};

function done(ctx: Context, w: NotesWritten<Observation>, what: string): number {
  const result = scratchItemResult(w);
  if (ctx.json) ctx.emitJson(result.document);
  else ctx.out(`${what} ${line(w.result)}  (state v${w.version})`);
  return result.exitCode;
}

function line(o: Observation): string {
  const flat = o.content.replace(/\s+/g, ' ');
  const text = flat.length > 100 ? `${flat.slice(0, 97)}...` : flat;
  return `${o.id}  ${o.type}  [${o.status}]  ${o.owner}  c${o.confidence}  ${text}  (from ${o.source}; expires ${o.expires_at}${o.tags.length > 0 ? `; ${o.tags.join(', ')}` : ''}${o.promoted_to !== undefined ? `; became ${o.promoted_to.kind} ${o.promoted_to.id}` : ''})`;
}
