/**
 * `loadDefinition`: the one call the CLI needs for a definition file it has parsed. Validate,
 * check, normalise and compile; the machine comes back only when there are no errors.
 */
import { analyzeDocument } from './check.js';
import type { Definition } from './definition.js';
import { hasErrors, type Diagnostic } from './diagnostics.js';
import { build, type Machine } from './machine.js';
import { toModel } from './normalize.js';

export interface LoadResult {
  /** Present only when `diagnostics` has no errors (warnings allowed). */
  machine?: Machine;
  definition?: Definition;
  /** Every problem, errors and warnings, in document order. */
  diagnostics: Diagnostic[];
}

export function loadDefinition(raw: unknown): LoadResult {
  const { model, diagnostics } = analyzeDocument(raw);
  if (hasErrors(diagnostics)) return { diagnostics };
  const definition = toModel(model);
  return { machine: build(definition), definition, diagnostics };
}
