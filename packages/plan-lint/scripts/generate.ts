/**
 * Generate schemas/*.schema.json from the zod schemas in src/schema.ts (the one source of truth).
 * test/schema.test.ts regenerates them in memory and fails when the committed files are stale.
 * Run: `pnpm --filter @ratchet/plan-lint generate`.
 */
import { fileURLToPath } from 'node:url';
import { isMain, writeGenerated } from '../../../scripts/dev/generated.js';
import { dialectJsonSchema, planJsonSchema, planRegistryJsonSchema } from '../src/schema.js';

const at = (name: string): string => fileURLToPath(new URL(`../schemas/${name}`, import.meta.url));

export function generate(): { path: string; text: string }[] {
  return [
    { path: at('plan.schema.json'), text: `${JSON.stringify(planJsonSchema(), null, 2)}\n` },
    { path: at('dialect.schema.json'), text: `${JSON.stringify(dialectJsonSchema(), null, 2)}\n` },
    { path: at('plan-registry.schema.json'), text: `${JSON.stringify(planRegistryJsonSchema(), null, 2)}\n` },
  ];
}

if (isMain(import.meta.url)) await writeGenerated(generate());
