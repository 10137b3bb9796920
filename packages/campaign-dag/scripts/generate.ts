/**
 * Generate schemas/*.schema.json from the zod schemas in src/schema.ts (the one source of truth).
 * test/schema.test.ts regenerates them in memory and fails when the committed files are stale.
 * Run: `pnpm --filter @ratchet/campaign-dag generate`.
 */
import { fileURLToPath } from 'node:url';
import { isMain, writeGenerated } from '../../../scripts/dev/generated.js';
import { archiveJsonSchema, campaignJsonSchema, planJsonSchema } from '../src/schema.js';

const at = (name: string): string => fileURLToPath(new URL(`../schemas/${name}`, import.meta.url));

export function generate(): { path: string; text: string }[] {
  return [
    { path: at('campaign.schema.json'), text: `${JSON.stringify(campaignJsonSchema(), null, 2)}\n` },
    { path: at('campaign-archive.schema.json'), text: `${JSON.stringify(archiveJsonSchema(), null, 2)}\n` },
    { path: at('plan.schema.json'), text: `${JSON.stringify(planJsonSchema(), null, 2)}\n` },
  ];
}

if (isMain(import.meta.url)) await writeGenerated(generate());
