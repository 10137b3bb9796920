/**
 * The storage backend of one command run: resolved from `RATCHET_STORE` / `ratchet.config.json` the
 * first time a command asks for it (commands that never touch shared state never load or connect),
 * and closed by the action wrapper when the command ends. Kept beside the Context rather than on it,
 * so the CLI's public types do not reach @ratchet/store.
 */
import type { StorageBackend } from '@ratchet/store';
import type { Context } from './context.js';

const opened = new WeakMap<Context, Promise<StorageBackend>>();

/** The project's backend for this command, opened on first use. A bad config or unreachable database rejects (exit 2, URL redacted). */
export function storageOf(ctx: Context): Promise<StorageBackend> {
  let backend = opened.get(ctx);
  if (backend === undefined) {
    // Loaded here, not at the top: most commands never get this far.
    backend = import('@ratchet/store').then(({ resolveStorageBackend }) => resolveStorageBackend(ctx.cwd, { env: ctx.io.env }));
    opened.set(ctx, backend);
  }
  return backend;
}

/** Closes the backend if this command opened one; safe to call more than once. */
export async function closeStorage(ctx: Context): Promise<void> {
  const pending = opened.get(ctx);
  if (pending === undefined) return;
  opened.delete(ctx);
  const backend = await pending.catch(() => undefined);
  await backend?.close();
}
