import { haltFlow } from '@ratchet/flows';
import type { Context } from '../../context.js';
import { guard, printView, runnerOptions, sessionOf } from './project.js';

/** `ratchet flow halt --session S --reason TEXT`. */
export default async function halt(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const view = await guard(ctx, async () => haltFlow(await runnerOptions(ctx), { sessionId: sessionOf(options), reason: String(options.reason) }));
  return printView(ctx, view);
}
