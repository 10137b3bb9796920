/**
 * The simulated file system lint runs a plan against: the files that exist before the plan, plus
 * what the plan has created, deleted and moved so far. The starting files come either as a list
 * (pure use, tests) or as a `FileView` of a real tree, asked about one path at a time and listed
 * only when a `for_each_file` glob needs every file: a 20-line plan in a repository of 100,000
 * files then costs a few `stat` calls, not a walk of the tree.
 */
import { normalizeRelative } from './paths.js';

/** A read-only view of the files that exist before the plan runs (project-relative paths). */
export interface FileView {
  /** Whether `path` (normalised, project-relative) is a file. */
  exists(path: string): boolean;
  /** Every file; called at most once per lint, and only for globs. */
  list(): Iterable<string>;
  /**
   * Why `path` (normalised, project-relative) leads out of the project on the real file system (a
   * symbolic link on it, or a broken one that writing would follow), or undefined when it does not.
   * Lint reports such a path wherever the plan names it (`path-outside-root`).
   */
  outside?(path: string): string | undefined;
}

export function isFileView(files: Iterable<string> | FileView): files is FileView {
  return typeof (files as FileView).exists === 'function' && typeof (files as FileView).list === 'function';
}

/** A FileView over a list of paths (normalised; paths that are not project-relative are dropped). */
export function listView(files: Iterable<string>): FileView {
  const set = new Set<string>();
  for (const f of files) {
    const p = normalizeRelative(f);
    if (p !== undefined) set.add(p);
  }
  return { exists: (p) => set.has(p), list: () => set };
}

/**
 * Until a glob needs every file, a FileView is asked per path and the plan's changes are kept
 * beside it; the first glob lists the view once and from then on (and from the start, for a list)
 * the state is one Set, mutated in place: the 1M-line bench's hot path is a single Set lookup.
 */
export class SimulatedFs implements Iterable<string> {
  private readonly added = new Set<string>();
  private readonly removed = new Set<string>();
  private all: Set<string> | undefined;
  /** Bumped by every change: a glob's matches hold until the next one (nested loops glob the same tree again and again). */
  version = 0;

  /** A Set is taken over and mutated (`of` passes a fresh one). */
  constructor(private readonly base: FileView | Set<string>) {
    if (base instanceof Set) this.all = base;
  }

  /** See `FileView.outside`; a plain list of files has no links. */
  outside(path: string): string | undefined {
    return this.base instanceof Set ? undefined : this.base.outside?.(path);
  }

  static of(files: Iterable<string> | FileView): SimulatedFs {
    return new SimulatedFs(isFileView(files) ? files : (listView(files).list() as Set<string>));
  }

  has(path: string): boolean {
    if (this.all !== undefined) return this.all.has(path);
    if (this.added.has(path)) return true;
    return !this.removed.has(path) && (this.base as FileView).exists(path);
  }

  add(path: string): void {
    if (this.all !== undefined) {
      // Overwriting a file changes no glob's matches: only a new path counts as a change.
      if (!this.all.has(path)) {
        this.version++;
        this.all.add(path);
      }
      return;
    }
    // Before the first glob nothing is cached, and asking the view would cost a stat per write.
    this.version++;
    this.removed.delete(path);
    this.added.add(path);
  }

  /** Remove `path`; whether it existed. */
  delete(path: string): boolean {
    if (!this.has(path)) return false;
    this.version++;
    if (this.all !== undefined) return this.all.delete(path);
    this.added.delete(path);
    this.removed.add(path);
    return true;
  }

  /** Every file at this point of the plan. */
  [Symbol.iterator](): Iterator<string> {
    if (this.all === undefined) {
      const all = listView((this.base as FileView).list()).list() as Set<string>;
      for (const p of this.removed) all.delete(p);
      for (const p of this.added) all.add(p);
      this.all = all;
    }
    return this.all[Symbol.iterator]();
  }
}
