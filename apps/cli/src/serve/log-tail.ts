/**
 * The end of a log on the storage port, read incrementally: each read asks only for the records
 * after the last one seen, keeps the newest `keep`, and hands every new record to `onRecord` (for
 * running counts). A log that was replaced or cut shorter (its last-seen record is no longer where
 * it was) is read again from the start.
 */
import type { StorageBackend, StoredJsonValue } from '@ratchet/store';

export class LogTail<T> {
  private after = 0;
  private lastText: string | undefined;
  private readonly recent: T[] = [];

  constructor(
    private readonly key: string,
    private readonly keep: number,
    private readonly convert: (record: StoredJsonValue, seq: number) => T,
    private readonly onReset: () => void = () => undefined,
    private readonly onRecord: (value: T) => void = () => undefined,
  ) {}

  /** The newest records, oldest first. */
  get records(): readonly T[] {
    return this.recent;
  }

  async read(backend: StorageBackend): Promise<boolean> {
    let changed = false;
    if (this.after > 0) {
      const [last] = await backend.logs.read(this.key, { after: this.after - 1, limit: 1 });
      if (last === undefined || JSON.stringify(last.record) !== this.lastText) {
        this.reset();
        changed = true;
      }
    }
    for (;;) {
      const page = await backend.logs.read(this.key, { after: this.after, limit: 5000 });
      for (const entry of page) {
        // Converted (and so validated) before it counts: a bad record stops the tail at its place.
        const value = this.convert(entry.record, entry.seq);
        this.onRecord(value);
        this.recent.push(value);
        this.after = entry.seq;
        this.lastText = JSON.stringify(entry.record);
        changed = true;
      }
      if (this.recent.length > this.keep) this.recent.splice(0, this.recent.length - this.keep);
      if (page.length < 5000) return changed;
    }
  }

  private reset(): void {
    this.after = 0;
    this.lastText = undefined;
    this.recent.length = 0;
    this.onReset();
  }
}
