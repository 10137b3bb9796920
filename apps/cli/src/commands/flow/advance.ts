import { resolve } from 'node:path';
import { advanceFlow, MAX_OUTPUT_CHARS } from '@ratchet/flows';
import { readTextFile } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { parsePairs } from '../../pairs.js';
import { readStdinLimited } from '../../stdin.js';
import { guard, printView, runnerOptions, sessionOf, strings } from './project.js';

/** UTF-8 takes at most 3 bytes per UTF-16 unit: the byte cap that lets MAX_OUTPUT_CHARS through and stops a runaway pipe. */
const MAX_OUTPUT_BYTES = MAX_OUTPUT_CHARS * 3;

/** The step's output: a file (read through the store's guarded reader), or standard input for `-`. */
async function readOutput(ctx: Context, spec: unknown): Promise<string | undefined> {
  if (spec === undefined) return undefined;
  if (typeof spec !== 'string' || spec === '') throw new CliError('--output needs a file, or - for standard input');
  if (spec === '-') return readStdinLimited(ctx, MAX_OUTPUT_BYTES, 'the step output');
  return (await readTextFile(resolve(ctx.cwd, spec), { maxBytes: MAX_OUTPUT_BYTES })).text;
}

/** `ratchet flow advance --session S [--loop | --remediate] [--set k=v] [--note t] [--question q] [--output FILE|-]`. */
export default async function advance(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  if (options.loop === true && options.remediate === true) throw new CliError('--loop and --remediate cannot be combined');
  const output = await readOutput(ctx, options.output);
  const view = await guard(ctx, async () =>
    advanceFlow(await runnerOptions(ctx), {
      sessionId: sessionOf(options),
      kind: options.loop === true ? 'loop' : options.remediate === true ? 'remediate' : 'next',
      set: parsePairs(options.set, '--set'),
      notes: strings(options.note),
      questions: strings(options.question),
      ...(output !== undefined ? { output } : {}),
      then: strings(options.then),
    }),
  );
  return printView(ctx, view);
}
