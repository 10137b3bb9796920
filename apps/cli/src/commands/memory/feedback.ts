import { feedback as giveFeedback, type Entry } from '@ratchet/memory';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { memoryFile, projectMemory, now, withMemoryErrors } from './shared.js';

/** `ratchet memory feedback <name> --helped|--failed`. */
export default async function feedback(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [name] = args;
  if (name === undefined) throw new CliError('memory feedback: missing <name>');
  if (options.helped !== true && options.failed !== true) throw new CliError('memory feedback: pass --helped or --failed', { code: 'bad-option' });
  const outcome = options.helped === true ? 'helped' : 'failed';
  const file = memoryFile(ctx, options);
  const at = now();
  let entry: Entry | undefined;
  await withMemoryErrors(file.shown, async () => (await projectMemory(ctx, file.path)).update((draft) => void (entry = giveFeedback(draft, name, outcome, at))));
  const e = entry!;
  const ratio = (e.times_helped + 1) / (e.times_helped + e.times_failed + 2);
  if (ctx.json) ctx.emitJson({ ok: true, file: file.shown, name, outcome, times_helped: e.times_helped, times_failed: e.times_failed, helpRatio: ratio });
  else ctx.out(`${name}: ${outcome} (helped ${e.times_helped}, failed ${e.times_failed}; help ratio ${ratio.toFixed(2)})`);
  return EXIT_OK;
}
