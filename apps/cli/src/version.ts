import { readFileSync } from 'node:fs';

/** The CLI's own version, read once from its package.json (dist/ and src/ both sit one level below it). */
export function readVersion(): string {
  const raw = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(raw) as { version: string }).version;
}
