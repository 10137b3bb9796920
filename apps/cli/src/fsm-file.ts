/**
 * Load an FSM definition file for a command: guarded read (size, binary, BOM, __proto__) and
 * line:column errors through @ratchet/store, then validation and checks through @ratchet/fsm-core.
 * Diagnostics keep their JSON pointer and gain the line and column it points at.
 * Imported only from command modules (themselves loaded lazily), so static imports here let the
 * bundler keep just what FSM commands use.
 */
import { loadDefinition, type Diagnostic, type Machine } from '@ratchet/fsm-core';
import { isYamlPath, readDataFileSync, readJsonFileSync, type JsonFile } from '@ratchet/store';
import type { Context } from './context.js';
import { CliError } from './errors.js';
import { EXIT_PROBLEMS } from './exit-codes.js';
import { displayPath, resolvePath } from './paths.js';

export interface PlacedDiagnostic extends Diagnostic {
  file: string;
  line?: number;
  column?: number;
}

export interface LoadedFsm {
  file: string;
  machine: Machine | undefined;
  diagnostics: PlacedDiagnostic[];
}

export function loadFsmFile(ctx: Context, path: string): LoadedFsm {
  const absolute = resolvePath(ctx, path);
  if (isYamlPath(absolute)) {
    throw new CliError('a YAML FSM definition is not read here yet; convert it to JSON', { file: absolute, code: 'yaml-not-supported' });
  }
  return placed(ctx, absolute, readJsonFileSync(absolute));
}

/**
 * `loadFsmFile` for JSON or YAML (`*.yaml`/`*.yml`, as the original Jules toolchain allowed): the
 * yaml parser is imported only when the file is YAML, so the JSON path costs what it did.
 */
export async function loadFsmFileAny(ctx: Context, path: string): Promise<LoadedFsm> {
  const absolute = resolvePath(ctx, path);
  if (!isYamlPath(absolute)) return placed(ctx, absolute, readJsonFileSync(absolute));
  return placed(ctx, absolute, await readDataFileSync(absolute));
}

function placed(ctx: Context, absolute: string, doc: Pick<JsonFile, 'value' | 'locate'>): LoadedFsm {
  const file = displayPath(ctx, absolute);
  const result = loadDefinition(doc.value);
  const diagnostics = result.diagnostics.map((d): PlacedDiagnostic => {
    const place = doc.locate(d.pointer);
    return place ? { ...d, file, line: place.line, column: place.column } : { ...d, file };
  });
  return { file, machine: result.machine, diagnostics };
}

/** The compiled machine, or exit 1 pointing at the definition's first error (run/render need a sound machine). */
export function requireMachine(loaded: LoadedFsm, path: string): Machine {
  if (loaded.machine) return loaded.machine;
  const first = loaded.diagnostics.find((d) => d.severity === 'error');
  throw new CliError(`the definition has errors (first: ${first?.message ?? 'unknown'}); run \`ratchet fsm check ${path}\``, {
    exitCode: EXIT_PROBLEMS,
    code: 'invalid-fsm',
    file: loaded.file,
    ...(first?.line !== undefined ? { line: first.line, column: first.column ?? 1 } : {}),
  });
}
