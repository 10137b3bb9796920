/**
 * What tells the dashboard that state changed. On files: the kernel (fs.watch, recursive) on the
 * directories state lives in, so a write by any process is seen at once; the project root itself is
 * watched too, so a state directory created after the server started (the first `ratchet campaign
 * create`) is picked up. A slow sweep re-arms watchers that were lost (a directory removed and made
 * again) and marks everything dirty, in case an event was dropped. On a shared backend (PostgreSQL),
 * which the port offers no notifications for, the shared sections are polled; the page only hears
 * about a poll when something it shows changed.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { SECTIONS, type Section } from './state.js';

/** Directories under the project root whose files are state, watched recursively. */
export const WATCHED_DIRS = ['.ratchet', '.jixo', 'logs', 'protocols'] as const;

/** The sections a changed project-relative path may touch; empty for files no section reads. */
export function sectionsFor(rel: string): Section[] {
  let path = rel.split('\\').join('/');
  // The store writes `.<name>.<pid>.<random>.tmp` and renames it over <name>; the kernel may name
  // only the temp file in that event, so it stands for the file it becomes.
  const dir = path.slice(0, path.lastIndexOf('/') + 1);
  const temp = /^\.(.+)\.\d+\.[0-9a-f]+\.tmp$/.exec(path.slice(dir.length));
  if (temp !== null) path = `${dir}${temp[1]!}`;
  const name = path.slice(path.lastIndexOf('/') + 1);
  // The store's own bookkeeping: locks come and go around every write, temp files are renamed into
  // place (that rename is the change), digests follow the data they describe.
  if (/\.(?:lock|lock\.break|tmp|digest|prev)$/.test(name) || (name.startsWith('.') && name.includes('.tmp'))) return [];
  if (path === 'ratchet.config.json') return [...SECTIONS];
  if (path === '.ratchet/campaign.json' || path.startsWith('.ratchet/queues/')) return ['campaign'];
  if (path.startsWith('.ratchet/archive')) return ['archive', 'campaign'];
  if (path === '.ratchet/session.json') return ['session'];
  if (path.startsWith('.ratchet/flows')) return ['flows'];
  if (path === '.ratchet/goals.json' || path.startsWith('protocols/action_types')) return ['goals'];
  if (path === '.ratchet/refusals.log.jsonl') return ['refusals'];
  if (path === 'logs/activity.log.jsonl') return ['activity'];
  if (path.startsWith('.jixo')) return ['jixo'];
  if (path.startsWith('protocols/flows') || path === 'protocols/flow-settings.json') return ['flows'];
  // A state directory itself (created, removed, renamed): re-read whatever lives in it.
  if (path === '.ratchet') return [...SECTIONS];
  if (path === 'logs') return ['activity'];
  if (path === 'protocols') return ['flows', 'goals'];
  return [];
}

export interface ChangeSource {
  close(): void;
}

export interface WatchOptions {
  /** Called with the sections a change may have touched (possibly several times for one write). */
  onChange: (sections: readonly Section[]) => void;
  /** The slow sweep, in ms (default 15 s). */
  sweepMs?: number;
}

/** Watches the project's state directories; events are mapped to sections and passed on. */
export function watchFiles(root: string, options: WatchOptions): ChangeSource {
  const watchers = new Map<string, FSWatcher>();
  let closed = false;
  const arm = (dir: string): void => {
    if (closed || watchers.has(dir)) return;
    const abs = dir === '' ? root : join(root, dir);
    if (!existsSync(abs)) return;
    try {
      const w = watch(abs, { recursive: dir !== '' }, (_event, name) => {
        if (name === null) {
          options.onChange(SECTIONS);
          return;
        }
        const rel = dir === '' ? String(name) : `${dir}/${String(name)}`;
        if (dir === '' && (WATCHED_DIRS as readonly string[]).includes(rel)) arm(rel);
        const sections = sectionsFor(rel);
        if (sections.length > 0) options.onChange(sections);
      });
      // A watched directory that is removed ends its watcher: forget it so the sweep re-arms it.
      w.on('error', () => {
        w.close();
        watchers.delete(dir);
      });
      w.on('close', () => watchers.delete(dir));
      watchers.set(dir, w);
    } catch {
      // Not watchable now (removed in between, no permission): the sweep tries again.
    }
  };
  const sweep = (): void => {
    arm('');
    for (const dir of WATCHED_DIRS) {
      const w = watchers.get(dir);
      if (w !== undefined && !existsSync(join(root, dir))) {
        w.close();
        watchers.delete(dir);
      }
      arm(dir);
    }
  };
  sweep();
  const timer = setInterval(() => {
    sweep();
    options.onChange(SECTIONS);
  }, options.sweepMs ?? 15_000);
  timer.unref();
  return {
    close() {
      closed = true;
      clearInterval(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}

/** The sections whose state lives in a shared backend (the rest are this machine's files). */
export const SHARED_SECTIONS: readonly Section[] = ['campaign', 'jixo', 'goals', 'refusals', 'activity'];

/**
 * Polls a shared backend: `intervalMs` after each refresh ends (refreshes never overlap, so a slow
 * database is never asked faster than it answers), the campaign is dirty, which is what builders
 * change most and what the page shows first; the other shared sections every `slowEvery`th poll.
 */
export function pollShared(options: WatchOptions & { intervalMs?: number; slowEvery?: number }): ChangeSource & { refreshed(): void } {
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let polls = 0;
  const schedule = (): void => {
    if (closed || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      polls++;
      options.onChange(polls % (options.slowEvery ?? 4) === 0 ? SHARED_SECTIONS : ['campaign']);
    }, options.intervalMs ?? 250);
    timer.unref();
  };
  schedule();
  return {
    /** Called when a refresh ends: the next poll is due an interval from now. */
    refreshed: schedule,
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
