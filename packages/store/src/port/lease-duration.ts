/**
 * Lease lengths as people type them on the command line and in config: `15m`, `30s`, `2h`, `500ms`,
 * or a bare number of milliseconds. Campaign claims and JIXO locks share it, so `--lease` means the
 * same everywhere.
 */
const LEASE = /^(\d{1,9})(ms|s|m|h)?$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** The shortest lease accepted: below it a heartbeat could not keep up with the backend's round trip. */
export const MIN_LEASE_MS = 100;
/** The longest: a week. Longer is "never expires", which is what no lease already means. */
export const MAX_LEASE_MS = 7 * 24 * 3_600_000;

/** Milliseconds, or undefined when `text` is not a lease length between MIN_LEASE_MS and MAX_LEASE_MS. */
export function parseLeaseDuration(text: string): number | undefined {
  const m = LEASE.exec(text.trim());
  if (m === null) return undefined;
  const ms = Number(m[1]) * UNIT_MS[(m[2] ?? 'ms') as keyof typeof UNIT_MS];
  return ms >= MIN_LEASE_MS && ms <= MAX_LEASE_MS ? ms : undefined;
}

/** `15m`, `90s`, `250ms`: the shortest exact way to write a lease back. */
export function formatLeaseDuration(ms: number): string {
  for (const unit of ['h', 'm', 's'] as const) if (ms >= UNIT_MS[unit] && ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  return `${ms}ms`;
}
