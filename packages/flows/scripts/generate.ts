/**
 * Generate schemas/*.schema.json from the zod schemas in src/schema.ts (the one source of truth).
 * test/schema.test.ts regenerates them in memory and fails when the committed files are stale.
 * Run: `pnpm --filter @ratchet/flows generate`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { flowJsonSchema, sessionJsonSchema } from '../src/schema.js';

const at = (name: string): string => fileURLToPath(new URL(`../schemas/${name}`, import.meta.url));

export function generate(): { path: string; text: string }[] {
  return [
    { path: at('flow.schema.json'), text: `${JSON.stringify(flowJsonSchema(), null, 2)}\n` },
    { path: at('flow-session.schema.json'), text: `${JSON.stringify(sessionJsonSchema(), null, 2)}\n` },
  ];
}

async function main(): Promise<void> {
  for (const { path, text } of generate()) {
    const old = await readFile(path, 'utf8').catch(() => undefined);
    if (old === text) console.log(`unchanged ${path}`);
    else {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
      console.log(`wrote ${path}`);
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
