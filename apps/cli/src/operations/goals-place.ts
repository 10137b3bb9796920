/**
 * A typed goals location (goals-input.ts) as the goals commands' shared helpers take it
 * (commands/goals/shared.ts reads the state, registry and actor from an options object), and the
 * key=value maps the goals operations take, copied so a `__proto__` name is only a key.
 */
import type { Options } from '../commands/goals/shared.js';
import type { GoalsLocation, TraceLocation } from './goals-input.js';

export function goalsPlace(location: GoalsLocation & TraceLocation & { turn?: string | undefined }): Options {
  const { state, registry, as, who, agent, org, now, traces, traceConfig, turn } = location;
  return { state, registry, as, who, agent, org, now, traces, traceConfig, turn };
}

/** A null-prototype copy: a `__proto__` key stays a key (the library decides whether it is allowed). */
export function plainRecord(values: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [key, value] of Object.entries(values ?? {})) out[key] = value;
  return out;
}
