/**
 * The storage backend of one command run: resolved from `RATCHET_STORE` / `ratchet.config.json` the
 * first time a command asks for it (commands that never touch shared state never load or connect),
 * and closed by the action wrapper when the command ends. Kept beside the Context rather than on it,
 * so the CLI's public types do not reach @ratchet/store.
 */
import { keyOf, type StorageBackend } from '@ratchet/store';
import type { Context } from './context.js';

const opened = new WeakMap<Context, Promise<StorageBackend>>();

/** Set by `keepStorageOpen`: backends kept across commands, one per project and store setting. */
let kept: Map<string, Promise<StorageBackend>> | undefined;

function resolveFor(ctx: Context): Promise<StorageBackend> {
  // Loaded here, not at the top: most commands never get this far.
  return import('@ratchet/store').then(({ resolveStorageBackend }) => resolveStorageBackend(ctx.cwd, { env: ctx.io.env }));
}

/** The project's backend for this command, opened on first use. A bad config or unreachable database rejects (exit 2, URL redacted). */
export function storageOf(ctx: Context): Promise<StorageBackend> {
  let backend = opened.get(ctx);
  if (backend === undefined) {
    if (kept === undefined) backend = resolveFor(ctx);
    else {
      const key = [ctx.cwd, ctx.io.env.RATCHET_STORE ?? '', ctx.io.env.RATCHET_STORE_PROJECT ?? ''].join('\0');
      backend = kept.get(key);
      if (backend === undefined) {
        const opening = resolveFor(ctx);
        const pool = kept;
        pool.set(key, opening);
        // A failed open (database down) is not kept: the next command tries again.
        opening.catch(() => pool.get(key) === opening && pool.delete(key));
        backend = opening;
      }
    }
    opened.set(ctx, backend);
  }
  return backend;
}

/** Closes the backend if this command opened one (not a kept one); safe to call more than once. */
export async function closeStorage(ctx: Context): Promise<void> {
  const pending = opened.get(ctx);
  if (pending === undefined) return;
  opened.delete(ctx);
  if (kept !== undefined) return;
  const backend = await pending.catch(() => undefined);
  await backend?.close();
}

/**
 * For long-lived hosts running many commands in process (the MCP server): keep each project's
 * backend, with its connection pool, open across commands instead of connecting per command.
 * Returns the function that closes them all (call it on shutdown).
 */
export function keepStorageOpen(): () => Promise<void> {
  kept ??= new Map();
  const pool = kept;
  return async () => {
    if (kept === pool) kept = undefined;
    const all = [...pool.values()];
    pool.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => undefined))?.close()));
  };
}

/**
 * The project's backend when its state is shared (not files), else undefined without loading or
 * opening anything: commands keep their file paths, and their start-up, on the file backend.
 */
export async function sharedStorageOf(ctx: Context): Promise<StorageBackend | undefined> {
  const { storageKind } = await import('@ratchet/store');
  return storageKind(ctx.cwd, ctx.io.env) === 'file' ? undefined : storageOf(ctx);
}

/** A file's key on the port: its path relative to the project, `/`-separated (a path leading out is refused by the port). */
export function storageKey(ctx: Context, path: string): string {
  return keyOf(ctx.cwd, path);
}
