/**
 * Lease lengths as people type them on the command line and in config: `15m`, `30s`, `2h`, `500ms`,
 * or a bare number of milliseconds. Campaign claims and JIXO locks share it, so `--lease` means the
 * same everywhere.
 */
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
export type DurationUnit = keyof typeof UNIT_MS;
const WHOLE = /^(\d{1,9})(ms|s|m|h)?$/;
const FRACTIONAL = /^(\d{1,9}(?:\.\d{1,3})?)(ms|s|m|h)?$/;

/** The shortest lease accepted: below it a heartbeat could not keep up with the backend's round trip. */
export const MIN_LEASE_MS = 100;
/** The longest: a week. Longer is "never expires", which is what no lease already means. */
export const MAX_LEASE_MS = 7 * 24 * 3_600_000;

/**
 * `90s`, `5m`, `1h`, `500ms` as milliseconds (> 0), or undefined. A bare number is in `bareUnit`;
 * fractions (`1.5h`) only with `fractions`. Every duration option of the CLI reads through this.
 */
export function parseDurationText(text: string, options: { bareUnit?: DurationUnit; fractions?: boolean } = {}): number | undefined {
  const m = (options.fractions === true ? FRACTIONAL : WHOLE).exec(text.trim());
  if (m === null) return undefined;
  const ms = Math.round(Number(m[1]) * UNIT_MS[(m[2] ?? options.bareUnit ?? 'ms') as DurationUnit]);
  return ms > 0 ? ms : undefined;
}

/** Milliseconds, or undefined when `text` is not a lease length between MIN_LEASE_MS and MAX_LEASE_MS. */
export function parseLeaseDuration(text: string): number | undefined {
  const ms = parseDurationText(text);
  return ms !== undefined && ms >= MIN_LEASE_MS && ms <= MAX_LEASE_MS ? ms : undefined;
}

/** `15m`, `90s`, `250ms`: the shortest exact way to write a lease back. */
export function formatLeaseDuration(ms: number): string {
  for (const unit of ['h', 'm', 's'] as const) if (ms >= UNIT_MS[unit] && ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  return `${ms}ms`;
}
