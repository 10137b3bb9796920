/**
 * The plan registry's data without zod: the name rule, and a hand-written validator shaped like
 * zod's `safeParse` for @ratchet/store. The registry is read on every `ratchet plan lint` and every
 * `ratchet run done` of a project that has one, and importing zod costs about 100 ms of start-up;
 * `PlanRegistryDataSchema` in schema.ts stays the source of truth (of the JSON Schema too) and
 * test/registry-data.test.ts holds this validator to its verdicts on generated values.
 */
import type { SafeParseResult, Schema, SchemaIssue } from '@ratchet/store';
import type { z } from 'zod';
import type { PlanRegistryDataSchema } from './schema.js';

export const PLAN_REGISTRY_SCHEMA_URL = 'https://unpkg.com/@ratchet/plan-lint/schemas/plan-registry.schema.json';

/** Plan names: lower case, digits, `.`, `_`, `-`; never `constructor`/`prototype` (`__proto__` cannot match). */
export const PLAN_NAME = /^(?!(?:constructor|prototype)$)[a-z0-9][a-z0-9._-]*$/;

/** The registry document without its envelope (`$schema`, `schemaVersion`), as the store validates it: logical plan name -> project-relative plan path. */
export type PlanRegistryData = z.infer<typeof PlanRegistryDataSchema>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const planRegistryValidator: Schema<PlanRegistryData> = {
  safeParse(input: unknown): SafeParseResult<PlanRegistryData> {
    const issues: SchemaIssue[] = [];
    if (!isObject(input)) return { success: false, error: { issues: [{ path: [], message: 'expected an object with "plans"' }] } };
    for (const key of Object.keys(input)) if (key !== 'plans') issues.push({ path: [key], message: `unknown property "${key}"` });
    const plans = input.plans;
    if (!Object.hasOwn(input, 'plans') || plans === undefined) issues.push({ path: ['plans'], message: 'required property "plans" is missing' });
    else if (!isObject(plans)) issues.push({ path: ['plans'], message: 'expected an object of plan name -> path' });
    else {
      for (const [name, path] of Object.entries(plans)) {
        if (!PLAN_NAME.test(name)) issues.push({ path: ['plans', name], message: `invalid plan name ${JSON.stringify(name)}: names match ${PLAN_NAME.source}` });
        if (typeof path !== 'string' || path.length === 0) issues.push({ path: ['plans', name], message: 'expected a non-empty path' });
      }
    }
    if (issues.length > 0) return { success: false, error: { issues } };
    return { success: true, data: { plans: { ...(plans as Record<string, string>) } } };
  },
};
