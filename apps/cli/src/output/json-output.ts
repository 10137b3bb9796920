/**
 * The `--json` contract harnesses parse: every document the CLI prints with `--json` for the
 * commands below names its JSON Schema in `$schema`, a URL that carries the version
 * (`.../schemas/output/run-next.v1.schema.json`). Within a version fields are only added, never
 * removed, renamed or retyped; a breaking change gets a new version and a new URL, and the old
 * schema stays published. The schemas themselves are in output-schemas.ts (not loaded at run time).
 */

export const OUTPUT_SCHEMA_BASE = 'https://unpkg.com/@ratchet/cli/schemas/output/';

/** The commands whose `--json` output is versioned, with the version they print. */
export const OUTPUT_VERSIONS = {
  error: 1,
  'plan-lint': 1,
  // v2: `ok` is false (exit 1) when the state has no step to execute; v1 said true in every state.
  'run-next': 2,
  'run-status': 1,
  'task-transition': 1,
  'campaign-ready': 1,
  'campaign-status': 1,
  'memory-query': 1,
  'memory-explain': 1,
  'turn-assess': 1,
  'actions-update': 1,
  'flow-decline': 1,
  'turn-trace-show': 1,
  'turn-trace-replay': 1,
  import: 1,
  serve: 1,
} as const;

export type OutputName = keyof typeof OUTPUT_VERSIONS;

export function outputSchemaFile(name: OutputName): string {
  return `${name}.v${OUTPUT_VERSIONS[name]}.schema.json`;
}

export function outputSchemaUrl(name: OutputName): string {
  return `${OUTPUT_SCHEMA_BASE}${outputSchemaFile(name)}`;
}

/** `value` with `$schema` first, so a harness can dispatch on it before reading the rest. */
export function versioned<T extends object>(name: OutputName, value: T): { $schema: string } & T {
  return { $schema: outputSchemaUrl(name), ...value };
}
