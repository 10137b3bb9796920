/**
 * `protocols/compile.json`: the targets a project compiles its protocols into, so `ratchet protocol
 * compile`, `--check` and `lessons apply` all keep AGENTS.md, CLAUDE.md, ... in step without each
 * call repeating `--out`. Validated by hand (the CLI must not load zod at start-up); src/schema.ts
 * holds the zod schema the shipped JSON Schema is generated from, and a test keeps the two in step.
 */
import { join } from 'node:path';
import { NotFoundError, readJsonFile } from '@ratchet/store';
import type { z } from 'zod';
import { problemsError, type ProtocolProblem } from './errors.js';
import type { CompileConfigSchema } from './schema.js';

export const CONFIG_FILE = 'compile.json';

/**
 * The parsed compile.json: `targets`, files relative to the project root (where ratchet runs). The
 * type is derived from the zod schema (`import type`: this module must not load zod).
 */
export type CompileConfig = z.infer<typeof CompileConfigSchema>;

/**
 * Problems of a parsed config value, each with its JSON pointer; empty when it is valid. Targets
 * are project-relative: no absolute paths, no `..` (a file in the repository must not make Ratchet
 * write outside it).
 */
export function checkCompileConfig(value: unknown): { pointer: string; message: string }[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [{ pointer: '', message: 'must be an object like {"targets": ["AGENTS.md"]}' }];
  const problems: { pointer: string; message: string }[] = [];
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) if (key !== '$schema' && key !== 'targets') problems.push({ pointer: `/${key}`, message: `unknown property "${key}"` });
  if (record.$schema !== undefined && typeof record.$schema !== 'string') problems.push({ pointer: '/$schema', message: 'must be a string' });
  const targets = record.targets;
  if (!Array.isArray(targets) || targets.length === 0) {
    problems.push({ pointer: '/targets', message: 'must be a non-empty array of file paths' });
    return problems;
  }
  for (const [i, target] of targets.entries()) {
    const pointer = `/targets/${i}`;
    if (typeof target !== 'string' || target === '') problems.push({ pointer, message: 'must be a non-empty string' });
    else if (/^([a-zA-Z]:)?[\\/]/.test(target)) problems.push({ pointer, message: 'must be relative to the project root, not absolute' });
    else if (target.split(/[\\/]/).includes('..')) problems.push({ pointer, message: 'must not contain ".." segments' });
    else if (target.includes('\0')) problems.push({ pointer, message: 'must not contain a NUL byte' });
  }
  return problems;
}

/** Reads `<protocolsDir>/compile.json`; undefined when there is none. Every problem is reported with its place. */
export async function readCompileConfig(protocolsDir: string): Promise<CompileConfig | undefined> {
  const path = join(protocolsDir, CONFIG_FILE);
  let file: Awaited<ReturnType<typeof readJsonFile>>;
  try {
    file = await readJsonFile(path);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
  const issues = checkCompileConfig(file.value);
  if (issues.length > 0) {
    const problems: ProtocolProblem[] = issues.map((issue) => {
      const where = file.locate(issue.pointer);
      return { code: 'bad-config', file: path, ...issue, line: where?.line, column: where?.column };
    });
    throw problemsError(problems);
  }
  return { targets: (file.value as CompileConfig).targets };
}

