/**
 * Listing keys on the file backend: a walk of the directory the prefix names, keeping files a
 * predicate accepts. Symbolic links are not followed (a listing never leaves the root), and
 * `.git` and `node_modules` are skipped.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { assertPrefix } from '../port/keys.js';
import type { FileContext } from './context.js';

const SKIPPED_DIRS = new Set(['.git', 'node_modules']);

/** Keys (sorted) of regular files under `prefix` for which `accept(key, name, names in its directory)` holds. */
export function listKeys(ctx: FileContext, prefix: string, accept: (key: string, name: string, siblings: ReadonlySet<string>) => boolean, skipDirs: readonly string[] = []): string[] {
  assertPrefix(ctx.location, prefix);
  const slash = prefix.lastIndexOf('/');
  const startRel = slash < 0 ? '' : prefix.slice(0, slash);
  const keys: string[] = [];
  const visit = (rel: string): void => {
    let entries;
    try {
      entries = readdirSync(rel === '' ? ctx.root : join(ctx.root, rel), { withFileTypes: true });
    } catch {
      return; // missing or unreadable: nothing stored there
    }
    const names = new Set(entries.map((e) => e.name));
    for (const entry of entries) {
      const key = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name) || skipDirs.includes(key)) continue;
        // Only descend where keys with the prefix can be.
        if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) visit(key);
      } else if (entry.isFile() && key.startsWith(prefix) && accept(key, entry.name, names)) {
        keys.push(key);
      }
    }
  };
  visit(startRel);
  return keys.sort();
}
