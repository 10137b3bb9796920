import { DEFAULT_LEASE_MS, acceptLogFile, lockLog, restoreLogFile, unlockLog } from '@ratchet/jixo-log';
import { relative, sep } from 'node:path';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { recordOpened } from '../../hook/opened.js';
import { EXIT_OK } from '../../exit-codes.js';
import { leaseOption } from '../../lease-option.js';
import { at, guard, int, logAt, userActs, userOnly } from './shared.js';

/**
 * `ratchet jixo lock|unlock <log> --runner ID`: a detached lock that holds between two CLI
 * invocations; unlock judges what the holder wrote by hand meanwhile. `accept|restore <log>`: a
 * person's decision about a log changed outside Ratchet.
 */
export default async function lock(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [verb, file] = args as [string, string];
  const path = at(ctx, file);
  if (verb === 'accept' || verb === 'restore') return decide(ctx, verb, file, path);
  const runner = String(options.runner);
  const store = await logAt(ctx, path);
  if (verb === 'unlock') {
    // The file backend names the holder it released (pid, host, time); a shared backend, the runner.
    const holder = store.where === path ? await guard(path, () => unlockLog(path, runner, { userActs: userActs(ctx) })) : (await guard(path, () => store.unlock(runner)), { runner });
    if (ctx.json) ctx.emitJson({ ok: true, file, released: holder });
    else ctx.note(`unlocked ${file} (was held by ${runner}${'time' in holder ? ` since ${String(holder.time)}` : ''})`);
    return EXIT_OK;
  }
  const owner = ctx.io.env.RATCHET_JIXO_OWNER_PID;
  // `--lease 15m`, as every other --lease (a bare number is milliseconds, as it always was here).
  const leaseMs = leaseOption(options.lease) ?? DEFAULT_LEASE_MS;
  // Once the lock is held the agent owes its release: the Stop hook must see it, however it was taken.
  const opened = (): Promise<void> => recordOpened(ctx.cwd, ctx.io.env, { kind: 'jixo-lock', key: relative(ctx.cwd, path).split(sep).join('/'), runner });
  if (store.where !== path) {
    const held = await guard(path, () => store.lock({ runner, timeoutMs: int('timeout', options.timeout ?? 10_000), leaseMs }));
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
      leaseMs,
      ...(options.staleAfter !== undefined ? { staleAfterMs: int('stale-after', options.staleAfter) } : {}),
      ...(owner !== undefined && /^\d+$/.test(owner) ? { ownerPid: Number(owner) } : {}),
    }),
  );
  await opened();
  // `expires` is the store's name for a detached lock's lease: said the same way on both backends.
  const holder = { ...result.holder, leaseUntil: typeof result.holder.expires === 'string' ? result.holder.expires : null };
  if (ctx.json) ctx.emitJson({ ok: true, file, holder, content: result.content });
  else {
    ctx.note(`locked ${file} for ${runner}; unlock with: ratchet jixo unlock ${file} --runner ${runner}`);
    ctx.io.stdout(result.content);
  }
  return EXIT_OK;
}

/** `jixo accept|restore <log>`: for a person, from their own terminal. */
async function decide(ctx: Context, verb: 'accept' | 'restore', file: string, path: string): Promise<number> {
  userOnly(ctx, `ratchet jixo ${verb}`);
  const store = await logAt(ctx, path);
  if (store.where !== path) throw new CliError(`ratchet jixo ${verb} works on log files: on a shared backend (${store.where}) the log is only written through Ratchet`, { file });
  if (verb === 'accept') {
    const log = await guard(path, () => acceptLogFile(path));
    if (ctx.json) ctx.emitJson({ ok: true, file, action: verb, progress: log.frontMatter.progress });
    else ctx.out(`${file}: its current text is now the last good version; the audit starts from it`);
    return EXIT_OK;
  }
  const { rejectedPath } = await guard(path, () => restoreLogFile(path));
  if (ctx.json) ctx.emitJson({ ok: true, file, action: verb, rejected: rejectedPath ?? null });
  else ctx.out(`${file}: the last good version is back${rejectedPath === undefined ? '' : `; the text it replaced is kept as ${rejectedPath}`}`);
  return EXIT_OK;
}
