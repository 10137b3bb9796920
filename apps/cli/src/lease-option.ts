/**
 * `--lease 15m`, as campaign claims, campaign heartbeats and JIXO locks take it: milliseconds, or
 * undefined without the option (each command has its own default). A malformed or out-of-range
 * length is a usage error (exit 2) with code `bad-lease`.
 */
import { MAX_LEASE_MS, MIN_LEASE_MS, formatLeaseDuration, parseLeaseDuration } from '@ratchet/store';
import { CliError } from './errors.js';

export function leaseOption(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === 'string' ? parseLeaseDuration(value) : undefined;
  if (ms === undefined) {
    const range = `between ${formatLeaseDuration(MIN_LEASE_MS)} and ${formatLeaseDuration(MAX_LEASE_MS)}`;
    throw new CliError(`--lease must be a duration ${range} such as 15m, 90s or 500ms, got ${typeof value === 'string' ? JSON.stringify(value) : typeof value}`, { code: 'bad-lease' });
  }
  return ms;
}
