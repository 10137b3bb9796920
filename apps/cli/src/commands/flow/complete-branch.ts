import { completeBranch } from '@ratchet/flows';
import type { Context } from '../../context.js';
import { guard, printView, runnerOptions, sessionOf } from './project.js';

/** `ratchet flow complete-branch STEP:BRANCH --session S`. */
export default async function completeBranchCommand(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const view = await guard(ctx, async () => completeBranch(await runnerOptions(ctx), { sessionId: sessionOf(options), branch: args[0]! }));
  return printView(ctx, view);
}
