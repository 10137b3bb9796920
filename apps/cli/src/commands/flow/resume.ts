import { resumeFlow } from '@ratchet/flows';
import { pinnedActor } from '../../actor.js';
import type { Context } from '../../context.js';
import { withInput } from '../../option-values.js';
import { resumeInput, type FlowResumeArgs } from './inputs.js';
import { guard, printView, runnerOptions } from './project.js';

/**
 * `ratchet flow resume --session S [--answer TEXT]... [--note TEXT]`: the user's decision after a
 * halt. An environment that pins its caller as the agent (RATCHET_ACTOR=agent) is refused: an agent
 * that halted to ask must not answer itself.
 */
async function resume(ctx: Context, input: FlowResumeArgs): Promise<number> {
  const actor = pinnedActor(ctx) === 'agent' ? 'agent' : 'user';
  const view = await guard(ctx, async () =>
    resumeFlow(await runnerOptions(ctx), { sessionId: input.session, actor, answers: input.answers, notes: input.notes }),
  );
  return printView(ctx, view);
}
export default withInput(resumeInput, resume);
