/**
 * Queues on the file backend: one document per queue, `<root>/.ratchet/queues/<queue>.json`,
 * changed only by locked read-modify-write (so claims are exclusive across processes), holding the
 * items in offer order and the lost attempts. Lease times use this host's clock.
 *
 * Its JSON Schema: `schemas/file-queue.schema.json` (the shipped-files test checks real queues against it).
 * `{ "schemaVersion": 1, "nextOrder": n, "items": [{ "id", "state", "priority", "order", "attempts",
 * "owner"?, "leaseUntil"? }], "lost": [LostAttempt] }`
 */
import { LeaseLostError, ValidationError } from '../errors.js';
import { assertKey } from '../port/keys.js';
import type { Claim, ClaimOutcome, DocumentStore, JsonObject, LostAttempt, QueueItem, QueueItemState, QueueStore } from '../port/storage-port.js';
import { QUEUES_DIR, type FileContext } from './context.js';
import { listKeys } from './walk.js';

interface StoredItem {
  id: string;
  state: QueueItemState;
  priority: number;
  order: number;
  attempts: number;
  owner?: string;
  leaseUntil?: string;
}

interface QueueDoc {
  schemaVersion: 1;
  nextOrder: number;
  items: StoredItem[];
  lost: LostAttempt[];
}

const MAX_ID_LENGTH = 1024;

export function fileQueues(ctx: FileContext, documents: DocumentStore, clock: () => number = Date.now): QueueStore {
  const docKey = (queue: string): string => {
    assertKey(ctx.location, queue);
    return `${QUEUES_DIR}/${queue}.json`;
  };
  const load = async (queue: string): Promise<QueueDoc> => {
    const key = docKey(queue);
    const stored = await documents.get(key);
    return stored === undefined ? emptyQueue() : decodeQueue(ctx.where(key), stored.value);
  };
  /** Locked read-modify-write of the queue document; `change` returns false to write nothing. */
  const change = async <R>(queue: string, fn: (doc: QueueDoc, now: number) => { write: boolean; result: R }): Promise<R> => {
    const key = docKey(queue);
    let result: R | undefined;
    await documents.update(key, (current) => {
      const doc = current === undefined ? emptyQueue() : decodeQueue(ctx.where(key), current.value);
      const outcome = fn(doc, clock());
      result = outcome.result;
      return outcome.write ? (doc as unknown as JsonObject) : undefined;
    });
    return result as R;
  };
  const lost = (queue: string, id: string, owner: string, reason: string, item: StoredItem | undefined): LeaseLostError =>
    new LeaseLostError(ctx.location, `${docKey(queue)}#${id}`, `${reason} (owner ${JSON.stringify(owner)})`, item?.state === 'claimed' ? item.owner : undefined);
  const liveClaim = (queue: string, doc: QueueDoc, id: string, owner: string, now: number): StoredItem => {
    const item = doc.items.find((i) => i.id === id);
    if (item === undefined) throw lost(queue, id, owner, `no item ${JSON.stringify(id)} in the queue`, item);
    if (item.state !== 'claimed' || item.owner !== owner) throw lost(queue, id, owner, `item ${JSON.stringify(id)} is not claimed by this owner`, item);
    if (Date.parse(item.leaseUntil ?? '') <= now) throw lost(queue, id, owner, `the lease on item ${JSON.stringify(id)} expired at ${item.leaseUntil ?? '?'}`, item);
    return item;
  };
  return {
    offer(queue, items) {
      const checked = items.map((item, index) => checkOffer(ctx.where(docKey(queue)), item, index));
      return change(queue, (doc) => {
        const known = new Set(doc.items.map((i) => i.id));
        let added = 0;
        for (const { id, priority } of checked) {
          if (known.has(id)) continue;
          known.add(id);
          doc.items.push({ id, state: 'ready', priority, order: doc.nextOrder++, attempts: 0 });
          added++;
        }
        return { write: added > 0, result: added };
      });
    },
    claim(queue, owner, leaseMs) {
      checkOwner(owner);
      checkLease(leaseMs);
      return change(queue, (doc, now) => {
        const candidate = claimOrder(doc.items).find((i) => i.state === 'ready' || (i.state === 'claimed' && Date.parse(i.leaseUntil ?? '') <= now));
        if (candidate === undefined) return { write: false, result: undefined };
        let recovered: LostAttempt | undefined;
        if (candidate.state === 'claimed') {
          recovered = { id: candidate.id, owner: candidate.owner ?? '', attempt: candidate.attempts, leaseUntil: candidate.leaseUntil ?? '', recoveredAt: new Date(now).toISOString() };
          doc.lost.push(recovered);
        }
        candidate.state = 'claimed';
        candidate.owner = owner;
        candidate.attempts += 1;
        candidate.leaseUntil = new Date(now + leaseMs).toISOString();
        const claim: Claim = { id: candidate.id, owner, attempt: candidate.attempts, leaseUntil: candidate.leaseUntil, ...(recovered === undefined ? {} : { recovered }) };
        return { write: true, result: claim };
      });
    },
    heartbeat(queue, id, owner, leaseMs) {
      checkLease(leaseMs);
      return change(queue, (doc, now) => {
        const item = liveClaim(queue, doc, id, owner, now);
        item.leaseUntil = new Date(now + leaseMs).toISOString();
        return { write: true, result: { id, owner, attempt: item.attempts, leaseUntil: item.leaseUntil } };
      });
    },
    finish(queue, id, owner, outcome: ClaimOutcome) {
      if (outcome !== 'done' && outcome !== 'ready') throw new TypeError(`finish: outcome must be "done" or "ready", got ${String(outcome)}`);
      return change(queue, (doc, now) => {
        const item = liveClaim(queue, doc, id, owner, now);
        item.state = outcome;
        delete item.owner;
        delete item.leaseUntil;
        return { write: true, result: undefined };
      });
    },
    async items(queue) {
      const doc = await load(queue);
      const now = clock();
      return claimOrder(doc.items).map((i): QueueItem => {
        const base = { id: i.id, state: i.state, priority: i.priority, attempts: i.attempts };
        if (i.state !== 'claimed') return base;
        return { ...base, owner: i.owner, leaseUntil: i.leaseUntil, expired: Date.parse(i.leaseUntil ?? '') <= now };
      });
    },
    async lostAttempts(queue) {
      return (await load(queue)).lost;
    },
    list(prefix = '') {
      try {
        if (prefix !== '') assertKey(ctx.location, prefix.endsWith('/') ? `${prefix}x` : prefix);
        const keys = listKeys(ctx, `${QUEUES_DIR}/${prefix}`, (_key, name, siblings) => name.endsWith('.json') && siblings.has(`${name}.digest`));
        return Promise.resolve(keys.map((key) => key.slice(QUEUES_DIR.length + 1, -'.json'.length)));
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    },
  };
}

function emptyQueue(): QueueDoc {
  return { schemaVersion: 1, nextOrder: 1, items: [], lost: [] };
}

function claimOrder(items: readonly StoredItem[]): StoredItem[] {
  return [...items].sort((a, b) => a.priority - b.priority || a.order - b.order);
}

function checkOffer(where: string, item: { id: string; priority?: number }, index: number): { id: string; priority: number } {
  const refuse = (message: string): never => {
    throw new ValidationError(where, [{ pointer: `/${index}`, message }], 'update');
  };
  if (typeof item !== 'object' || item === null) refuse('an offered item must be an object { id, priority? }');
  if (typeof item.id !== 'string' || item.id === '' || item.id.length > MAX_ID_LENGTH) refuse(`an item id must be a non-empty string of at most ${MAX_ID_LENGTH} characters`);
  const priority = item.priority ?? 0;
  if (typeof priority !== 'number' || !Number.isFinite(priority)) refuse('an item priority must be a finite number');
  return { id: item.id, priority };
}

function checkOwner(owner: string): void {
  if (typeof owner !== 'string' || owner === '') throw new TypeError('claim: owner must be a non-empty string');
}

function checkLease(leaseMs: number): void {
  if (typeof leaseMs !== 'number' || !Number.isFinite(leaseMs) || leaseMs <= 0) throw new RangeError(`leaseMs must be a finite number > 0, got ${String(leaseMs)}`);
}

/** The queue document as read: a file that is not one is refused, never "repaired" by a claim. */
function decodeQueue(where: string, value: JsonObject): QueueDoc {
  const v = value as Partial<QueueDoc>;
  const bad = (message: string): never => {
    throw new ValidationError(where, [{ pointer: '', message: `not a queue document: ${message}` }], 'file');
  };
  if (v.schemaVersion !== 1) bad(`schemaVersion ${JSON.stringify(v.schemaVersion)} (this reader knows 1)`);
  if (!Number.isSafeInteger(v.nextOrder) || !Array.isArray(v.items) || !Array.isArray(v.lost)) bad('"nextOrder", "items" and "lost" are required');
  for (const item of v.items ?? []) {
    if (typeof item?.id !== 'string' || !['ready', 'claimed', 'done'].includes(item.state) || !Number.isFinite(item.priority) || !Number.isSafeInteger(item.order) || !Number.isSafeInteger(item.attempts)) {
      bad(`a malformed item ${JSON.stringify(item)}`);
    }
  }
  return v as QueueDoc;
}
