import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { importGraph } from '../../../scripts/dev/import-graph.js';
import { generate, SCHEMA_PATH, VALIDATOR_PATH } from '../scripts/generate.js';
import { check, type DefinitionDocument, type ListDefinitionDocument, type MapDefinitionDocument } from '../src/index.js';
import { FsmDefinitionSchema, type FsmDefinitionInput, type ListDefinitionSchema, type MapDefinitionSchema } from '../src/schema.js';
import { fdcList, fdcMap } from './fixtures.js';

const src = fileURLToPath(new URL('../src/', import.meta.url));

describe('generated artefacts', () => {
  test('schemas/fsm-definition.schema.json and src/generated/ are up to date with src/schema.ts', () => {
    const fresh = generate();
    const hint = 'stale: run `pnpm --filter @ratchet/fsm-core generate` and commit the result';
    expect(readFileSync(SCHEMA_PATH, 'utf8'), hint).toBe(fresh.schemaJson);
    expect(readFileSync(VALIDATOR_PATH, 'utf8'), hint).toBe(fresh.validatorSource);
  });

  test('the precompiled validator imports nothing (no ajv at run time)', () => {
    const code = readFileSync(VALIDATOR_PATH, 'utf8');
    expect(code).not.toMatch(/^\s*import\s/m);
    expect(code).not.toMatch(/\brequire\s*\(/);
    expect(code.startsWith('// @ts-nocheck\n')).toBe(true);
  });

  test('the main entry never loads zod or ajv, directly or through its imports', () => {
    const graph = importGraph(join(src, 'index.ts'));
    expect(graph.files.size).toBeGreaterThan(10);
    expect(graph.files.has(join(src, 'schema.ts'))).toBe(false);
    expect([...graph.staticImports]).toEqual([]);
    expect([...graph.lazyImports]).toEqual([]);
  });

  test('the JSON Schema names itself and both shapes', () => {
    const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe('https://unpkg.com/@ratchet/fsm-core/schemas/fsm-definition.schema.json');
    expect(Object.keys(schema.$defs as object).sort()).toEqual(['ListDefinition', 'ListTransition', 'MapDefinition', 'StateDeclaration']);
  });
});

describe('the zod schema and the precompiled validator agree', () => {
  const docs: [string, unknown][] = [
    ['fdc map', fdcMap()],
    ['fdc list', fdcList()],
    ['list without alphabet', { ...fdcList(), alphabet: undefined }],
    ['state objects', { ...fdcMap(), states: [{ name: 'IDLE', description: 'x' }, 'PLANNING', 'EXECUTING', 'POST_MORTEM', 'DONE'] }],
    ['unknown key', { ...fdcMap(), colour: 1 }],
    ['mixed shapes', { ...fdcMap(), initial_state: 'IDLE' }],
    ['empty symbol', { ...fdcMap(), alphabet: [''] }],
    ['bad version', { ...fdcMap(), schemaVersion: 2 }],
    ['string states', { ...fdcMap(), states: 'IDLE' }],
    ['state object without name', { ...fdcMap(), states: [{ description: 'x' }] }],
    ['list transition missing dest', { ...fdcList(), transitions: [{ source: 'IDLE', trigger: 'x' }] }],
    ['not an object', [1, 2]],
    ['null', null],
  ];
  test.each(docs)('%s', (_, raw) => {
    const doc: unknown = raw && typeof raw === 'object' ? JSON.parse(JSON.stringify(raw)) : raw;
    const zodOk = FsmDefinitionSchema.safeParse(doc).success;
    const validatorOk = !check(doc).some((d) => d.ruleId === 'schema');
    expect(validatorOk).toBe(zodOk);
  });

  // The document types are z.infer (output) types; a default or transform added to the schema would
  // make a file's input differ from them, which this catches.
  test('the document types are also exactly the zod input types', () => {
    expectTypeOf<FsmDefinitionInput>().toEqualTypeOf<DefinitionDocument>();
    expectTypeOf<ReturnType<typeof MapDefinitionSchema.parse>>().toEqualTypeOf<MapDefinitionDocument>();
    expectTypeOf<ReturnType<typeof ListDefinitionSchema.parse>>().toEqualTypeOf<ListDefinitionDocument>();
  });
});

describe('package exports', () => {
  test('the schema is a subpath export; the main entry does not re-export it', async () => {
    const sub = await import('@ratchet/fsm-core/schema');
    const main: Record<string, unknown> = await import('@ratchet/fsm-core');
    expect(sub.FsmDefinitionSchema).toBe(FsmDefinitionSchema);
    expect(Object.keys(main).filter((k) => /schema$/i.test(k) && k !== 'FSM_DEFINITION_SCHEMA_URL')).toEqual([]);
    expect(typeof main.loadDefinition).toBe('function');
  });
});
