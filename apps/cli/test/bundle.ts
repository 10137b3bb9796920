/**
 * The built CLI bundle (dist/) as a graph, for tests that check what a command loads. Only chunks
 * reachable from dist/main.js count, so stale files left in dist/ (a cache replay) cannot confuse them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

const STATIC = /import(?:[\w\s{},$*]*?from)?\s*"\.\/([^"]+)"/g;
const DYNAMIC = /import\(\s*"\.\/([^"]+)"\s*\)/g;

function imports(chunk: string, pattern: RegExp): string[] {
  return [...readFileSync(join(DIST, chunk), 'utf8').matchAll(pattern)].map((m) => m[1]!);
}

function closure(start: string, patterns: RegExp[], stop: (chunk: string) => boolean = () => false): Set<string> {
  const seen = new Set<string>();
  const visit = (chunk: string): void => {
    if (seen.has(chunk) || stop(chunk)) return;
    seen.add(chunk);
    for (const p of patterns) imports(chunk, p).forEach(visit);
  };
  visit(start);
  return seen;
}

/** The source files (from the source map) bundled into a chunk. */
export function sourcesOf(chunk: string): string[] {
  return (JSON.parse(readFileSync(join(DIST, `${chunk}.map`), 'utf8')) as { sources: string[] }).sources;
}

/** Live chunks (reachable from main.js) built from a source file matching `source`. */
export function chunksOf(source: RegExp): string[] {
  return [...closure('main.js', [STATIC, DYNAMIC])].filter((chunk) => sourcesOf(chunk).some((s) => source.test(s)));
}

/** Everything `chunk` can ever load: it and its static and dynamic imports, transitively, not entering chunks `stop` names. */
export function reachableFrom(chunk: string, stop?: (chunk: string) => boolean): Set<string> {
  return closure(chunk, [STATIC, DYNAMIC], stop);
}

/** What loading `chunk` loads at once: it and its static imports, transitively. */
export function loadedWith(chunk: string): Set<string> {
  return closure(chunk, [STATIC]);
}
