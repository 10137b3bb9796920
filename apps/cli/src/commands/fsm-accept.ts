import { accepts } from '@ratchet/fsm-core';
import { readTextFileSync } from '@ratchet/store';
import type { Context } from '../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import { loadFsmFileAny, requireMachine } from '../fsm-file.js';
import { withInput } from '../option-values.js';
import { resolvePath } from '../paths.js';
import { fsmAcceptInput, type FsmAcceptInput } from './fsm-inputs.js';

/**
 * `ratchet fsm accept <file> <symbol...> | --from-file F`: is this word in the machine's language?
 * On rejection, say where, in which state, and what would have been legal there.
 */
async function fsmAccept(ctx: Context, { file, word }: FsmAcceptInput): Promise<number> {
  const symbols = 'symbols' in word ? word.symbols : await readSymbols(ctx, word.fromFile);

  const loaded = await loadFsmFileAny(ctx, file);
  const machine = requireMachine(loaded, file);
  const result = accepts(machine, symbols);
  if (ctx.json) {
    ctx.emitJson({ ok: result.accepted, file: loaded.file, symbols: symbols.length, ...result });
    return result.accepted ? EXIT_OK : EXIT_PROBLEMS;
  }
  if (result.accepted) {
    ctx.out(`accepted: ${symbols.length} symbol${symbols.length === 1 ? '' : 's'}, ending in ${result.state}`);
    return EXIT_OK;
  }
  const legal = result.expected.length > 0 ? result.expected.join(', ') : '(nothing: no transitions leave this state)';
  if (result.reason === 'not-accepting') {
    ctx.out(`rejected: the input ended in ${result.state}, which is not an accept state`);
    ctx.out(`  it could continue with: ${legal}`);
  } else {
    const what = result.reason === 'unknown-symbol' ? 'is not in the alphabet' : `has no transition from ${result.state}`;
    ctx.out(`rejected at symbol ${result.position + 1} of ${symbols.length}: "${result.symbol ?? ''}" ${what}`);
    ctx.out(`  legal in ${result.state}: ${legal}`);
  }
  return EXIT_PROBLEMS;
}
export default withInput(fsmAcceptInput, fsmAccept);

async function readSymbols(ctx: Context, source: string): Promise<string[]> {
  let text: string;
  if (source === '-') {
    text = await ctx.io.readStdin();
  } else {
    text = readTextFileSync(resolvePath(ctx, source)).text;
  }
  return text.split(/\s+/u).filter((s) => s.length > 0);
}
