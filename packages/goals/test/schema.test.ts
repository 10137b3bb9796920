import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { importGraph } from '../../../scripts/dev/import-graph.js';
import { generate, VALIDATORS_PATH } from '../scripts/generate.js';
import { checkCommit, checkProposal, checkRegistry, defaultRegistryDocument, emptyState, goalsDocument, type ActionType, type Goal, type GoalsState, type Observation, type PendingAction, type PlanRun, type Question, type RegistryProposal, type Story } from '../src/index.js';
import { ActionTypeRegistrySchema, GoalsStateSchema, ProposalInputSchema, TurnCommitSchema } from '../src/schema.js';
import type { ActionTypeSchema, GoalSchema, ObservationSchema, PlanRunSchema, PendingActionSchema, QuestionSchema, RegistryProposalSchema, StorySchema } from '../src/schema.js';
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

  test('the main entry never loads zod, ajv or yaml eagerly (yaml and diff only through dynamic imports: YAML registries, proposal patches)', () => {
    const graph = importGraph(join(src, 'index.ts'));
    expect(graph.files.has(join(src, 'schema.ts'))).toBe(false);
    expect([...graph.staticImports].sort()).toEqual(['@ratchet/campaign-dag', '@ratchet/fsm-core', '@ratchet/store', 'node:crypto', 'node:fs/promises', 'node:path']);
    expect([...graph.lazyImports].sort()).toEqual(['diff', 'yaml']);
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

describe('the models and the input files', () => {
  test("each of the seed's models is a named definition in the shipped JSON Schemas", () => {
    const defs = (name: string): string[] => Object.keys((JSON.parse(readFileSync(join(repo, 'packages/goals/schemas', name), 'utf8')) as { $defs: object }).$defs);
    expect(defs('goals-state.schema.json')).toEqual(expect.arrayContaining(['Goal', 'PendingAction', 'Question', 'Story', 'RegistryProposal']));
    expect(defs('action-types.schema.json')).toEqual(expect.arrayContaining(['ActionType']));
    expect(defs('turn-commit.schema.json')).toEqual(['TurnCommit']);
    expect(defs('proposal.schema.json')).toEqual(['ProposalInput']);
  });

  test('the example commit and proposal files validate, by zod and by the precompiled validators', () => {
    const commit: unknown = JSON.parse(readFileSync(join(repo, 'examples/goals/turn-1.json'), 'utf8'));
    const proposal: unknown = JSON.parse(readFileSync(join(repo, 'examples/goals/code-review.proposal.json'), 'utf8'));
    expect(TurnCommitSchema.safeParse(commit).success).toBe(true);
    expect(() => checkCommit(commit)).not.toThrow();
    expect(ProposalInputSchema.safeParse(proposal).success).toBe(true);
    expect(() => checkProposal(proposal)).not.toThrow();
  });

  const commits: [string, unknown][] = [
    ['minimal', { turn_id: 't' }],
    ['no turn id', {}],
    ['unknown key', { turn_id: 't', complete_actions: [] }],
    ['ids and objects', { turn_id: 't', completed_actions: ['a1', { id: 'a2', status: 'done', metadata: { choice: 'x' } }] }],
    ['a number as an action', { turn_id: 't', completed_actions: [7] }],
    ['negative version', { turn_id: 't', expected_version: -1 }],
    ['progress above 1', { turn_id: 't', progress: [{ goal_id: 'g', progress: 1.5 }] }],
    ['an action without a title', { turn_id: 't', new_actions: [{ type: 'x' }] }],
    ['a full action', { turn_id: 't', new_actions: [{ type: 'x', title: 'y', owner: 'user', priority: 2, effort: 0.5, due_at: '2030-01-01T00:00:00Z', blocking: true, metadata: {} }] }],
    ['zero effort', { turn_id: 't', new_actions: [{ type: 'x', title: 'y', effort: 0 }] }],
    ['a story update', { turn_id: 't', story_updates: [{ question_id: 'q', acceptance_criteria: ['a'], evidence_refs: ['e'], status: 'active' }] }],
    ['an array', [1]],
  ];
  test.each(commits)('turn commit: %s', (_, value) => {
    const zodOk = TurnCommitSchema.safeParse(value).success;
    let ajvOk = true;
    try {
      checkCommit(value);
    } catch {
      ajvOk = false;
    }
    expect(ajvOk).toBe(zodOk);
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

  test('the model types are the zod output types exactly (derived in types.ts, never a hand-kept copy)', () => {
    expectTypeOf<Goal>().toEqualTypeOf<z.output<typeof GoalSchema>>();
    expectTypeOf<PendingAction>().toEqualTypeOf<z.output<typeof PendingActionSchema>>();
    expectTypeOf<Question>().toEqualTypeOf<z.output<typeof QuestionSchema>>();
    expectTypeOf<Story>().toEqualTypeOf<z.output<typeof StorySchema>>();
    expectTypeOf<RegistryProposal>().toEqualTypeOf<z.output<typeof RegistryProposalSchema>>();
    expectTypeOf<ActionType>().toEqualTypeOf<z.output<typeof ActionTypeSchema>>();
    expectTypeOf<GoalsState>().toEqualTypeOf<z.output<typeof GoalsStateSchema>>();
    expectTypeOf<PlanRun>().toEqualTypeOf<z.output<typeof PlanRunSchema>>();
    expectTypeOf<Observation>().toEqualTypeOf<z.output<typeof ObservationSchema>>();
  });
});
