import { lockLog, unlockLog } from '@ratchet/jixo-log';
import { relative, sep } from 'node:path';
import type { Context } from '../../context.js';
import { recordOpened } from '../../hook/opened.js';
import { EXIT_OK } from '../../exit-codes.js';
import { at, guard, int, logAt } from './shared.js';

/** `ratchet jixo lock|unlock <log> --runner ID`: a detached lock that holds between two CLI invocations. */
export default async function lock(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [verb, file] = args as [string, string];
  const path = at(ctx, file);
  const runner = String(options.runner);
  const store = await logAt(ctx, path);
  if (verb === 'unlock') {
    // The file backend names the holder it released (pid, host, time); a shared backend, the runner.
    const holder = store.where === path ? await guard(path, () => unlockLog(path, runner)) : (await guard(path, () => store.unlock(runner)), { runner });
    if (ctx.json) ctx.emitJson({ ok: true, file, released: holder });
    else ctx.note(`unlocked ${file} (was held by ${runner}${'time' in holder ? ` since ${String(holder.time)}` : ''})`);
    return EXIT_OK;
  }
  const owner = ctx.io.env.RATCHET_JIXO_OWNER_PID;
  // Once the lock is held the agent owes its release: the Stop hook must see it, however it was taken.
  const opened = (): Promise<void> => recordOpened(ctx.cwd, ctx.io.env, { kind: 'jixo-lock', key: relative(ctx.cwd, path).split(sep).join('/'), runner });
  if (store.where !== path) {
    const held = await guard(path, () => store.lock({ runner, timeoutMs: int('timeout', options.timeout ?? 10_000), leaseMs: int('lease', options.lease ?? 600_000, 1) }));
    await opened();
    if (ctx.json) ctx.emitJson({ ok: true, file, holder: { runner, leaseUntil: held.leaseUntil ?? null, store: store.where }, content: held.content });
    else {
      ctx.note(`locked ${file} for ${runner} in ${store.where}; unlock with: ratchet jixo unlock ${file} --runner ${runner}`);
      ctx.io.stdout(held.content);
    }
    return EXIT_OK;
  }
  const result = await guard(path, () =>
    lockLog(path, {
      runner,
      timeoutMs: int('timeout', options.timeout ?? 10_000),
      leaseMs: int('lease', options.lease ?? 600_000, 1),
      ...(options.staleAfter !== undefined ? { staleAfterMs: int('stale-after', options.staleAfter) } : {}),
      ...(owner !== undefined && /^\d+$/.test(owner) ? { ownerPid: Number(owner) } : {}),
    }),
  );
  await opened();
  if (ctx.json) ctx.emitJson({ ok: true, file, holder: result.holder, content: result.content });
  else {
    ctx.note(`locked ${file} for ${runner}; unlock with: ratchet jixo unlock ${file} --runner ${runner}`);
    ctx.io.stdout(result.content);
  }
  return EXIT_OK;
}
