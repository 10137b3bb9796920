import { resolve } from 'node:path';
import { MAX_OUTPUT_CHARS } from '@ratchet/flows';
import { readTextFile } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { advanceFlowSession } from '../../operations/flows.js';
import { withInput } from '../../option-values.js';
import { readStdinLimited } from '../../stdin.js';
import { advanceInput, type AdvanceArgs } from './inputs.js';
import { printView } from './project.js';

/** UTF-8 takes at most 3 bytes per UTF-16 unit: the byte cap that lets MAX_OUTPUT_CHARS through and stops a runaway pipe. */
const MAX_OUTPUT_BYTES = MAX_OUTPUT_CHARS * 3;

/** The step's output: a file (read through the store's guarded reader), or standard input for `-`. */
async function readOutput(ctx: Context, spec: string | undefined): Promise<string | undefined> {
  if (spec === undefined) return undefined;
  if (spec === '') throw new CliError('--output needs a file, or - for standard input');
  if (spec === '-') return readStdinLimited(ctx, MAX_OUTPUT_BYTES, 'the step output');
  return (await readTextFile(resolve(ctx.cwd, spec), { maxBytes: MAX_OUTPUT_BYTES })).text;
}

/** `ratchet flow advance --session S [--loop | --remediate] [--set k=v] [--note t] [--question q] [--output FILE|-]`. */
async function advance(ctx: Context, args: AdvanceArgs): Promise<number> {
  const { outputFrom, ...input } = args;
  const output = await readOutput(ctx, outputFrom);
  return printView(ctx, await advanceFlowSession(ctx, { ...input, output }));
}
export default withInput(advanceInput, advance);
