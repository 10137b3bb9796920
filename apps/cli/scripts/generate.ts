/**
 * Generate the CLI's JSON Schemas from their zod sources (src/hook/config-schema.ts), and nothing
 * else. test/hook-schema.test.ts regenerates in memory and fails when a committed file is stale.
 * Run: `pnpm --filter @ratchet/cli generate`.
 */
import { fileURLToPath } from 'node:url';
import { isMain, writeGenerated } from '../../../scripts/dev/generated.js';
import { hookMemoryJsonSchema, ratchetConfigJsonSchema } from '../src/hook/config-schema.js';

const at = (name: string): string => fileURLToPath(new URL(`../schemas/${name}`, import.meta.url));

export function generate(): { path: string; text: string }[] {
  return [
    { path: at('ratchet-config.schema.json'), text: `${JSON.stringify(ratchetConfigJsonSchema(), null, 2)}\n` },
    { path: at('hook-memory.schema.json'), text: `${JSON.stringify(hookMemoryJsonSchema(), null, 2)}\n` },
  ];
}

if (isMain(import.meta.url)) await writeGenerated(generate());
