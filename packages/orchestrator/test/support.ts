import type { PlanStackOptions } from '../src/index.js';

/** A clock that ticks one second per call, from a fixed instant. */
export function fakeClock(start = Date.UTC(2026, 0, 1)): () => Date {
  let t = start;
  return () => {
    const d = new Date(t);
    t += 1000;
    return d;
  };
}

export function host(plans: Record<string, string>, extra: Partial<PlanStackOptions> = {}): PlanStackOptions {
  return {
    now: fakeClock(),
    readPlan: (p) => (Object.hasOwn(plans, p) ? plans[p] : undefined),
    files: [],
    ...extra,
  };
}
