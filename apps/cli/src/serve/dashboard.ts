/**
 * One running dashboard: the state, what tells it about changes, and the server that pushes them.
 * Changes are coalesced: however many arrive, the state is re-read at most once per `minGapMs`
 * (and never twice at once), and only the sections a change touched; a refresh that changed
 * nothing the page shows sends nothing.
 */
import type { StorageBackend } from '@ratchet/store';
import type { Context } from '../context.js';
import { createDashboardServer, type DashboardServer } from './server.js';
import { DashboardState, type Section } from './state.js';
import { pollShared, watchFiles, type ChangeSource } from './watch.js';

export interface DashboardOptions {
  port: number;
  host: string;
  assetsDir: string;
  /** Least time between two refreshes (default 100 ms: at most ten updates a second). */
  minGapMs?: number;
  /** How long after a refresh a shared backend is polled again (default 250 ms). */
  pollMs?: number;
}

export interface RunningDashboard {
  url: string;
  host: string;
  port: number;
  server: DashboardServer;
  close(): Promise<void>;
}

export async function startDashboard(ctx: Context, backend: StorageBackend, options: DashboardOptions): Promise<RunningDashboard> {
  const state = new DashboardState(ctx, backend);
  await state.refresh();
  const server = createDashboardServer({ assetsDir: options.assetsDir, snapshot: () => state.snapshot() });

  const dirty = new Set<Section>();
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let last = 0;
  let closed = false;
  const minGap = options.minGapMs ?? 100;
  const trace = ctx.io.env.RATCHET_SERVE_TRACE === '1';

  const refresh = async (): Promise<void> => {
    timer = undefined;
    if (closed || dirty.size === 0) return;
    running = true;
    const sections = new Set(dirty);
    dirty.clear();
    const started = Date.now();
    try {
      const patch = await state.refresh(sections);
      if (patch !== undefined) server.broadcast(patch);
      // RATCHET_SERVE_TRACE=1: one stderr line per refresh (what was read, how long, what changed).
      if (trace) ctx.io.stderr(`ratchet serve: refresh ${[...sections].join(',')} ${Date.now() - started} ms${patch === undefined ? ', no change' : `, ${patch.tasks?.changed.length ?? 0} tasks changed`} (${state.lastTimings})\n`);
    } catch (err) {
      // The sections catch their own errors; anything else is a bug worth seeing, not a crash.
      ctx.io.stderr(`ratchet serve: refresh failed: ${(err as Error).stack ?? String(err)}\n`);
    } finally {
      running = false;
      last = Date.now();
      if (dirty.size > 0) schedule();
      poll?.refreshed();
    }
  };
  const schedule = (): void => {
    if (running || timer !== undefined || closed) return;
    timer = setTimeout(() => void refresh(), Math.max(0, minGap - (Date.now() - last)));
  };
  const onChange = (sections: readonly Section[]): void => {
    for (const s of sections) dirty.add(s);
    schedule();
  };

  const sources: ChangeSource[] = [watchFiles(ctx.cwd, { onChange })];
  const poll = backend.kind === 'file' ? undefined : pollShared({ onChange, intervalMs: options.pollMs ?? 250 });
  if (poll !== undefined) sources.push(poll);

  let bound: { port: number; host: string };
  try {
    bound = await server.listen(options.port, options.host);
  } catch (err) {
    for (const s of sources) s.close();
    throw err;
  }
  const shownHost = bound.host.includes(':') ? `[${bound.host}]` : bound.host;
  return {
    url: `http://${shownHost}:${bound.port}/`,
    host: bound.host,
    port: bound.port,
    server,
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const s of sources) s.close();
      await server.close();
    },
  };
}
