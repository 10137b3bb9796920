import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { generate } from '../scripts/generate.js';
import { configProblems } from '../src/hook/config.js';
import { HookMemorySchema, RatchetConfigSchema } from '../src/hook/config-schema.js';
import { hookMemorySchema } from '../src/hook/memory.js';

describe('hook schemas', () => {
  test('schemas/*.schema.json are up to date with src/hook/config-schema.ts', () => {
    for (const { path, text } of generate()) expect(readFileSync(path, 'utf8'), `stale ${path}: run \`pnpm --filter @ratchet/cli generate\``).toBe(text);
  });

  // Mostly valid values with the occasional violation, so most samples sit near the boundary.
  const junk = fc.oneof(fc.constant(null), fc.integer({ min: -5, max: 2000 }), fc.boolean(), fc.string({ maxLength: 4 }), fc.constant([]), fc.constant({}), fc.constant(''));
  const orJunk = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ weight: 12, arbitrary: arb }, { weight: 1, arbitrary: junk });
  const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined, freq: 3 });
  const strip = (o: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  const hooks = fc
    .record({
      strictness: maybe(orJunk(fc.constantFrom('off', 'warn', 'enforce'))),
      maxStopBlocks: maybe(orJunk(fc.integer({ min: 0, max: 1000 }))),
      reasoningFlow: maybe(orJunk(fc.oneof(fc.constant(false as const), fc.string({ minLength: 1, maxLength: 6 })))),
      bypassPrefix: maybe(orJunk(fc.string({ minLength: 1, maxLength: 3 }))),
      planningWrites: maybe(orJunk(fc.array(orJunk(fc.string({ minLength: 1, maxLength: 6 })), { maxLength: 3 }))),
      surprise: maybe(fc.constant(1)),
    })
    .map(strip);
  const store = fc
    .record({ url: maybe(orJunk(fc.constantFrom('file', 'postgres://u@db/x'))), project: maybe(orJunk(fc.string({ minLength: 1, maxLength: 4 }))), surprise: maybe(fc.constant(1)) })
    .map(strip);
  const config = fc.record({ $schema: maybe(orJunk(fc.string())), schemaVersion: maybe(orJunk(fc.constant(1))), hooks: maybe(orJunk(hooks)), store: maybe(orJunk(store)), extra: fc.option(fc.constant(true), { nil: undefined, freq: 20 }) }).map(strip);

  test('the config check the hooks run agrees with the zod schema', () => {
    fc.assert(
      fc.property(orJunk(config), (value) => {
        expect(configProblems(value).length === 0, JSON.stringify(value)).toBe(RatchetConfigSchema.safeParse(value).success);
      }),
      { numRuns: 2000 },
    );
  });

  const str = fc.string({ maxLength: 5 });
  const memory = fc
    .record({
      sessionId: orJunk(str),
      runners: orJunk(fc.array(orJunk(str), { maxLength: 3 })),
      jixoLocks: orJunk(fc.array(orJunk(fc.record({ log: orJunk(str), runner: orJunk(str) })), { maxLength: 2 })),
      flows: orJunk(fc.array(orJunk(str), { maxLength: 3 })),
      stopBlocks: orJunk(fc.integer({ min: -1, max: 5 })),
      lastBlock: orJunk(fc.option(str, { nil: null })),
    })
    .map((o) => o as Record<string, unknown>);

  test('the hook memory validator agrees with the zod schema', () => {
    // The store runs this validator on every read and write of a hook memory file.
    fc.assert(
      fc.property(memory, (value) => {
        expect(hookMemorySchema.safeParse(value).success, JSON.stringify(value)).toBe(HookMemorySchema.safeParse(value).success);
      }),
      { numRuns: 2000 },
    );
  });
});
