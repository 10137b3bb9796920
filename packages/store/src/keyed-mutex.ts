/**
 * First-in first-out mutual exclusion per key inside one process. The file lock alone would also
 * exclude callers of the same process, but they would poll; queueing them here hands the lock over
 * at once and keeps in-process `Promise.all` updates fast and fair.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  /** A release function once every earlier caller for `key` has released, or undefined after `timeoutMs`. */
  async acquire(key: string, timeoutMs: number): Promise<(() => void) | undefined> {
    const previous = this.tails.get(key);
    let open!: () => void;
    const mine = new Promise<void>((resolve) => {
      open = resolve;
    });
    const tail = previous === undefined ? mine : previous.then(() => mine);
    this.tails.set(key, tail);
    if (previous !== undefined && !(await settlesWithin(previous, timeoutMs))) {
      // Give up our turn without skipping anyone: our successors still wait for `previous`.
      open();
      return undefined;
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      open();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  if (!Number.isFinite(ms)) {
    await promise;
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
