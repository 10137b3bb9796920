import { startFlow } from '@ratchet/flows';
import type { Context } from '../../context.js';
import { recordOpened } from '../../hook/opened.js';
import { parsePairs } from '../../pairs.js';
import { guard, loadRef, printView, resolveFlow, runnerOptions, sessionOf, strings } from './project.js';

/** `ratchet flow start <flow> --session S [--input k=v] [--agent] [--then FLOW]`. */
export default async function start(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const spec = args[0]!;
  const view = await guard(ctx, async () => {
    const { ref } = await resolveFlow(ctx, spec);
    // The session runs the copy pinned now: an edit of the flow applies to the next session.
    const loaded = await loadRef(ctx, ref, sessionOf(options), true);
    return startFlow(await runnerOptions(ctx), {
      flow: loaded,
      ref,
      sessionId: sessionOf(options),
      inputs: parsePairs(options.input, '--input'),
      mode: options.agent === true ? 'agent' : 'normal',
      then: strings(options.then),
    });
  });
  // The agent now owes this flow: the Stop hook must see it, however it was started.
  await recordOpened(ctx.cwd, ctx.io.env, { kind: 'flow', key: view.session.sessionId });
  return printView(ctx, view);
}
