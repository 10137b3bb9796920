/**
 * Retry on optimistic-locking conflicts: exponential backoff with jitter (10, 20, 40 ms by default,
 * each scaled by a random factor in [1 - jitter, 1 + jitter]) so that two losers do not collide
 * again in lockstep. Clock and randomness are injectable for tests.
 */
import { ConflictError } from './errors.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  retries?: number | undefined;
  /** First delay in ms (default 10); doubled (by `factor`) each retry. */
  baseMs?: number | undefined;
  factor?: number | undefined;
  /** 0 to 1 (default 0.5). */
  jitter?: number | undefined;
  random?: (() => number) | undefined;
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Which errors to retry (default: ConflictError). */
  retryOn?: ((err: unknown) => boolean) | undefined;
  onRetry?: ((err: unknown, attempt: number, delayMs: number) => void) | undefined;
}

/** The delay before retry number `attempt` (0-based). */
export function backoffDelay(attempt: number, options: RetryOptions = {}): number {
  const base = (options.baseMs ?? 10) * (options.factor ?? 2) ** attempt;
  const jitter = Math.min(1, Math.max(0, options.jitter ?? 0.5));
  const r = (options.random ?? Math.random)();
  return Math.max(0, Math.round(base * (1 - jitter + 2 * jitter * r)));
}

/** Run `fn` (which should re-read what it depends on), retrying conflicts; the last error is rethrown. */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const retries = options.retries ?? 3;
  const retryOn = options.retryOn ?? ((err: unknown) => err instanceof ConflictError);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt >= retries || !retryOn(err)) throw err;
      const delay = backoffDelay(attempt, options);
      options.onRetry?.(err, attempt + 1, delay);
      await sleep(delay);
    }
  }
}
