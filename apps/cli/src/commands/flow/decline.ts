import { declineFlow } from '@ratchet/flows';
import { pinnedActor } from '../../actor.js';
import type { Context } from '../../context.js';
import { withInput } from '../../option-values.js';
import { declineInput, type FlowDeclineArgs } from './inputs.js';
import { guard, printView, runnerOptions } from './project.js';

/**
 * `ratchet flow decline --session S --reason TEXT`: the user's decision not to start the flow a
 * finished session routed to. Refused when the environment pins the caller as the agent
 * (RATCHET_ACTOR=agent): the agent told to start it does not excuse itself.
 */
async function decline(ctx: Context, input: FlowDeclineArgs): Promise<number> {
  const actor = pinnedActor(ctx) === 'agent' ? 'agent' : 'user';
  const view = await guard(ctx, async () => declineFlow(await runnerOptions(ctx), { sessionId: input.session, actor, reason: input.reason }));
  return printView(ctx, view, 'flow-decline');
}
export default withInput(declineInput, decline);
