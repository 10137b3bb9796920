/**
 * Moving a project's state between backends (`ratchet store export | import`): every document, log
 * entry and queue item as JSON Lines, one record per line, so a file backend's state can go into
 * PostgreSQL and back. Document values round-trip exactly (key order included); the port cannot set
 * a revision, so revisions start again at 1 in the target.
 *
 * Queues carry what a claimer needs: item states, priorities, owners and leases of live claims.
 * An item whose lease had already expired is imported ready (anyone may claim it, as before), and
 * the recorded lost attempts are exported for the record but not replayed (the port has no way to
 * write history; campaigns keep their own copy of lost attempts in their document).
 *
 * Import refuses, before writing anything, a file that does not parse (naming the line), a file
 * without its trailer (truncated), and a target that already holds any of the keys.
 */
import { StoreError } from '../errors.js';
import { parseJson } from '../json-parse.js';
import { assertJsonObject, assertJsonValue } from './json-value.js';
import { assertKey } from './keys.js';
import type { JsonObject, JsonValue, LostAttempt, QueueItemState, StorageBackend } from './storage-port.js';

export const EXPORT_FORMAT = 'ratchet-store-export';
export const EXPORT_VERSION = 1;

export type ExportRecord =
  | { type: 'header'; format: typeof EXPORT_FORMAT; version: number; from: { kind: string; location: string }; exportedAt: string }
  | { type: 'document'; key: string; revision: number; value: JsonObject }
  | { type: 'log'; key: string; seq: number; record: JsonValue }
  | { type: 'queue-item'; queue: string; id: string; state: QueueItemState; priority: number; attempts: number; owner?: string; leaseUntil?: string; expired?: boolean }
  | ({ type: 'lost-attempt'; queue: string } & LostAttempt)
  | { type: 'end'; documents: number; logEntries: number; queueItems: number };

export interface TransferCounts {
  documents: number;
  logEntries: number;
  queueItems: number;
}

const LOG_PAGE = 1000;

/** Every record of the backend's state, header first and trailer last, as JSON Lines (each with its newline). */
export async function* exportStore(backend: StorageBackend, now: () => Date = () => new Date()): AsyncGenerator<string> {
  const line = (record: ExportRecord): string => `${JSON.stringify(record)}\n`;
  yield line({ type: 'header', format: EXPORT_FORMAT, version: EXPORT_VERSION, from: { kind: backend.kind, location: backend.location }, exportedAt: now().toISOString() });
  const counts: TransferCounts = { documents: 0, logEntries: 0, queueItems: 0 };
  for (const key of await backend.documents.list()) {
    const doc = await backend.documents.get(key);
    if (doc === undefined) continue;
    counts.documents++;
    yield line({ type: 'document', key, revision: doc.revision, value: doc.value });
  }
  for (const key of await backend.logs.list()) {
    for (let after = 0; ; ) {
      const page = await backend.logs.read(key, { after, limit: LOG_PAGE });
      for (const entry of page) {
        counts.logEntries++;
        yield line({ type: 'log', key, seq: entry.seq, record: entry.record });
      }
      if (page.length < LOG_PAGE) break;
      after = page[page.length - 1]!.seq;
    }
  }
  for (const queue of await backend.queues.list()) {
    for (const item of await backend.queues.items(queue)) {
      counts.queueItems++;
      const record: ExportRecord = { type: 'queue-item', queue, id: item.id, state: item.state, priority: item.priority, attempts: item.attempts };
      if (item.owner !== undefined) record.owner = item.owner;
      if (item.leaseUntil !== undefined) record.leaseUntil = item.leaseUntil;
      if (item.expired !== undefined) record.expired = item.expired;
      yield line(record);
    }
    for (const lost of await backend.queues.lostAttempts(queue)) yield line({ type: 'lost-attempt', queue, ...lost });
  }
  yield line({ type: 'end', ...counts });
}

/** Parses an export: every line checked (line numbers in errors), the trailer's counts matched. */
export function parseExport(text: string, source: string): ExportRecord[] {
  const refuse = (line: number, message: string): never => {
    throw new StoreError('validation-error', source, `${message}; nothing was imported`, { line });
  };
  const lines = text.replace(/^\uFEFF/u, '').split(/\r?\n/u);
  if (lines[lines.length - 1] === '') lines.pop();
  const records: ExportRecord[] = [];
  lines.forEach((raw, i) => {
    const n = i + 1;
    if (raw.trim() === '') refuse(n, 'an empty line (an export has one record per line)');
    let value: unknown;
    try {
      value = parseJson(raw, { path: source });
    } catch (err) {
      refuse(n, `not JSON: ${(err as StoreError).reason ?? String(err)}`);
    }
    records.push(checkRecord(value, n, refuse));
  });
  const header = records[0];
  if (header?.type !== 'header' || header.format !== EXPORT_FORMAT) refuse(1, `not a Ratchet store export (the first line must be the ${EXPORT_FORMAT} header)`);
  if ((header as { version: number }).version !== EXPORT_VERSION) refuse(1, `export format version ${String((header as { version: unknown }).version)}; this Ratchet reads version ${EXPORT_VERSION}`);
  const end = records[records.length - 1];
  if (end?.type !== 'end' || records.length < 2) refuse(records.length, 'the export ends without its trailer: it was cut short');
  const body = records.slice(1, -1);
  const counts = { documents: body.filter((r) => r.type === 'document').length, logEntries: body.filter((r) => r.type === 'log').length, queueItems: body.filter((r) => r.type === 'queue-item').length };
  const trailer = end as Extract<ExportRecord, { type: 'end' }>;
  if (trailer.documents !== counts.documents || trailer.logEntries !== counts.logEntries || trailer.queueItems !== counts.queueItems) {
    refuse(records.length, `the trailer counts ${trailer.documents} documents, ${trailer.logEntries} log entries, ${trailer.queueItems} queue items but the file holds ${counts.documents}, ${counts.logEntries}, ${counts.queueItems}`);
  }
  body.forEach((r, i) => {
    if (r.type === 'header' || r.type === 'end') refuse(i + 2, `a second ${r.type} record`);
  });
  return records;
}

type Refuse = (line: number, message: string) => never;

function checkRecord(value: unknown, n: number, refuse: Refuse): ExportRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse(n, 'a record must be a JSON object');
  const r = value as Record<string, unknown>;
  const str = (k: string): string => (typeof r[k] === 'string' ? (r[k]) : refuse(n, `"${k}" must be a string`));
  const int = (k: string, min: number): number => (Number.isSafeInteger(r[k]) && (r[k] as number) >= min ? (r[k] as number) : refuse(n, `"${k}" must be an integer >= ${min}`));
  const key = (k: string): string => {
    const v = str(k);
    try {
      assertKey('export', v);
    } catch (err) {
      refuse(n, `"${k}": ${(err as StoreError).reason ?? String(err)}`);
    }
    return v;
  };
  switch (r.type) {
    case 'header':
    case 'end':
      return value as ExportRecord;
    case 'document': {
      try {
        assertJsonObject(`line ${n}`, r.value);
      } catch (err) {
        refuse(n, `"value": ${(err as StoreError).reason ?? String(err)}`);
      }
      return { type: 'document', key: key('key'), revision: int('revision', 1), value: r.value };
    }
    case 'log': {
      try {
        assertJsonValue(`line ${n}`, r.record);
      } catch (err) {
        refuse(n, `"record": ${(err as StoreError).reason ?? String(err)}`);
      }
      return { type: 'log', key: key('key'), seq: int('seq', 1), record: r.record };
    }
    case 'queue-item': {
      const state = str('state');
      if (state !== 'ready' && state !== 'claimed' && state !== 'done') refuse(n, '"state" must be ready, claimed or done');
      if (typeof r.priority !== 'number' || !Number.isFinite(r.priority)) refuse(n, '"priority" must be a finite number');
      const item: ExportRecord = { type: 'queue-item', queue: key('queue'), id: str('id'), state: state, priority: r.priority, attempts: int('attempts', 0) };
      if (state === 'claimed') {
        item.owner = str('owner');
        item.leaseUntil = str('leaseUntil');
        if (Number.isNaN(Date.parse(item.leaseUntil))) refuse(n, '"leaseUntil" must be an ISO-8601 time');
      }
      return item;
    }
    case 'lost-attempt':
      return { type: 'lost-attempt', queue: key('queue'), id: str('id'), owner: str('owner'), attempt: int('attempt', 1), leaseUntil: str('leaseUntil'), recoveredAt: str('recoveredAt') };
    default:
      return refuse(n, `unknown record type ${JSON.stringify(r.type)}`);
  }
}

/** The owner that walks items into their exported state (claimed only for an instant). */
const IMPORTER = 'ratchet-store-import';

/**
 * Writes a parsed export into `backend`. Refused before anything is written when the target already
 * holds any document, log or queue the export names (import into an empty project).
 */
export async function importStore(backend: StorageBackend, records: readonly ExportRecord[], now: () => number = Date.now): Promise<TransferCounts> {
  const docs = records.filter((r): r is Extract<ExportRecord, { type: 'document' }> => r.type === 'document');
  const logs = records.filter((r): r is Extract<ExportRecord, { type: 'log' }> => r.type === 'log');
  const items = records.filter((r): r is Extract<ExportRecord, { type: 'queue-item' }> => r.type === 'queue-item');
  const taken: string[] = [];
  for (const d of docs) if ((await backend.documents.get(d.key)) !== undefined) taken.push(`document ${d.key}`);
  for (const key of new Set(logs.map((l) => l.key))) if ((await backend.logs.read(key, { limit: 1 })).length > 0) taken.push(`log ${key}`);
  for (const queue of new Set(items.map((i) => i.queue))) if ((await backend.queues.items(queue)).length > 0) taken.push(`queue ${queue}`);
  if (taken.length > 0) {
    throw new StoreError('revision-conflict', backend.location, `the target already holds ${taken.slice(0, 5).join(', ')}${taken.length > 5 ? ` and ${taken.length - 5} more` : ''}; import into an empty store (nothing was imported)`);
  }
  // Sizes first: a document too large for the target is refused before anything is written.
  for (const d of docs) {
    const size = Buffer.byteLength(`${JSON.stringify(d.value, null, 2)}\n`, 'utf8');
    if (size > backend.limits.maxDocumentBytes) throw new StoreError('document-too-large', `${backend.location}#${d.key}`, `${size} bytes is over this backend's ${backend.limits.maxDocumentBytes}-byte document limit; nothing was imported`);
  }
  for (const d of docs) await backend.documents.update(d.key, () => d.value, { expectedRevision: 0 });
  const byLog = new Map<string, JsonValue[]>();
  for (const l of [...logs].sort((a, b) => a.seq - b.seq)) (byLog.get(l.key) ?? byLog.set(l.key, []).get(l.key)!).push(l.record);
  for (const [key, list] of byLog) for (let i = 0; i < list.length; i += LOG_PAGE) await backend.logs.append(key, list.slice(i, i + LOG_PAGE));
  const byQueue = new Map<string, Extract<ExportRecord, { type: 'queue-item' }>[]>();
  for (const item of items) (byQueue.get(item.queue) ?? byQueue.set(item.queue, []).get(item.queue)!).push(item);
  for (const [queue, list] of byQueue) await importQueue(backend, queue, list, now);
  return { documents: docs.length, logEntries: logs.length, queueItems: items.length };
}

/**
 * Done and live claimed items are walked into their state one at a time (offered alone, so the one
 * claim that follows can only take that item); ready and expired ones are offered last, in order.
 */
async function importQueue(backend: StorageBackend, queue: string, list: Extract<ExportRecord, { type: 'queue-item' }>[], now: () => number): Promise<void> {
  const live = (i: (typeof list)[number]): boolean => i.state === 'claimed' && Date.parse(i.leaseUntil ?? '') - now() > 0;
  for (const item of list.filter((i) => i.state === 'done' || live(i))) {
    await backend.queues.offer(queue, [{ id: item.id, priority: item.priority }]);
    const owner = item.state === 'done' ? IMPORTER : item.owner!;
    const leaseMs = item.state === 'done' ? 60_000 : Math.max(1, Date.parse(item.leaseUntil!) - now());
    const claim = await backend.queues.claim(queue, owner, leaseMs);
    if (claim?.id !== item.id) throw new StoreError('io-error', `${backend.location}#${queue}`, `importing the queue claimed ${JSON.stringify(claim?.id)} instead of ${JSON.stringify(item.id)}; is something else claiming from it?`);
    if (item.state === 'done') await backend.queues.finish(queue, item.id, owner, 'done');
  }
  const rest = list.filter((i) => i.state === 'ready' || (i.state === 'claimed' && !live(i)));
  if (rest.length > 0) await backend.queues.offer(queue, rest.map((i) => ({ id: i.id, priority: i.priority })));
}
