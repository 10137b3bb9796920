/**
 * Finding flows by name: `<dir>/<name>.flow.json|.yaml|.yml` in a list of directories, first match
 * wins (the CLI passes the project's protocols/flows/ first, then the bundled copy).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FlowError } from './errors.js';
import { FLOW_ID } from './validate-flow.js';

export const FLOW_EXTENSIONS = ['.flow.json', '.flow.yaml', '.flow.yml'] as const;

export interface FlowFile {
  name: string;
  path: string;
  /** Index of the directory it was found in. */
  source: number;
}

export function findFlowFile(dirs: readonly string[], name: string): FlowFile {
  if (!FLOW_ID.test(name)) throw new FlowError('unknown-flow', `flow name ${JSON.stringify(name)} must use lowercase letters, digits and "-" (or pass a file path)`);
  for (const [source, dir] of dirs.entries()) {
    for (const ext of FLOW_EXTENSIONS) {
      const path = join(dir, `${name}${ext}`);
      if (existsSync(path)) return { name, path, source };
    }
  }
  throw new FlowError('unknown-flow', `no flow named "${name}" in ${dirs.join(', ')}`);
}

/** Every flow file by name (a name found in an earlier directory hides later ones), sorted. */
export function listFlowFiles(dirs: readonly string[]): FlowFile[] {
  const found = new Map<string, FlowFile>();
  for (const [source, dir] of dirs.entries()) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const file of names.sort()) {
      const ext = FLOW_EXTENSIONS.find((e) => file.endsWith(e));
      if (ext === undefined) continue;
      const name = file.slice(0, -ext.length);
      if (FLOW_ID.test(name) && !found.has(name)) found.set(name, { name, path: join(dir, file), source });
    }
  }
  return [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
