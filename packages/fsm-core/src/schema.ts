/**
 * The ONE source of truth for the FSM definition format: a zod 4 schema. `scripts/generate.ts`
 * turns it into the shipped JSON Schema and a precompiled validator, so the main entry never
 * loads zod. Import this module only through `@ratchet/fsm-core/schema`.
 *
 * Metadata lives in a private registry, not zod's global one: ids in a registry must be unique,
 * and the global registry would throw if this module were loaded twice (source and dist).
 */
import { z } from 'zod';
import { FSM_DEFINITION_SCHEMA_URL } from './definition.js';

interface FsmSchemaMeta {
  id?: string;
  title?: string;
  description?: string;
}

export const fsmSchemaRegistry = z.registry<FsmSchemaMeta>();

function describe<T extends z.ZodType>(schema: T, description: string): T {
  fsmSchemaRegistry.add(schema, { description });
  return schema;
}

const name = (description: string) => describe(z.string().min(1), description);
const ref = (description: string) => describe(z.string(), description);

export const StateDeclarationSchema = z
  .union([
    name('A state name.'),
    z.strictObject({
      name: name('The state name.'),
      description: describe(z.string(), 'What being in this state means.').optional(),
    }),
  ])
  .register(fsmSchemaRegistry, { id: 'StateDeclaration', description: 'A state: its name, or {name, description}.' });

const common = {
  $schema: describe(z.string(), 'Path or URL of this JSON Schema, for editors.').optional(),
  id: name('Machine id; runs refer to machines by it.').optional(),
  description: describe(z.string(), 'What the machine is for.').optional(),
  schemaVersion: describe(z.literal(1), 'Version of the definition format.').optional(),
  states: describe(z.array(StateDeclarationSchema), 'Every state of the machine.'),
};

export const MapDefinitionSchema = z
  .strictObject({
    ...common,
    alphabet: describe(z.array(name('A symbol.')), 'Every input symbol, in display order.'),
    transitions: describe(
      z.record(z.string(), z.record(z.string(), ref('Target state.'))),
      'For each source state, a map from symbol to target state.',
    ),
    start_state: ref('The state a run starts in.'),
    accept_states: describe(z.array(ref('An accept state.')), 'States in which a run may end.'),
  })
  .register(fsmSchemaRegistry, { id: 'MapDefinition', title: 'Map-style FSM definition', description: 'transitions: {STATE: {symbol: STATE}}' });

export const ListTransitionSchema = z
  .strictObject({
    source: ref('Source state.'),
    dest: ref('Target state.'),
    trigger: name('The symbol that fires this transition.'),
  })
  .register(fsmSchemaRegistry, { id: 'ListTransition' });

export const ListDefinitionSchema = z
  .strictObject({
    ...common,
    alphabet: describe(z.array(name('A symbol.')), 'Every input symbol; derived from the triggers when omitted.').optional(),
    transitions: describe(z.array(ListTransitionSchema), 'The transitions, one object each.'),
    initial_state: ref('The state a run starts in.'),
    final_states: describe(z.array(ref('An accept state.')), 'States in which a run may end.'),
  })
  .register(fsmSchemaRegistry, { id: 'ListDefinition', title: 'List-style FSM definition', description: 'transitions: [{source, dest, trigger}]' });

export const FsmDefinitionSchema = z.union([MapDefinitionSchema, ListDefinitionSchema]).register(fsmSchemaRegistry, {
  title: 'Ratchet FSM definition',
  description: 'A finite state machine for @ratchet/fsm-core, in map style (start_state, accept_states) or list style (initial_state, final_states).',
});

export type FsmDefinitionInput = z.input<typeof FsmDefinitionSchema>;

/** The JSON Schema (draft 2020-12) generated from the zod schema; what `schemas/` ships. */
export function fsmDefinitionJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(FsmDefinitionSchema, { target: 'draft-2020-12', metadata: fsmSchemaRegistry }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  // $id first so editors and ajv see where it lives; the rest keeps zod's order.
  return { $schema, $id: FSM_DEFINITION_SCHEMA_URL, ...rest };
}
