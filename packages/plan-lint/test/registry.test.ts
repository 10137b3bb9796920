import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonParseError, SchemaVersionError, StoreError, UnsafeInputError, ValidationError } from '@ratchet/store';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { deregisterPlan, listPlans, PLAN_REGISTRY_PATH, PlanRegistryError, readRegistry, registerPlan } from '../src/registry.js';

let root: string;
let registry: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'plan-registry-'));
  registry = join(root, PLAN_REGISTRY_PATH);
  mkdirSync(join(root, 'plans'), { recursive: true });
  mkdirSync(join(root, 'knowledge_core'), { recursive: true });
  writeFileSync(join(root, 'plans/deep.plan'), 'set_plan x\n');
  writeFileSync(join(root, 'plans/other.plan'), 'set_plan y\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return err instanceof PlanRegistryError ? err.code : String(err);
  }
  return 'resolved';
}

describe('plan registry', () => {
  test('register writes a versioned document with $schema; list reads it back', async () => {
    expect(await registerPlan(PLAN_REGISTRY_PATH, root, 'deep-research', 'plans/deep.plan')).toEqual({ name: 'deep-research', path: 'plans/deep.plan' });
    const doc = JSON.parse(readFileSync(registry, 'utf8')) as Record<string, unknown>;
    expect(doc).toEqual({ $schema: 'https://unpkg.com/@ratchet/plan-lint/schemas/plan-registry.schema.json', schemaVersion: 1, plans: { 'deep-research': 'plans/deep.plan' } });
    expect(await listPlans(PLAN_REGISTRY_PATH, root)).toEqual([{ name: 'deep-research', path: 'plans/deep.plan' }]);
  });

  test('absolute plan paths inside the root are stored project-relative', async () => {
    expect((await registerPlan(registry, root, 'abs', join(root, 'plans/deep.plan'))).path).toBe('plans/deep.plan');
  });

  test('duplicate names are refused unless force', async () => {
    await registerPlan(PLAN_REGISTRY_PATH, root, 'a', 'plans/deep.plan');
    expect(await code(registerPlan(PLAN_REGISTRY_PATH, root, 'a', 'plans/other.plan'))).toBe('duplicate-name');
    expect(await readRegistry(PLAN_REGISTRY_PATH, root)).toEqual({ a: 'plans/deep.plan' });
    await registerPlan(PLAN_REGISTRY_PATH, root, 'a', 'plans/other.plan', { force: true });
    expect(await readRegistry(PLAN_REGISTRY_PATH, root)).toEqual({ a: 'plans/other.plan' });
  });

  test('names, paths and files are checked', async () => {
    for (const name of ['__proto__', 'constructor', 'prototype', 'Upper', '-lead', '', 'a b']) {
      expect(await code(registerPlan(PLAN_REGISTRY_PATH, root, name, 'plans/deep.plan'))).toBe('invalid-name');
    }
    expect(await code(registerPlan(PLAN_REGISTRY_PATH, root, 'x', '../outside.plan'))).toBe('outside-root');
    expect(await code(registerPlan(PLAN_REGISTRY_PATH, root, 'x', '/etc/hosts'))).toBe('outside-root');
    expect(await code(registerPlan(PLAN_REGISTRY_PATH, root, 'x', 'plans/missing.plan'))).toBe('plan-not-found');
    expect(await code(registerPlan(PLAN_REGISTRY_PATH, root, 'x', 'plans'))).toBe('not-a-file');
  });

  test('a plan reached through a symbolic link that leads out of the project is refused', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'plan-registry-outside-'));
    try {
      writeFileSync(join(outside, 'evil.plan'), 'set_plan x\n');
      symlinkSync(join(outside, 'evil.plan'), join(root, 'plans/link.plan'));
      symlinkSync(outside, join(root, 'plans/linked-dir'));
      for (const p of ['plans/link.plan', 'plans/linked-dir/evil.plan']) {
        const err = (await registerPlan(PLAN_REGISTRY_PATH, root, 'x', p).catch((e: unknown) => e)) as PlanRegistryError;
        expect(err).toBeInstanceOf(PlanRegistryError);
        expect(err.code).toBe('outside-root');
        expect(err.message).toContain('symbolic link');
      }
      // A link that stays inside the project is fine.
      symlinkSync(join(root, 'plans/deep.plan'), join(root, 'plans/alias.plan'));
      expect((await registerPlan(PLAN_REGISTRY_PATH, root, 'alias', 'plans/alias.plan')).path).toBe('plans/alias.plan');
      expect(await readRegistry(PLAN_REGISTRY_PATH, root)).toEqual({ alias: 'plans/alias.plan' });
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('a file whose name starts with two dots is inside the project', async () => {
    writeFileSync(join(root, '..hidden.plan'), 'set_plan x\n');
    expect((await registerPlan(PLAN_REGISTRY_PATH, root, 'dots', '..hidden.plan')).path).toBe('..hidden.plan');
  });

  test('deregister removes the entry; unknown names are refused', async () => {
    await registerPlan(PLAN_REGISTRY_PATH, root, 'a', 'plans/deep.plan');
    await registerPlan(PLAN_REGISTRY_PATH, root, 'b', 'plans/other.plan');
    expect(await deregisterPlan(PLAN_REGISTRY_PATH, root, 'a')).toEqual({ name: 'a', path: 'plans/deep.plan' });
    expect(await listPlans(PLAN_REGISTRY_PATH, root)).toEqual([{ name: 'b', path: 'plans/other.plan' }]);
    expect(await code(deregisterPlan(PLAN_REGISTRY_PATH, root, 'a'))).toBe('unknown-name');
  });

  test('the first registration can create knowledge_core/ (store option)', async () => {
    rmSync(join(root, 'knowledge_core'), { recursive: true });
    await registerPlan(PLAN_REGISTRY_PATH, root, 'a', 'plans/deep.plan', { store: { createParentDirs: true } });
    expect(await readRegistry(PLAN_REGISTRY_PATH, root)).toEqual({ a: 'plans/deep.plan' });
  });

  test('a missing registry lists as empty', async () => {
    expect(await listPlans(PLAN_REGISTRY_PATH, root)).toEqual([]);
  });

  test('a legacy flat map is read, and migrated by the next update', async () => {
    writeFileSync(registry, '{"deep-research": "plans/deep_research.txt"}\n');
    expect(await listPlans(PLAN_REGISTRY_PATH, root)).toEqual([{ name: 'deep-research', path: 'plans/deep_research.txt' }]);
    await registerPlan(PLAN_REGISTRY_PATH, root, 'other', 'plans/other.plan');
    expect(JSON.parse(readFileSync(registry, 'utf8'))).toEqual({
      $schema: 'https://unpkg.com/@ratchet/plan-lint/schemas/plan-registry.schema.json',
      schemaVersion: 1,
      plans: { 'deep-research': 'plans/deep_research.txt', other: 'plans/other.plan' },
    });
  });

  test.each([
    ['does not parse', '{"plans": {"a": "x",}\n', JsonParseError],
    ['has a __proto__ key', '{"schemaVersion": 1, "plans": {"__proto__": "x"}}\n', UnsafeInputError],
    ['comes from the future', '{"schemaVersion": 2, "plans": {}}\n', SchemaVersionError],
    ['is an invalid legacy map', '{"a": 42}\n', ValidationError],
  ])('a registry that %s raises the store error and stays byte-for-byte untouched', async (_what, text, type) => {
    writeFileSync(registry, text);
    await expect(registerPlan(PLAN_REGISTRY_PATH, root, 'x', 'plans/deep.plan')).rejects.toBeInstanceOf(type);
    await expect(deregisterPlan(PLAN_REGISTRY_PATH, root, 'a')).rejects.toBeInstanceOf(type);
    await expect(listPlans(PLAN_REGISTRY_PATH, root)).rejects.toBeInstanceOf(StoreError);
    expect(readFileSync(registry, 'utf8')).toBe(text);
  });

  test('an invalid legacy entry is placed at its line and column', async () => {
    writeFileSync(registry, '{\n  "ok": "plans/a.plan",\n  "Bad Name": "plans/b.plan"\n}\n');
    const err = (await listPlans(PLAN_REGISTRY_PATH, root).catch((e: unknown) => e)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues[0]).toMatchObject({ pointer: '/Bad Name', line: 3 });
  });

  test('a parse error names the file and its place', async () => {
    writeFileSync(registry, '{\n  "plans": {"a": "x",}\n}\n');
    const err = (await registerPlan(PLAN_REGISTRY_PATH, root, 'x', 'plans/deep.plan').catch((e: unknown) => e)) as JsonParseError;
    expect(err).toBeInstanceOf(JsonParseError);
    expect(err.path).toBe(registry);
    expect(err.line).toBe(2);
  });
});
