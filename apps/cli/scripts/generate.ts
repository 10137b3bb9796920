/**
 * Generate the CLI's JSON Schemas: the config files' from their zod sources (src/hook/config-schema.ts),
 * the versioned --json outputs' from src/output/output-schemas.ts; and the Claude Code plugin's
 * hooks/hooks.json from the hook event table (src/hook/events.ts). test/hook-schema.test.ts regenerates in memory and fails when a committed file is stale.
 * Run: `pnpm --filter @ratchet/cli generate`.
 */
import { fileURLToPath } from 'node:url';
import { isMain, writeGenerated } from '../../../scripts/dev/generated.js';
import { pluginHooksJson } from '../src/claude-settings.js';
import { hookMemoryJsonSchema, ratchetConfigJsonSchema } from '../src/hook/config-schema.js';
import { outputSchemaFile, type OutputName } from '../src/output/json-output.js';
import { outputJsonSchemas } from '../src/output/output-schemas.js';
import { refusalEntryJsonSchema } from '../src/refusal-log-schema.js';

const at = (name: string): string => fileURLToPath(new URL(`../schemas/${name}`, import.meta.url));

export function generate(): { path: string; text: string }[] {
  return [
    { path: at('ratchet-config.schema.json'), text: `${JSON.stringify(ratchetConfigJsonSchema(), null, 2)}\n` },
    { path: at('hook-memory.schema.json'), text: `${JSON.stringify(hookMemoryJsonSchema(), null, 2)}\n` },
    { path: at('refusal-log-entry.schema.json'), text: `${JSON.stringify(refusalEntryJsonSchema(), null, 2)}\n` },
    // The versioned --json outputs (src/output/json-output.ts).
    // The plugin ships its hooks as a file; they are the table's events, like `init --claude`'s.
    { path: fileURLToPath(new URL('../../claude-plugin/hooks/hooks.json', import.meta.url)), text: `${JSON.stringify(pluginHooksJson(), null, 2)}\n` },
    ...Object.entries(outputJsonSchemas()).map(([name, schema]) => ({ path: at(`output/${outputSchemaFile(name as OutputName)}`), text: `${JSON.stringify(schema, null, 2)}\n` })),
  ];
}

if (isMain(import.meta.url)) await writeGenerated(generate());
