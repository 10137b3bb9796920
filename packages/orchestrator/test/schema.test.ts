import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { importGraph, packageImports } from '../../../scripts/dev/import-graph.js';
import { generate } from '../scripts/generate.js';
import { activityEntryValidator, agentMetaProblem, sessionValidator } from '../src/index.js';
import { ActivityEntrySchema, AgentMetaSchema, SessionSchema } from '../src/schema.js';

const src = fileURLToPath(new URL('../src/', import.meta.url));

describe('schemas', () => {
  test('schemas/*.schema.json and src/generated/definition.ts are up to date with their sources', () => {
    for (const { path, text } of generate()) expect(readFileSync(path, 'utf8'), `stale ${path}: run \`pnpm --filter @ratchet/orchestrator generate\``).toBe(text);
  });

  test('the main entry never loads zod, directly or through its imports', () => {
    const graph = importGraph(join(src, 'index.ts'));
    expect(packageImports(graph)).toEqual(['@ratchet/fsm-core', '@ratchet/plan-lint', '@ratchet/store']);
    // Orientation's L2 review is the caller's function (the CLI loads self-correction for it): no package is loaded lazily either.
    expect([...graph.lazyImports].filter((s) => !s.startsWith('node:'))).toEqual([]);
  });
});

// The hand-written validators keep zod off the CLI's hot path; they must agree with the zod schemas.
// Mostly valid values with the occasional violation, so most samples are near the boundary.
const str = fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 12, arbitrary: fc.string({ minLength: 1, maxLength: 6 }) });
const junk = fc.oneof(fc.constant(null), fc.integer(), fc.boolean(), str, fc.constant([]), fc.constant({}));
const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined, freq: 2 });
const orJunk = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ weight: 30, arbitrary: arb }, { weight: 1, arbitrary: junk });
const strip = (o: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const record = <T extends Record<string, fc.Arbitrary<unknown>>>(shape: T, extra = false): fc.Arbitrary<unknown> =>
  fc.record(shape).map((o) => ({ ...strip(o as Record<string, unknown>), ...(extra ? { surprise: 1 } : {}) }));

const frame = record({ planPath: orJunk(str), steps: orJunk(fc.array(orJunk(str), { maxLength: 3 })), current: orJunk(fc.integer({ min: -2, max: 5 })) });
const history = record({ at: orJunk(str), from: orJunk(str), trigger: orJunk(str), to: orJunk(str), message: maybe(orJunk(str)) });
const session = fc.integer({ min: 0, max: 19 }).map((n) => n === 0).chain((extra) =>
  record(
    {
      taskId: orJunk(str),
      sessionId: maybe(orJunk(str)),
      state: orJunk(str),
      stack: orJunk(fc.array(frame, { maxLength: 2 })),
      history: orJunk(fc.array(history, { maxLength: 2 })),
      createdAt: orJunk(str),
      updatedAt: orJunk(str),
      research: maybe(orJunk(record({ topic: orJunk(str), planPath: orJunk(str), startedAt: orJunk(str), reportPath: maybe(orJunk(str)) }))),
      postMortem: maybe(
        orJunk(record({ path: orJunk(str), templateSha256: fc.oneof({ weight: 8, arbitrary: fc.constant('a'.repeat(64)) }, { weight: 1, arbitrary: str }), outcome: fc.constantFrom('SUCCESS', 'FAILURE', 'SUCCESS', 'FAILURE', 'MAYBE') })),
      ),
      registry: maybe(orJunk(str)),
      expansion: maybe(orJunk(fc.dictionary(fc.constantFrom('', '0', '3/1'), orJunk(record({ plan: orJunk(str), loops: orJunk(fc.array(orJunk(fc.array(orJunk(str), { maxLength: 2 })), { maxLength: 2 })) }))))),
    },
    extra,
  ),
);
const entry = record({
  log_id: orJunk(str),
  session_id: orJunk(str),
  timestamp: orJunk(str),
  phase: orJunk(str),
  task: orJunk(record({ id: orJunk(str), plan_step: fc.oneof(fc.constant(null), fc.integer({ min: -1, max: 3 }), str) })),
  action: orJunk(record({ type: orJunk(str), details: fc.oneof(fc.constant({ a: 1 }), junk) })),
  outcome: orJunk(record({ status: fc.constantFrom('SUCCESS', 'FAILURE', 'INFO', 'OK'), message: orJunk(str) })),
});

describe('hand-written validators agree with the zod schemas', () => {
  test('session', () => {
    fc.assert(fc.property(session, (v) => sessionValidator.safeParse(v).success === SessionSchema.safeParse(v).success), { numRuns: 3000 });
  });
  test('activity entry', () => {
    fc.assert(fc.property(entry, (v) => activityEntryValidator.safeParse(v).success === ActivityEntrySchema.safeParse(v).success), { numRuns: 3000 });
  });
  test('agent meta', () => {
    const meta = fc.record({
      name: maybe(orJunk(str)),
      version: maybe(orJunk(str)),
      capabilities: maybe(orJunk(fc.array(orJunk(str), { maxLength: 3 }))),
      limitations: maybe(orJunk(fc.array(orJunk(str), { maxLength: 3 }))),
      other: maybe(junk),
    });
    fc.assert(
      fc.property(fc.oneof(meta.map(strip), junk), (v) => (agentMetaProblem(v) === undefined) === AgentMetaSchema.safeParse(v).success),
      { numRuns: 3000 },
    );
  });
  test('issues name the path of the problem', () => {
    const r = sessionValidator.safeParse({ taskId: 'T', state: 'S', stack: [{ planPath: 'p', steps: ['a', 3], current: 0 }], history: [], createdAt: 'x', updatedAt: 'x', extra: 1 });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues.map((i) => i.path)).toEqual([['stack', 0, 'steps', 1], ['extra']]);
  });
});
