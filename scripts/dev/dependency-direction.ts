/**
 * The dependency direction between Ratchet's packages (DESIGN.md "Layout", CONTRIBUTING.md "Add a
 * package"), as data, and the check that holds package.json files and the import specifiers in
 * every package's `src/` to it. Repo-internal (tests/architecture/dependency-direction.test.ts).
 *
 * Every kind of import counts: static, `import type` (a type import still ties the packages'
 * versions and builds together), `export ... from`, and `import()`.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type * as TypeScript from 'typescript';

/**
 * Which of our packages each package may depend on. `fsm-core` and `store` are the base every
 * other package may use (store-postgres uses only the port it implements). Where two packages meet
 * otherwise, the CLI composes them: the package takes a plain value or a function parameter.
 */
export const ALLOWED_DEPENDENCIES: Readonly<Record<string, readonly string[]>> = {
  'fsm-core': [],
  store: [],
  'store-postgres': ['store'],
  'plan-lint': ['fsm-core', 'store'],
  orchestrator: ['fsm-core', 'store', 'plan-lint'],
  'protocol-compiler': ['fsm-core', 'store'],
  'self-correction': ['fsm-core', 'store', 'protocol-compiler'],
  'campaign-dag': ['fsm-core', 'store'],
  memory: ['fsm-core', 'store'],
  'jixo-log': ['fsm-core', 'store'],
  flows: ['fsm-core', 'store'],
  // A goal plan's waves are campaign graph waves.
  goals: ['fsm-core', 'store', 'campaign-dag'],
};

export interface DirectionProblem {
  /** Repository-relative file (a package.json or a source file). */
  file: string;
  message: string;
}

/** The package a specifier names, if it is one of ours: `@ratchet/store/regex-guard` -> `store`. */
function ourPackage(specifier: string): string | undefined {
  const m = /^@ratchet\/([^/]+)/.exec(specifier);
  return m?.[1];
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out.sort();
}

/** Every module specifier a source file names, type-only and dynamic imports included. */
export function specifiersOf(text: string): string[] {
  // TypeScript's own pre-processor: it skips comments and strings, and sees `import type` and `import()`.
  const ts = createRequire(import.meta.url)('typescript') as typeof TypeScript;
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

const APPS = new Set(['cli', 'mcp-server', 'claude-plugin']);

/** Every place the packages under `<root>/packages` break the allowed direction. */
export function directionProblems(root: string, allowed: Readonly<Record<string, readonly string[]>> = ALLOWED_DEPENDENCIES): DirectionProblem[] {
  const problems: DirectionProblem[] = [];
  const rel = (file: string): string => relative(root, file).split(sep).join('/');
  const packagesDir = join(root, 'packages');
  for (const name of readdirSync(packagesDir).sort()) {
    const dir = join(packagesDir, name);
    const manifestPath = join(dir, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const may = allowed[name];
    if (may === undefined) {
      problems.push({ file: rel(manifestPath), message: `package "${name}" has no place in the dependency direction (add it to ALLOWED_DEPENDENCIES and CONTRIBUTING.md)` });
      continue;
    }
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, Record<string, string> | undefined>;
    const declared = new Set<string>();
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']) {
      for (const dep of Object.keys(manifest[field] ?? {})) {
        const ours = ourPackage(dep);
        if (ours === undefined) continue;
        if (field !== 'devDependencies') declared.add(ours);
        if (APPS.has(ours)) problems.push({ file: rel(manifestPath), message: `${field} names ${dep}: nothing depends on an app` });
        else if (!may.includes(ours)) problems.push({ file: rel(manifestPath), message: `${field} names ${dep}, against the direction (${name} may use ${may.join(', ') || 'none of ours'})` });
      }
    }
    for (const file of sourceFiles(join(dir, 'src'))) {
      for (const spec of specifiersOf(readFileSync(file, 'utf8'))) {
        if (spec.startsWith('.')) {
          const target = resolve(dirname(file), spec);
          if (!target.startsWith(dir + sep)) problems.push({ file: rel(file), message: `imports ${spec}, outside its package: import the owning package by name` });
          continue;
        }
        const ours = ourPackage(spec);
        if (ours === undefined || ours === name) continue;
        if (APPS.has(ours)) problems.push({ file: rel(file), message: `imports ${spec}: nothing imports an app` });
        else if (!may.includes(ours)) problems.push({ file: rel(file), message: `imports ${spec}, against the direction (${name} may use ${may.join(', ') || 'none of ours'}); let the CLI compose the two` });
        else if (!declared.has(ours)) problems.push({ file: rel(file), message: `imports ${spec}, which package.json does not list in dependencies` });
      }
    }
  }
  return problems;
}

/** A cycle in the allowed table itself, as a path (`a -> b -> a`), or undefined. */
export function cycleIn(allowed: Readonly<Record<string, readonly string[]>>): string | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (name: string, path: string[]): string | undefined => {
    if (state.get(name) === 'done') return undefined;
    if (state.get(name) === 'open') return [...path, name].join(' -> ');
    state.set(name, 'open');
    for (const dep of allowed[name] ?? []) {
      const cycle = visit(dep, [...path, name]);
      if (cycle !== undefined) return cycle;
    }
    state.set(name, 'done');
    return undefined;
  };
  for (const name of Object.keys(allowed)) {
    const cycle = visit(name, []);
    if (cycle !== undefined) return cycle;
  }
  return undefined;
}
