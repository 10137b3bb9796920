/**
 * Generate schemas/*.schema.json from the zod schemas in src/schema.ts (the one source of truth).
 * test/schema.test.ts regenerates them in memory and fails when the committed files are stale.
 * Run: `pnpm --filter @ratchet/flows generate`.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain, writeGenerated } from '../../../scripts/dev/generated.js';
import { flowJsonSchema, flowSettingsJsonSchema, ledgerJsonSchema, sessionJsonSchema } from '../src/schema.js';

const at = (name: string): string => fileURLToPath(new URL(`../schemas/${name}`, import.meta.url));

export function generate(): { path: string; text: string }[] {
  return [
    { path: at('flow.schema.json'), text: `${JSON.stringify(flowJsonSchema(), null, 2)}\n` },
    { path: at('flow-session.schema.json'), text: `${JSON.stringify(sessionJsonSchema(), null, 2)}\n` },
    { path: at('flow-settings.schema.json'), text: `${JSON.stringify(flowSettingsJsonSchema(), null, 2)}\n` },
    { path: at('flow-artifacts.schema.json'), text: `${JSON.stringify(ledgerJsonSchema(), null, 2)}\n` },
  ];
}

if (isMain(import.meta.url)) {
  const files = generate();
  for (const { path } of files) await mkdir(dirname(path), { recursive: true });
  await writeGenerated(files);
}
