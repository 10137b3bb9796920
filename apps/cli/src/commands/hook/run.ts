import { parseHarness } from '../../hook/events.js';
import { parseHookEvent } from '../../hook/payload.js';
import { runHook } from '../../hook/dispatch.js';
import type { CommandAction } from '../../program.js';

/** `ratchet hook <event> [--harness <name>]` through the full program (the bin's fast path loads the event's own bundle). */
const hook: CommandAction = (ctx, args, options) =>
  runHook(parseHookEvent(args[0]!)!, ctx.io, typeof options.cwd === 'string' ? ctx.cwd : undefined, parseHarness(typeof options.harness === 'string' ? options.harness : 'claude') ?? 'claude');
export default hook;
