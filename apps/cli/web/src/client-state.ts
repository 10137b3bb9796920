/**
 * The page's copy of the project's state: the snapshot the stream starts with, patched in place.
 * Listeners hear which parts changed, so a lease renewal repaints one node, not the page.
 */
import type { DashboardTask, Snapshot, SnapshotPatch } from '../../src/serve/model.js';

export const FORMAT = 'ratchet-dashboard/1';

export interface Change {
  /** Top-level sections replaced (and 'campaign' for its summary). */
  sections: Set<string>;
  /** Seqs of tasks added or changed. */
  tasks: Set<number>;
  relayout: boolean;
  /** A whole snapshot arrived (first load or resync). */
  full: boolean;
}

export class ClientState {
  snapshot: Snapshot | undefined;
  /** The server's clock minus the browser's, so leases count down on the server's time. */
  skewMs = 0;
  private bySeq = new Map<number, number>();
  private readonly listeners: ((change: Change) => void)[] = [];

  onChange(listener: (change: Change) => void): void {
    this.listeners.push(listener);
  }

  /** Now, on the server's clock. */
  now(): number {
    return Date.now() + this.skewMs;
  }

  task(seq: number): DashboardTask | undefined {
    const i = this.bySeq.get(seq);
    return i === undefined ? undefined : this.snapshot?.campaign?.tasks[i];
  }

  load(snapshot: Snapshot): void {
    const format: unknown = snapshot.format;
    if (format !== FORMAT) throw new Error(`the server sent ${JSON.stringify(format)}, this page reads ${FORMAT}: reload the page`);
    this.snapshot = snapshot;
    this.skewMs = Date.parse(snapshot.now) - Date.now();
    this.index();
    this.emit({ sections: new Set(Object.keys(snapshot)), tasks: new Set(), relayout: true, full: true });
  }

  apply(patch: SnapshotPatch): void {
    const s = this.snapshot;
    if (s === undefined) return;
    this.skewMs = Date.parse(patch.now) - Date.now();
    s.now = patch.now;
    const change: Change = { sections: new Set(Object.keys(patch.set)), tasks: new Set(), relayout: patch.relayout === true, full: false };
    Object.assign(s, patch.set);
    if (patch.campaign !== undefined) {
      change.sections.add('campaign');
      s.campaign = patch.campaign === null ? null : { ...patch.campaign, tasks: s.campaign?.tasks ?? [] };
    }
    if (patch.tasks !== undefined && s.campaign !== null) {
      const tasks = s.campaign.tasks;
      const removed = new Set(patch.tasks.removed);
      let reindex = removed.size > 0;
      for (const t of patch.tasks.changed) {
        const i = this.bySeq.get(t.seq);
        if (i === undefined) {
          tasks.push(t);
          reindex = true;
        } else tasks[i] = t;
        change.tasks.add(t.seq);
      }
      if (reindex) {
        s.campaign.tasks = tasks.filter((t) => !removed.has(t.seq)).sort((a, b) => a.seq - b.seq);
        this.index();
      }
      change.sections.add('tasks');
    }
    this.emit(change);
  }

  private index(): void {
    this.bySeq = new Map((this.snapshot?.campaign?.tasks ?? []).map((t, i) => [t.seq, i]));
  }

  private emit(change: Change): void {
    for (const l of this.listeners) l(change);
  }
}
