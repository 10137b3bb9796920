/** Frontal Cortex's own action_types.yaml (its v0.1 envelope) read as the action-type registry. */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RegistryError, canTransition, readRegistryFile, unwrapRegistryEnvelope } from '../src/index.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/frontal-cortex/action_types.yaml', import.meta.url));

describe('the Frontal Cortex envelope {version, registry, schema, items}', () => {
  it('is read as the registry its items make', async () => {
    const registry = await readRegistryFile(FIXTURE);
    expect([...registry.types.keys()]).toEqual(['user_task', 'agent_task']);
    const user = registry.types.get('user_task')!;
    expect(canTransition(user, 'open', 'awaiting_confirmation')).toBe(true);
    expect(canTransition(user, 'open', 'done')).toBe(false);
    expect(registry.format).toBe('yaml');
  });

  it('a problem in an item is placed at its line in the file as written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-fc-'));
    const path = join(dir, 'action_types.yaml');
    writeFileSync(path, readFileSync(FIXTURE, 'utf8').replace('      open: [done, cancelled]', '      open: [done, finished]'));
    const err = await readRegistryFile(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryError);
    expect((err as RegistryError).message).toContain('transition to "finished"');
    expect((err as RegistryError).line).toBe(35);
  });

  it('a broken YAML file is an error with its line; the envelope is only recognised with its keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-fc-'));
    const path = join(dir, 'action_types.yaml');
    copyFileSync(FIXTURE, path);
    writeFileSync(path, readFileSync(FIXTURE, 'utf8').replace('allowed_owners: [agent]', 'allowed_owners: [agent'));
    const err = await readRegistryFile(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryError);
    expect((err as RegistryError).line).toBeGreaterThanOrEqual(28);
    expect(unwrapRegistryEnvelope({ items: [] }).isEnvelope).toBe(false);
    expect(unwrapRegistryEnvelope({ version: '0.1', items: [], action_types: [] }).isEnvelope).toBe(false);
    expect(unwrapRegistryEnvelope({ version: '0.1', items: [] }).pointer('/action_types/0/id')).toBe('/items/0/id');
  });
});
