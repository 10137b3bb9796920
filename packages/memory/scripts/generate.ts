/**
 * Generate schemas/memory.schema.json from the zod schema in src/schema.ts (the one source of
 * truth). test/schema.test.ts regenerates it in memory and fails when the committed file is stale.
 * Run: `pnpm --filter @ratchet/memory generate`.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { memoryJsonSchema } from '../src/schema.js';

const at = (name: string): string => fileURLToPath(new URL(`../schemas/${name}`, import.meta.url));

export function generate(): { path: string; text: string }[] {
  return [{ path: at('memory.schema.json'), text: `${JSON.stringify(memoryJsonSchema(), null, 2)}\n` }];
}

async function main(): Promise<void> {
  await mkdir(fileURLToPath(new URL('../schemas/', import.meta.url)), { recursive: true });
  for (const { path, text } of generate()) {
    const old = await readFile(path, 'utf8').catch(() => undefined);
    if (old === text) console.log(`unchanged ${path}`);
    else {
      await writeFile(path, text);
      console.log(`wrote ${path}`);
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
