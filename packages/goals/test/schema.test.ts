import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { importGraph } from '../../../scripts/dev/import-graph.js';
import { generate, VALIDATORS_PATH } from '../scripts/generate.js';
import { checkRegistry, defaultRegistryDocument, emptyState, goalsDocument, type ActionType, type Goal, type GoalsState, type PendingAction, type Question, type RegistryProposal, type Story } from '../src/index.js';
import { ActionTypeRegistrySchema, GoalsStateSchema } from '../src/schema.js';
import type { ActionTypeSchema, GoalSchema, PendingActionSchema, QuestionSchema, RegistryProposalSchema, StorySchema } from '../src/schema.js';
import type { z } from 'zod';

const src = fileURLToPath(new URL('../src/', import.meta.url));
const repo = fileURLToPath(new URL('../../../', import.meta.url));

describe('generated artefacts', () => {
  test('schemas/*.schema.json and src/generated/ are up to date with src/schema.ts', () => {
    for (const { path, text } of generate()) expect(readFileSync(path, 'utf8'), `stale: run \`pnpm --filter @ratchet/goals generate\` (${path})`).toBe(text);
  });

  test('the precompiled validators import nothing', () => {
    const code = readFileSync(VALIDATORS_PATH, 'utf8');
    expect(code).not.toMatch(/^\s*import\s/m);
    expect(code).not.toMatch(/\brequire\s*\(/);
  });

  test('the main entry never loads zod, ajv or yaml eagerly (yaml only through a dynamic import for YAML registries)', () => {
    const graph = importGraph(join(src, 'index.ts'));
    expect(graph.files.has(join(src, 'schema.ts'))).toBe(false);
    expect([...graph.staticImports].sort()).toEqual(['@ratchet/fsm-core', '@ratchet/store', 'node:crypto']);
    expect([...graph.lazyImports]).toEqual(['yaml']);
  });

  test('the shipped protocols/action_types.json is the default registry, and valid', () => {
    const shipped: unknown = JSON.parse(readFileSync(join(repo, 'protocols', 'action_types.json'), 'utf8'));
    expect(shipped).toEqual(defaultRegistryDocument());
    expect(checkRegistry(shipped)).toEqual([]);
    expect(ActionTypeRegistrySchema.safeParse(shipped).success).toBe(true);
    expect((shipped as { action_types: ActionType[] }).action_types.map((t) => t.id)).toEqual([
      'agent_task', 'user_task', 'approval_request', 'reminder', 'follow_up', 'research', 'decision', 'background_job', 'blocker',
    ]);
  });
});

describe('zod and the precompiled validators agree', () => {
  const base = defaultRegistryDocument();
  const registries: [string, unknown][] = [
    ['default', base],
    ['unknown key', { ...base, colour: 1 }],
    ['bad owner', { action_types: [{ ...base.action_types[0], allowed_owners: ['robot'] }] }],
    ['no statuses', { action_types: [{ ...base.action_types[0], allowed_statuses: [] }] }],
    ['bad duration', { action_types: [{ ...base.action_types[0], default_policies: { escalation: { after: '24h' } } }] }],
    ['bad status name', { action_types: [{ ...base.action_types[0], allowed_statuses: ['has space'] }] }],
    ['not an object', [1]],
    ['null', null],
  ];
  test.each(registries)('registry: %s', (_, doc) => {
    const zodOk = ActionTypeRegistrySchema.safeParse(doc).success;
    const ajvOk = !checkRegistry(doc).some((i) => !i.message.includes('terminal') && !i.message.includes('twice'));
    expect(ajvOk).toBe(zodOk);
  });

  test('state: the empty state and a broken one', () => {
    expect(GoalsStateSchema.safeParse(emptyState()).success).toBe(true);
    expect(goalsDocument.schema.safeParse(emptyState()).success).toBe(true);
    const broken = { ...emptyState(), goals: [{ id: 'g1' }] };
    expect(GoalsStateSchema.safeParse(broken).success).toBe(false);
    expect(goalsDocument.schema.safeParse(broken).success).toBe(false);
  });

  test('the hand-written model types are the zod output types', () => {
    expectTypeOf<z.output<typeof GoalSchema>>().toMatchTypeOf<Goal>();
    expectTypeOf<z.output<typeof PendingActionSchema>>().toMatchTypeOf<PendingAction>();
    expectTypeOf<z.output<typeof QuestionSchema>>().toMatchTypeOf<Question>();
    expectTypeOf<z.output<typeof StorySchema>>().toMatchTypeOf<Story>();
    expectTypeOf<z.output<typeof RegistryProposalSchema>>().toMatchTypeOf<RegistryProposal>();
    expectTypeOf<z.output<typeof ActionTypeSchema>>().toMatchTypeOf<ActionType>();
    expectTypeOf<Goal>().toMatchTypeOf<z.output<typeof GoalSchema>>();
    expectTypeOf<PendingAction>().toMatchTypeOf<z.output<typeof PendingActionSchema>>();
    expectTypeOf<GoalsState>().toMatchTypeOf<z.output<typeof GoalsStateSchema>>();
  });
});
