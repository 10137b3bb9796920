/**
 * The connection settings of a store URL: the URL pg connects with, and how long a statement may
 * wait for a lock and run. Without limits a peer holding a row lock (a stuck session, a person in
 * psql with an open transaction) stalled commands for as long as it held on (45 s and more in the
 * field); with them a command gives up and says what it waited for.
 *
 * The limits come from the options, else from the URL's `lock_timeout` / `statement_timeout`
 * parameters (`?lock_timeout=30s&statement_timeout=2m`: a duration as `15s`, `500ms`, `2m`, or a
 * number of milliseconds; `0` turns the limit off, as in PostgreSQL), else the defaults below.
 * They are taken out of the URL and given to pg as numbers, and the URL is checked here, so a
 * malformed one is a BackendUnavailableError naming it (redacted), not a crash inside pg.
 */
import { BackendUnavailableError, parseDurationText } from '@ratchet/store';

/** A lock wait longer than this is a peer holding on, not a queue of writers (which take milliseconds each). */
export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
/** Far above any statement Ratchet runs (a 16 MiB document write takes well under a second). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 60_000;

export interface Timeouts {
  /** 0: no limit. */
  lockTimeoutMs: number;
  /** 0: no limit. */
  statementTimeoutMs: number;
}

export interface ConnectionSettings extends Timeouts {
  /** The URL for pg, without the parameters read here. */
  connectionString: string;
}

const PARAMS = { lock_timeout: 'lockTimeoutMs', statement_timeout: 'statementTimeoutMs' } as const;

export function connectionSettings(url: string, location: string, options: Partial<Timeouts> = {}): ConnectionSettings {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BackendUnavailableError(location, 'not a valid PostgreSQL URL (expected postgres://user:password@host:port/database, a port from 1 to 65535)');
  }
  if (parsed.port !== '' && Number(parsed.port) < 1) throw new BackendUnavailableError(location, `port ${parsed.port} is not a port (1 to 65535)`);
  const settings: ConnectionSettings = { connectionString: url, lockTimeoutMs: DEFAULT_LOCK_TIMEOUT_MS, statementTimeoutMs: DEFAULT_STATEMENT_TIMEOUT_MS };
  let changed = false;
  for (const [param, field] of Object.entries(PARAMS) as [keyof typeof PARAMS, keyof Timeouts][]) {
    const values = parsed.searchParams.getAll(param);
    if (values.length === 0) continue;
    changed = true;
    parsed.searchParams.delete(param);
    const text = values[values.length - 1]!;
    const ms = text.trim() === '0' ? 0 : parseDurationText(text, { fractions: true });
    if (ms === undefined) throw new BackendUnavailableError(location, `${param}=${text} is not a duration (write 10s, 500ms, 2m, a number of milliseconds, or 0 for no limit)`);
    settings[field] = ms;
  }
  if (changed) settings.connectionString = parsed.toString();
  for (const field of ['lockTimeoutMs', 'statementTimeoutMs'] as const) {
    const value = options[field];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${field} must be a whole number of milliseconds >= 0 (0: no limit), got ${value}`);
    settings[field] = value;
  }
  return settings;
}

/** `10 s`, `1.5 s`, `500 ms`, `2 min`: a limit as a person reads it. */
export function formatWait(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000 || ms % 60_000 !== 0) return `${Number((ms / 1000).toFixed(3))} s`;
  return `${ms / 60_000} min`;
}
