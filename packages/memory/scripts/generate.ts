/**
 * Generate schemas/memory.schema.json from the zod schema in src/schema.ts (the one source of
 * truth). test/schema.test.ts regenerates it in memory and fails when the committed file is stale.
 * Run: `pnpm --filter @ratchet/memory generate`.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { isMain, writeGenerated } from '../../../scripts/dev/generated.js';
import { memoryJsonSchema } from '../src/schema.js';

const at = (name: string): string => fileURLToPath(new URL(`../schemas/${name}`, import.meta.url));

export function generate(): { path: string; text: string }[] {
  return [{ path: at('memory.schema.json'), text: `${JSON.stringify(memoryJsonSchema(), null, 2)}\n` }];
}

if (isMain(import.meta.url)) {
  await mkdir(fileURLToPath(new URL('../schemas/', import.meta.url)), { recursive: true });
  await writeGenerated(generate());
}
