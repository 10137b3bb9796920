import { resumeFlow } from '@ratchet/flows';
import type { Context } from '../../context.js';
import { guard, printView, runnerOptions, sessionOf, strings } from './project.js';

/** `ratchet flow resume --session S [--note TEXT]`. */
export default async function resume(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const view = await guard(ctx, async () => resumeFlow(await runnerOptions(ctx), { sessionId: sessionOf(options), notes: strings(options.note) }));
  return printView(ctx, view);
}
