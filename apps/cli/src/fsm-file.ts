/**
 * Load an FSM definition file for a command: guarded read (size, binary, BOM, __proto__) and
 * line:column errors through @ratchet/store, then validation and checks through @ratchet/fsm-core.
 * Diagnostics keep their JSON pointer and gain the line and column it points at.
 * Imported only from command modules (themselves loaded lazily), so static imports here let the
 * bundler keep just what FSM commands use.
 */
import { loadDefinition, type Diagnostic, type Machine } from '@ratchet/fsm-core';
import { readJsonFileSync } from '@ratchet/store';
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
  const file = displayPath(ctx, absolute);
  const doc = readJsonFileSync(absolute);
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
