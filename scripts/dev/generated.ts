/**
 * Shared by every package's scripts/generate.ts (repo-internal, never published): write generated
 * files (JSON Schemas, precompiled validators, embedded data) only when their text changed, and
 * tell whether a script was run directly (as opposed to imported by a staleness test).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

export interface GeneratedFile {
  /** Absolute path. */
  path: string;
  text: string;
}

/** Write each file whose content differs, printing `wrote` or `unchanged` per file. */
export async function writeGenerated(files: readonly GeneratedFile[]): Promise<void> {
  for (const { path, text } of files) {
    const old = await readFile(path, 'utf8').catch(() => undefined);
    if (old === text) console.log(`unchanged ${path}`);
    else {
      await writeFile(path, text);
      console.log(`wrote ${path}`);
    }
  }
}

/** True when the module with this `import.meta.url` is the script node was started with. */
export function isMain(moduleUrl: string): boolean {
  return process.argv[1] !== undefined && moduleUrl === pathToFileURL(process.argv[1]).href;
}
