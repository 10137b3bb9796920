import { resumeFlow } from '@ratchet/flows';
import { pinnedActor } from '../../actor.js';
import type { Context } from '../../context.js';
import { guard, printView, runnerOptions, sessionOf, strings } from './project.js';

/**
 * `ratchet flow resume --session S [--answer TEXT]... [--note TEXT]`: the user's decision after a
 * halt. An environment that pins its caller as the agent (RATCHET_ACTOR=agent) is refused: an agent
 * that halted to ask must not answer itself.
 */
export default async function resume(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const actor = pinnedActor(ctx) === 'agent' ? 'agent' : 'user';
  const view = await guard(ctx, async () =>
    resumeFlow(await runnerOptions(ctx), { sessionId: sessionOf(options), actor, answers: strings(options.answer), notes: strings(options.note) }),
  );
  return printView(ctx, view);
}
