import { advanceFlow } from '@ratchet/flows';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { parsePairs } from '../../pairs.js';
import { guard, printView, runnerOptions, sessionOf, strings } from './project.js';

/** `ratchet flow advance --session S [--loop | --remediate] [--set k=v] [--note t] [--question q]`. */
export default async function advance(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  if (options.loop === true && options.remediate === true) throw new CliError('--loop and --remediate cannot be combined');
  const view = await guard(ctx, async () =>
    advanceFlow(await runnerOptions(ctx), {
      sessionId: sessionOf(options),
      kind: options.loop === true ? 'loop' : options.remediate === true ? 'remediate' : 'next',
      set: parsePairs(options.set, '--set'),
      notes: strings(options.note),
      questions: strings(options.question),
    }),
  );
  return printView(ctx, view);
}
