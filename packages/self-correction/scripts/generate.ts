/**
 * Generate schemas/lesson.schema.json from src/schema.ts (the one source of truth).
 * test/schema.test.ts regenerates it in memory and fails when the committed file is stale.
 * Run: `pnpm --filter @ratchet/self-correction generate`.
 */
import { fileURLToPath } from 'node:url';
import { isMain, writeGenerated } from '../../../scripts/dev/generated.js';
import { lessonJsonSchema } from '../src/schema.js';

const at = (name: string): string => fileURLToPath(new URL(`../schemas/${name}`, import.meta.url));

export function generate(): { path: string; text: string }[] {
  return [{ path: at('lesson.schema.json'), text: `${JSON.stringify(lessonJsonSchema(), null, 2)}\n` }];
}

if (isMain(import.meta.url)) await writeGenerated(generate());
