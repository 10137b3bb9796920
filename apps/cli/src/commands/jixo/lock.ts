import { lockLog, unlockLog } from '@ratchet/jixo-log';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { at, guard, int } from './shared.js';

/** `ratchet jixo lock|unlock <log> --runner ID`: a detached lock that holds between two CLI invocations. */
export default async function lock(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [verb, file] = args as [string, string];
  const path = at(ctx, file);
  const runner = String(options.runner);
  if (verb === 'unlock') {
    const holder = await guard(path, () => unlockLog(path, runner));
    if (ctx.json) ctx.emitJson({ ok: true, file, released: holder });
    else ctx.note(`unlocked ${file} (was held by ${runner} since ${holder.time})`);
    return EXIT_OK;
  }
  const owner = ctx.io.env.RATCHET_JIXO_OWNER_PID;
  const result = await guard(path, () =>
    lockLog(path, {
      runner,
      timeoutMs: int('timeout', options.timeout ?? 10_000),
      leaseMs: int('lease', options.lease ?? 600_000, 1),
      ...(options.staleAfter !== undefined ? { staleAfterMs: int('stale-after', options.staleAfter) } : {}),
      ...(owner !== undefined && /^\d+$/.test(owner) ? { ownerPid: Number(owner) } : {}),
    }),
  );
  if (ctx.json) ctx.emitJson({ ok: true, file, holder: result.holder, content: result.content });
  else {
    ctx.note(`locked ${file} for ${runner}; unlock with: ratchet jixo unlock ${file} --runner ${runner}`);
    ctx.io.stdout(result.content);
  }
  return EXIT_OK;
}
