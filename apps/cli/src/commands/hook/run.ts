import { HARNESSES, parseHookEvent, type Harness, type HookEvent } from '../../hook/events.js';
import { runHook } from '../../hook/dispatch.js';
import { choiceOption, withInput, type OptionBag } from '../../option-values.js';

interface HookInput {
  /** register.ts only routes known events here. */
  event: HookEvent;
  /** `--cwd` given: the hook runs there rather than in the payload's cwd. */
  cwd: boolean;
  harness: Harness;
}

function hookInput(args: readonly string[], options: OptionBag): HookInput {
  return { event: parseHookEvent(args[0]!)!, cwd: options.cwd !== undefined, harness: choiceOption(options, 'harness', HARNESSES) ?? 'claude' };
}

/** `ratchet hook <event> [--harness <name>]` through the full program (the bin's fast path loads the event's own bundle). */
export default withInput(hookInput, (ctx, { event, cwd, harness }) => runHook(event, ctx.io, cwd ? ctx.cwd : undefined, harness));
