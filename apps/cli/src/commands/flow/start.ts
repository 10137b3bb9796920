import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sessionPath, startFlow } from '@ratchet/flows';
import { journalEntry } from '@ratchet/store';
import type { Context } from '../../context.js';
import { recordOpened } from '../../hook/opened.js';
import { parsePairs } from '../../pairs.js';
import { PINS_FILE, dropFlowPin } from '../../rule-pins.js';
import { guard, loadRef, printView, resolveFlow, runnerOptions, sessionOf, strings } from './project.js';

/** `ratchet flow start <flow> --session S [--input k=v] [--agent] [--then FLOW]`. */
export default async function start(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const spec = args[0]!;
  const view = await guard(ctx, async () => {
    const { ref } = await resolveFlow(ctx, spec);
    const sessionId = sessionOf(options);
    // The session runs the copy pinned now: an edit of the flow applies to the next session. A
    // session Ratchet has written (or that vanished) keeps its pin: the start is refused, and
    // re-pinning would let a second `flow start` swap the running session's flow.
    const file = sessionPath(ctx.cwd, sessionId);
    const fresh = !existsSync(file) && (journalEntry(file)?.removed ?? true);
    const runner = await runnerOptions(ctx);
    const hadPins = existsSync(join(ctx.cwd, PINS_FILE));
    const loaded = await loadRef(ctx, ref, fresh ? sessionId : undefined, true);
    try {
      return await startFlow(runner, {
        flow: loaded,
        ref,
        sessionId,
        inputs: parsePairs(options.input, '--input'),
        mode: options.agent === true ? 'agent' : 'normal',
        then: strings(options.then),
      });
    } catch (err) {
      if (fresh) await dropFlowPin(ctx.cwd, sessionId, hadPins);
      throw err;
    }
  });
  // The agent now owes this flow: the Stop hook must see it, however it was started.
  await recordOpened(ctx.cwd, ctx.io.env, { kind: 'flow', key: view.session.sessionId });
  return printView(ctx, view);
}
