import type { Context } from '../../context.js';
import { addMemoryFailure, addMemoryPattern, memoryAddResult, type MemoryAdded } from '../../operations/memory.js';
import type { CommandAction } from '../../context.js';
import { withInput } from '../../option-values.js';
import { addFailureInput, addPatternInput } from './inputs.js';

/** Prints what the add did (the document under --json); exit 1 when a quality gate refused it. */
function render(ctx: Context, added: MemoryAdded): number {
  const result = memoryAddResult(added);
  const { kind, file, result: r } = added;
  if (ctx.json) ctx.emitJson(result.document);
  else if (r.status === 'refused') {
    ctx.out(`refused ${kind}${r.name === undefined ? '' : ` ${r.name}`}:`);
    for (const x of r.refusals) ctx.out(`  ${x.gate}: ${x.reason}`);
  } else {
    ctx.out(r.status === 'added' ? `added ${kind} ${r.name} to ${file.shown}` : `merged into ${kind} ${r.name} (similarity ${r.similarity.toFixed(2)}): sources and tags unioned`);
    if (r.evicted.length > 0) ctx.out(`evicted (over the cap, least important): ${r.evicted.join(', ')}`);
  }
  return result.exitCode;
}

const addFailure = withInput(addFailureInput, async (ctx, input) => render(ctx, await addMemoryFailure(ctx, input)));
const addPattern = withInput(addPatternInput, async (ctx, input) => render(ctx, await addMemoryPattern(ctx, input)));

/** `ratchet memory add-failure|add-pattern` (register.ts passes the kind as the first argument): gates, near-duplicate merge, caps; one locked update. */
const add: CommandAction = (ctx, args, options) => (args[0] === 'pattern' ? addPattern : addFailure)(ctx, args, options);
export default add;
