// What the per-call hook files (dist/hooks/<event>.js) carry, by source module, largest first.
// Every byte of them is read and parsed at each tool call's start, so this is where a start-up
// regression shows first. Usage: node scripts/hook-bundle-report.mjs [event] [rows]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'hooks');
const meta = JSON.parse(readFileSync(join(dist, 'meta.json'), 'utf8'));
const [only, rows = '30'] = process.argv.slice(2);
for (const [file, out] of Object.entries(meta.outputs)) {
  if (!file.endsWith('.js') || (only !== undefined && !file.endsWith(`/${only}.js`))) continue;
  console.log(`${file}: ${(out.bytes / 1024).toFixed(1)} KB`);
  const inputs = Object.entries(out.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
  for (const [source, { bytesInOutput }] of inputs.slice(0, Number(rows))) console.log(`  ${String(bytesInOutput).padStart(7)}  ${source.replace(/^(\.\.\/)+/, '')}`);
}
