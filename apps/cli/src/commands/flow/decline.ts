import { declineFlow } from '@ratchet/flows';
import { pinnedActor } from '../../actor.js';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { guard, printView, runnerOptions, sessionOf } from './project.js';

/**
 * `ratchet flow decline --session S --reason TEXT`: the user's decision not to start the flow a
 * finished session routed to. Refused when the environment pins the caller as the agent
 * (RATCHET_ACTOR=agent): the agent told to start it does not excuse itself.
 */
export default async function decline(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const actor = pinnedActor(ctx) === 'agent' ? 'agent' : 'user';
  const reason = options.reason;
  if (typeof reason !== 'string') throw new CliError('missing --reason <text>');
  const view = await guard(ctx, async () => declineFlow(await runnerOptions(ctx), { sessionId: sessionOf(options), actor, reason }));
  return printView(ctx, view, 'flow-decline');
}
