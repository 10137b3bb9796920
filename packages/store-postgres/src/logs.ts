import { assertJsonValue, assertLogKey, assertPrefix } from '@ratchet/store';
import type { LogEntry, LogStore } from '@ratchet/store';
import type { Context } from './context.js';

/**
 * Logs: one row per record. An append bumps the log's head row (`ratchet_log_heads`) by the number
 * of records, which row-locks it until commit: concurrent appenders to one log queue there, and a
 * rolled-back append rolls its bump back too, so seqs stay 1, 2, 3... with no gap or duplicate.
 */
export function logStore(ctx: Context): LogStore {
  const { project, location } = ctx;
  return {
    async append(key, records) {
      assertLogKey(location, key);
      if (records.length === 0) throw new RangeError('logs.append needs at least one record');
      records.forEach((record, i) => assertJsonValue(`${location}#${key}`, record, [i]));
      const texts = records.map((record) => JSON.stringify(record));
      return ctx.transaction(async (client) => {
        const head = await client.query<{ last_seq: string }>(
          `INSERT INTO ratchet_log_heads (project, key, last_seq) VALUES ($1, $2, $3)
           ON CONFLICT (project, key) DO UPDATE SET last_seq = ratchet_log_heads.last_seq + EXCLUDED.last_seq
           RETURNING last_seq`,
          [project, key, texts.length],
        );
        const first = Number(head.rows[0]?.last_seq) - texts.length + 1;
        await client.query(
          `INSERT INTO ratchet_log_entries (project, key, seq, record)
           SELECT $1, $2, $3::bigint + t.ord - 1, t.record FROM unnest($4::text[]) WITH ORDINALITY AS t(record, ord)`,
          [project, key, first, texts],
        );
        return first;
      }, { key, kind: 'log' });
    },

    async read(key, options = {}) {
      assertLogKey(location, key);
      const after = options.after ?? 0;
      const limit = options.limit;
      const rows = await ctx.query<{ seq: string; record: string }>(
        `SELECT seq, record FROM ratchet_log_entries WHERE project = $1 AND key = $2 AND seq > $3 ORDER BY seq ${limit === undefined ? '' : 'LIMIT $4'}`,
        limit === undefined ? [project, key, after] : [project, key, after, limit],
      );
      return rows.map((r): LogEntry => ({ seq: Number(r.seq), record: JSON.parse(r.record) as LogEntry['record'] }));
    },

    async list(prefix = '') {
      assertPrefix(location, prefix);
      const rows = await ctx.query<{ key: string }>('SELECT key FROM ratchet_log_heads WHERE project = $1 AND last_seq > 0 AND starts_with(key, $2)', [project, prefix]);
      return rows.map((r) => r.key).sort();
    },
  };
}
