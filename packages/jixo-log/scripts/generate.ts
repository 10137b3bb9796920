/**
 * Generate schemas/*.schema.json from the zod schemas in src/schema.ts, and src/system-prompt.ts
 * from the shipped protocols/jixo-system-prompt.md. test/schema.test.ts fails when any is stale.
 * Run: `pnpm --filter @ratchet/jixo-log generate`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isMain, writeGenerated } from '../../../scripts/dev/generated.js';
import { jobJsonSchema, logJsonSchema } from '../src/schema.js';

const at = (rel: string): string => fileURLToPath(new URL(`../${rel}`, import.meta.url));

export function generate(): { path: string; text: string }[] {
  const prompt = readFileSync(at('../../protocols/jixo-system-prompt.md'), 'utf8');
  return [
    { path: at('schemas/jixo-log.schema.json'), text: `${JSON.stringify(logJsonSchema(), null, 2)}\n` },
    { path: at('schemas/jixo-job.schema.json'), text: `${JSON.stringify(jobJsonSchema(), null, 2)}\n` },
    {
      path: at('src/system-prompt.ts'),
      text: `// Generated from protocols/jixo-system-prompt.md by scripts/generate.ts: do not edit.\n/** The system prompt \`ratchet jixo run\` gives every agent (stdin). */\nexport const SYSTEM_PROMPT = ${JSON.stringify(prompt)};\n`,
    },
  ];
}

if (isMain(import.meta.url)) await writeGenerated(generate());
