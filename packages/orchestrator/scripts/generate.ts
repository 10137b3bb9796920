/**
 * Generate schemas/*.schema.json from the zod schemas in src/schema.ts (the one source of truth).
 * test/schema.test.ts regenerates them in memory and fails when the committed files are stale.
 * Run: `pnpm --filter @ratchet/orchestrator generate`.
 */
import { fileURLToPath } from 'node:url';
import { isMain, writeGenerated } from '../../../scripts/dev/generated.js';
import { activityEntryJsonSchema, agentMetaJsonSchema, sessionJsonSchema } from '../src/schema.js';

const at = (name: string): string => fileURLToPath(new URL(`../schemas/${name}`, import.meta.url));

export function generate(): { path: string; text: string }[] {
  return [
    { path: at('session.schema.json'), text: `${JSON.stringify(sessionJsonSchema(), null, 2)}\n` },
    { path: at('activity-log-entry.schema.json'), text: `${JSON.stringify(activityEntryJsonSchema(), null, 2)}\n` },
    { path: at('agent-meta.schema.json'), text: `${JSON.stringify(agentMetaJsonSchema(), null, 2)}\n` },
  ];
}

if (isMain(import.meta.url)) await writeGenerated(generate());
