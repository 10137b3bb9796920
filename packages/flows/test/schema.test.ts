import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, expectTypeOf, test } from 'vitest';
import type { z } from 'zod';
import { importGraph, packageImports } from '../../../scripts/dev/import-graph.js';
import { generate } from '../scripts/generate.js';
import { advanceFlow, checkFlow, ledgerSchema, loadFlowFile, openLedger, resumeFlow, sessionSchema, startFlow, type Flow, type Gate, type SessionState, type Step, type StepType } from '../src/index.js';
import { FlowSchema, LedgerDataSchema, SessionDataSchema, StepSchema, type GateSchema } from '../src/schema.js';
import { flowIn, REASONING, runner, SKILL, think, tmpProject, write, writeAgentMemory, writeTransition } from './support.js';

const src = fileURLToPath(new URL('../src/', import.meta.url));
const builtins = [REASONING, SKILL].map((p) => JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>);

/** Replace the value at a random path of a JSON value (or delete it). */
function mutate(value: unknown, path: (string | number)[], replacement: unknown, remove: boolean): unknown {
  if (path.length === 0) return replacement;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove && !Array.isArray(node)) delete node[last];
  else node[last] = replacement;
  return copy;
}

function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([k, v]) => paths(v, [...prefix, k]))];
}

describe('schemas', () => {
  test('schemas/*.schema.json are up to date with src/schema.ts', () => {
    for (const { path, text } of generate()) expect(readFileSync(path, 'utf8'), `stale ${path}: run \`pnpm --filter @ratchet/flows generate\``).toBe(text);
  });

  test('the built-in flows match the zod schema and the hand-written checker', () => {
    for (const flow of builtins) {
      expect(FlowSchema.safeParse(flow).success).toBe(true);
      expect(checkFlow(flow).problems).toEqual([]);
    }
  });

  test('a parsed flow is the schema\'s type with its defaults filled in: every key the checker builds is a schema key, and the defaulted ones are always there', () => {
    // One source: Flow, Step and Gate are derived from the schemas (types.ts), so a key added to a
    // schema is a key of the parsed type; the checker (validate-flow.ts) must then build only keys the schema knows.
    expectTypeOf<keyof Step>().toEqualTypeOf<keyof z.infer<typeof StepSchema>>();
    expectTypeOf<keyof Gate>().toEqualTypeOf<keyof z.infer<typeof GateSchema>>();
    expectTypeOf<Step['type']>().toEqualTypeOf<StepType>();
    expectTypeOf<Step['next']>().toEqualTypeOf<string | null>();
    expectTypeOf<Gate['minLength']>().toEqualTypeOf<number>();
    expectTypeOf<Flow['inputs'][string]['required']>().toEqualTypeOf<boolean>();
    const stepKeys = new Set(Object.keys(StepSchema.shape));
    const flowKeys = new Set(Object.keys(FlowSchema.shape));
    for (const file of builtins) {
      const flow = checkFlow(file).flow!;
      for (const key of Object.keys(flow)) expect(flowKeys, key).toContain(key);
      for (const step of flow.steps) {
        for (const key of Object.keys(step)) expect(stepKeys, `step ${step.id}: ${key}`).toContain(key);
        for (const key of ['type', 'next', 'iterationAgents', 'maxIterations', 'maxRemediation', 'requires', 'haltOnQuestions', 'branches', 'gates']) expect(step, `step ${step.id}`).toHaveProperty(key);
        for (const gate of step.gates) expect(Object.keys(gate).sort()).toEqual(['artifact', 'headings', 'minLength']);
      }
    }
  });

  test('property: whatever the zod schema refuses, the hand-written checker refuses too', () => {
    const json = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -5, max: 20 }), fc.constantFrom('', ' ', 'LINEAR', 'x', '{agent}', '../x', 'a.md', '4'), fc.constant([]), fc.constant({}), fc.constant(['x']));
    for (const flow of builtins) {
      const all = paths(flow).filter((p) => p.length > 0);
      fc.assert(
        fc.property(fc.constantFrom(...all), json, fc.boolean(), (path, replacement, remove) => {
          const mutated = mutate(flow, path, replacement, remove);
          if (!FlowSchema.safeParse(mutated).success) expect(checkFlow(mutated).problems.length, JSON.stringify({ path, replacement, remove })).toBeGreaterThan(0);
        }),
        { numRuns: 250 },
      );
    }
  });

  test('session files: runner output matches the zod schema; zod refusals are refused by the hand-written validator', async () => {
    const root = tmpProject();
    const flow = await loadFlowFile(REASONING);
    await startFlow(runner(root), { flow, ref: REASONING, sessionId: 's', inputs: { query: 'q' } });
    const state = (await think(runner(root), { sessionId: 's', notes: ['n'] })).session;
    expect(SessionDataSchema.safeParse(state).success).toBe(true);
    expect(sessionSchema.safeParse(state).success).toBe(true);
    const json = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -2, max: 3 }), fc.constantFrom('', 'x', 'HALTED', '../x'), fc.constant([]), fc.constant({}), fc.constant([1]));
    fc.assert(
      fc.property(fc.constantFrom(...paths(state).filter((p) => p.length > 0)), json, fc.boolean(), (path, replacement, remove) => {
        const mutated = mutate(state, path, replacement, remove) as SessionState;
        if (!SessionDataSchema.safeParse(mutated).success) expect(sessionSchema.safeParse(mutated).success, JSON.stringify({ path, replacement, remove })).toBe(false);
      }),
      { numRuns: 250 },
    );
  });

  test('session files through every new field and status (outputs, then, answers, verdicts, LEARNINGS_PENDING, FULLY_COMPLETE) match both validators', async () => {
    const root = tmpProject();
    const dir = tmpProject();
    const gate = { minLength: 10, headings: ['## Done'] };
    const flow = await flowIn(dir, {
      id: 'mini',
      title: 'Mini skill',
      kind: 'skill',
      agentGate: { artifact: 'mem/{task}-{role}.md', ...gate },
      transitionGate: { artifact: 'mem/{task}-{from}-{to}.md', ...gate },
      learningsGate: { artifact: 'mem/{task}-learnings.md', ...gate },
      steps: [
        { id: '0', title: 'Do', content: 'do.md', agent: 'doer-agent', haltOnQuestions: true, output: { minLength: 5 } },
        { id: '1', title: 'Check', type: 'REMEDIATION', content: 'check.md', agent: 'checker-agent', remediationTarget: '0' },
      ],
    });
    const opts = runner(root, { flows: () => ['mini', 'reasoning'] });
    const states: SessionState[] = [];
    const keep = (v: { session: SessionState }): void => void states.push(structuredClone(v.session));
    keep(await startFlow(opts, { flow, ref: flow.path, sessionId: 'm', inputs: { task: 'T' }, then: ['reasoning'] }));
    keep(await advanceFlow(opts, { sessionId: 'm', questions: ['Which part?'] }));
    keep(await resumeFlow(opts, { sessionId: 'm', actor: 'user', answers: ['All of it.'] }));
    write(root, 'mem/T-doer.md', '## Done\n\nThe work.\n');
    write(root, 'mem/T-0-1.md', '## Done\n\nHanded over.\n');
    keep(await advanceFlow(opts, { sessionId: 'm', output: 'What I did.' }));
    write(root, 'mem/T-checker.md', '## Done\n\nChecked.\nVerdict: PASS\n');
    keep(await advanceFlow(opts, { sessionId: 'm' }));
    write(root, 'mem/T-learnings.md', '## Done\n\nLearned.\n');
    keep(await advanceFlow(opts, { sessionId: 'm' }));
    expect(states.map((s) => s.status)).toEqual(['EXECUTING', 'HALTED', 'EXECUTING', 'EXECUTING', 'LEARNINGS_PENDING', 'FULLY_COMPLETE']);
    for (const state of states) {
      expect(SessionDataSchema.safeParse(state).success, state.status).toBe(true);
      expect(sessionSchema.safeParse(state).success, state.status).toBe(true);
    }
    // The richest one (verdicts, answers, then, outputs): whatever zod refuses, the hand-written validator refuses.
    const rich = states[4]!;
    const json = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -2, max: 3 }), fc.constantFrom('', 'x', 'PASS', 'Review', 'FULLY_COMPLETE'), fc.constant([]), fc.constant({}), fc.constant([1]));
    fc.assert(
      fc.property(fc.constantFrom(...paths(rich).filter((p) => p.length > 0)), json, fc.boolean(), (path, replacement, remove) => {
        const mutated = mutate(rich, path, replacement, remove) as SessionState;
        if (!SessionDataSchema.safeParse(mutated).success) expect(sessionSchema.safeParse(mutated).success, JSON.stringify({ path, replacement, remove })).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  test('the artifact ledger: what the runner writes matches the zod schema; zod refusals are refused by the hand-written validator', async () => {
    const root = tmpProject();
    const flow = await loadFlowFile(SKILL);
    await startFlow(runner(root), { flow, ref: SKILL, sessionId: 'k', inputs: { task: 'T' } });
    writeAgentMemory(root, 'T', 'clarification-agent');
    writeTransition(root, 'T', '0', '1');
    await advanceFlow(runner(root), { sessionId: 'k' });
    const ledger = await openLedger(root).read();
    expect(ledger.accepted).toHaveLength(2);
    expect(LedgerDataSchema.safeParse(ledger).success).toBe(true);
    const json = fc.oneof(fc.constant(null), fc.integer({ min: -1, max: 2 }), fc.constantFrom('', 'x'), fc.constant([]), fc.constant({}));
    fc.assert(
      fc.property(fc.constantFrom(...paths(ledger).filter((p) => p.length > 0)), json, fc.boolean(), (path, replacement, remove) => {
        const mutated = mutate(ledger, path, replacement, remove);
        if (!LedgerDataSchema.safeParse(mutated).success) expect(ledgerSchema.safeParse(mutated).success, JSON.stringify({ path, replacement, remove })).toBe(false);
      }),
      { numRuns: 150 },
    );
  });

  test('the main entry never loads zod (nor yaml, except lazily), directly or through its imports', () => {
    const graph = importGraph(join(src, 'index.ts'));
    expect(packageImports(graph)).toEqual(['@ratchet/fsm-core', '@ratchet/store']);
    expect([...graph.lazyImports]).toEqual(['yaml']);
    expect(graph.files.has(join(src, 'schema.ts'))).toBe(false);
  });
});
