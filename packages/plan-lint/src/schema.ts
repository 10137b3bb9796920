/**
 * The zod schemas (one source of truth per format) for the parsed plan form, dialect files and the
 * plan registry. `scripts/generate.ts` turns them into schemas/*.schema.json; a test fails when
 * those are stale. Import through `@ratchet/plan-lint/schema` only: the main entry never loads zod.
 */
import { z } from 'zod';
import { DIALECT_SCHEMA_URL, EFFECTS } from './dialect.js';
import { PLAN_NAME, PLAN_REGISTRY_SCHEMA_URL } from './registry-data.js';
import type { PlanNode } from './plan.js';

export const PLAN_SCHEMA_URL = 'https://unpkg.com/@ratchet/plan-lint/schemas/plan.schema.json';
export { PLAN_NAME, PLAN_REGISTRY_SCHEMA_URL };

interface Meta {
  id?: string;
  title?: string;
  description?: string;
}
/** A private registry (the global one would throw when source and dist are both loaded). */
export const planLintSchemaRegistry = z.registry<Meta>();
const d = <T extends z.ZodType>(schema: T, description: string): T => {
  planLintSchemaRegistry.add(schema, { description });
  return schema;
};

const position = (what: string) => d(z.number().int().min(1), what);

export const CommandNodeSchema = z
  .strictObject({
    kind: z.literal('command'),
    name: d(z.string().min(1), 'The command name.'),
    args: d(z.array(z.string()), 'Arguments, split on whitespace.'),
    raw: d(z.string(), 'The rest of the line after the command name, trimmed.'),
    line: position('1-based line.'),
    column: position('1-based column of the command name.'),
    argsColumn: position('1-based column where the arguments start.'),
  })
  .register(planLintSchemaRegistry, { id: 'CommandNode' });

export const CallNodeSchema = z
  .strictObject({
    kind: z.literal('call_plan'),
    target: d(z.string().min(1), 'A registered plan name or a project-relative path.'),
    line: position('1-based line.'),
    column: position('1-based column.'),
    argsColumn: position('1-based column of the target.'),
  })
  .register(planLintSchemaRegistry, { id: 'CallNode' });

export const ForEachNodeSchema = z
  .strictObject({
    kind: z.literal('for_each_file'),
    glob: d(z.string().min(1), 'The glob, expanded against the simulated file system.'),
    line: position('1-based line.'),
    column: position('1-based column.'),
    argsColumn: position('1-based column of the glob.'),
    get body(): z.ZodArray<z.ZodType<PlanNode>> {
      return z.array(PlanNodeSchema);
    },
  })
  .register(planLintSchemaRegistry, { id: 'ForEachNode' });

export const PlanNodeSchema: z.ZodType<PlanNode> = z
  .discriminatedUnion('kind', [CommandNodeSchema, ForEachNodeSchema, CallNodeSchema])
  .register(planLintSchemaRegistry, { id: 'PlanNode' });

export const PlanSchema = z
  .strictObject({
    file: d(z.string().min(1), 'Project-relative path of the plan file.'),
    body: z.array(PlanNodeSchema),
    loopDepth: d(z.number().int().min(0), 'Deepest for_each_file nesting.'),
  })
  .register(planLintSchemaRegistry, { title: 'Ratchet parsed plan', description: 'The output of parsePlan: the plan as a tree.' });

const ActionFields = {
  symbol: d(z.string().min(1), 'The FSM symbol this command emits.'),
  effect: d(z.enum(EFFECTS), 'What the command does to the file named by `path`.').optional(),
  path: d(z.number().int().min(0), 'Index of the file argument.').optional(),
  to: d(z.number().int().min(0), 'For move: index of the destination argument.').optional(),
};

export const DialectWhenSchema = z
  .strictObject({
    argsMatch: d(z.string(), 'A regular expression tested against the raw arguments.'),
    usage: d(z.string().min(1), 'How a plan author writes a line this override matches (e.g. `ratchet task close --task-id <id>`): listed in AGENTS.md and named in findings instead of the pattern.').optional(),
    ...ActionFields,
  })
  .register(planLintSchemaRegistry, { id: 'DialectWhen' });

export const DialectCommandSchema = z
  .strictObject({
    ...ActionFields,
    description: d(z.string(), 'What the command does, for people: shown in the plan vocabulary that `ratchet protocol compile` writes into AGENTS.md.').optional(),
    when: d(z.array(DialectWhenSchema), 'Overrides by arguments; first match wins.').optional(),
    doneMessage: d(
      z.string().min(1),
      'What a step of this command leaves only in words (e.g. "the questions and the search keywords"): `ratchet run done` refuses the step without a `--message` that says it, and records it.',
    ).optional(),
  })
  .register(planLintSchemaRegistry, { id: 'DialectCommand' });

const COMMAND_NAME = /^(?!(?:for_each_file|call_plan|constructor|prototype)$)[A-Za-z_][A-Za-z0-9_.-]*$/;

export const DialectSchema = z
  .strictObject({
    $schema: d(z.string(), 'The JSON Schema of this file, for editors: https://unpkg.com/@ratchet/plan-lint/schemas/dialect.schema.json.').optional(),
    id: d(z.string().min(1), 'Dialect id.'),
    description: d(z.string(), 'What kind of plan this dialect is for, for people.').optional(),
    fsm: d(z.string().min(1), 'The FSM definition file, relative to this file.'),
    close: d(z.string().min(1), 'The symbol of the close command (the Closure Mandate).'),
    afterClose: d(z.array(z.string().min(1)), 'Symbols that may follow the close (e.g. submit_op): a plan may end with one of them; the FSM decides the order.').optional(),
    commands: d(z.record(z.string().regex(COMMAND_NAME), DialectCommandSchema), 'Command name -> what it emits and does.'),
  })
  .register(planLintSchemaRegistry, { title: 'Ratchet plan dialect', description: 'Maps plan commands to FSM symbols and file effects.' });

/** The registry document without its envelope (`$schema`, `schemaVersion`), as the store validates it. */
export const PlanRegistryDataSchema = z
  .strictObject({
    plans: d(z.record(z.string().regex(PLAN_NAME), z.string().min(1)), 'Logical plan name -> project-relative plan path.'),
  })
  .register(planLintSchemaRegistry, { title: 'Ratchet plan registry', description: 'knowledge_core/plan_registry.json' });


function toJson(schema: z.ZodType, id: string): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', metadata: planLintSchemaRegistry }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return { $schema, $id: id, ...rest };
}

export function planJsonSchema(): Record<string, unknown> {
  return toJson(PlanSchema, PLAN_SCHEMA_URL);
}

export function dialectJsonSchema(): Record<string, unknown> {
  return toJson(DialectSchema, DIALECT_SCHEMA_URL);
}

/** The file on disk: the envelope plus the data. */
export function planRegistryJsonSchema(): Record<string, unknown> {
  const file = z
    .strictObject({ $schema: z.string().optional(), schemaVersion: z.literal(1), ...PlanRegistryDataSchema.shape })
    .register(planLintSchemaRegistry, { title: 'Ratchet plan registry', description: 'knowledge_core/plan_registry.json' });
  return toJson(file, PLAN_REGISTRY_SCHEMA_URL);
}
