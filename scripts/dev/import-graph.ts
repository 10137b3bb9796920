/**
 * Shared by the packages' "the main entry never loads zod" tests (repo-internal, never published):
 * follow a package's relative imports from its entry file and collect what it imports from outside.
 * Static imports load at start-up; `import('x')` loads on first use; `import type` loads nothing.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface ImportGraph {
  /** Source files reached through relative imports, the entry included. */
  files: Set<string>;
  /** Packages and node: builtins imported statically (loaded with the entry). */
  staticImports: Set<string>;
  /** Packages imported with `import()` (loaded only when that code runs). */
  lazyImports: Set<string>;
}

const IMPORT = /^\s*(?:import|export)\s(?!type\s)[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/gm;

export function importGraph(entry: string): ImportGraph {
  const graph: ImportGraph = { files: new Set(), staticImports: new Set(), lazyImports: new Set() };
  const visit = (file: string): void => {
    if (graph.files.has(file)) return;
    graph.files.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else if (m[2] !== undefined) graph.lazyImports.add(spec);
      else graph.staticImports.add(spec);
    }
  };
  visit(entry);
  return graph;
}

/** The static imports that are packages (node: builtins left out), sorted. */
export function packageImports(graph: ImportGraph): string[] {
  return [...graph.staticImports].filter((s) => !s.startsWith('node:')).sort();
}
