import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  RegistryError,
  canTransition,
  defaultRegistryDocument,
  deprecateActionType,
  listActionTypes,
  loadRegistry,
  nextStatuses,
  readRegistryFile,
  registerActionType,
  type ActionType,
} from '../src/index.js';
import { registry, tempDir } from './support.js';

const caught = async (p: Promise<unknown>): Promise<Error & Record<string, unknown>> => {
  try {
    await p;
  } catch (err) {
    return err as Error & Record<string, unknown>;
  }
  throw new Error('expected a rejection');
};

describe('the shipped registry', () => {
  test('nine active types; statuses and transitions enforced through the fsm-core machine', () => {
    expect(listActionTypes(registry)).toHaveLength(9);
    const userTask = registry.types.get('user_task')!;
    expect(userTask.initial).toBe('open');
    expect(canTransition(userTask, 'open', 'awaiting_confirmation')).toBe(true);
    expect(canTransition(userTask, 'open', 'done')).toBe(false);
    expect(canTransition(userTask, 'awaiting_confirmation', 'done')).toBe(true);
    expect(canTransition(userTask, 'nonsense', 'done')).toBe(false);
    expect(nextStatuses(userTask, 'awaiting_confirmation')).toEqual(['open', 'done', 'cancelled']);
    expect([...userTask.terminal]).toEqual(['done', 'cancelled']);
    expect(userTask.machine.states).toEqual(['open', 'awaiting_confirmation', 'done', 'cancelled']);
  });

  test('a loaded registry is immutable', () => {
    expect(() => registry.document.action_types.push(registry.document.action_types[0]!)).toThrow();
    expect(Object.isFrozen(registry.document.action_types[0]!.allowed_statuses)).toBe(true);
  });

  test('register, deprecate: pure, validated', () => {
    const doc = defaultRegistryDocument();
    const added = registerActionType(doc, { id: 'code_review', display_name: 'Code review', allowed_owners: ['agent'], default_policies: {}, allowed_statuses: ['open', 'done'], allowed_transitions: { open: ['done'] }, deprecation_status: 'active' });
    expect(added.action_types.map((t) => t.id)).toContain('code_review');
    expect(doc.action_types.map((t) => t.id)).not.toContain('code_review');
    const deprecated = deprecateActionType(added, 'code_review');
    expect(loadRegistry(deprecated).types.get('code_review')!.type.deprecation_status).toBe('deprecated');
    expect(listActionTypes(loadRegistry(deprecated), { includeDeprecated: false }).map((t) => t.id)).not.toContain('code_review');
    expect(() => registerActionType(doc, { id: 'loop', display_name: 'x', allowed_owners: ['agent'], default_policies: {}, allowed_statuses: ['a', 'b'], allowed_transitions: { a: ['b'], b: ['a'] }, deprecation_status: 'active' })).toThrow(/no terminal status/);
  });
});

describe('registry files that do not parse or validate: every problem, with file and place', () => {
  const dir = tempDir('registry-');
  const file = (name: string, text: string | Buffer): string => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  test('malformed JSON: the store parse error with line and column', async () => {
    const err = await caught(readRegistryFile(file('bad.json', '{\n  "action_types": [\n    {,\n  ]\n}\n')));
    expect(err.code).toBe('parse-error');
    expect(err.line).toBe(3);
    expect(err.path).toContain('bad.json');
  });

  test('truncated JSON', async () => {
    const text = JSON.stringify(defaultRegistryDocument(), null, 2);
    const err = await caught(readRegistryFile(file('trunc.json', text.slice(0, text.length / 2))));
    expect(err.code).toBe('parse-error');
    expect(typeof err.line).toBe('number');
  });

  test('semantic and structural problems all at once, each placed', async () => {
    const doc = defaultRegistryDocument();
    const t = doc.action_types[1]! as ActionType & { colour?: string };
    t.allowed_transitions = { open: ['awaiting_confirmation', 'nowhere'], ghost: ['done'], awaiting_confirmation: ['done'] };
    const text = JSON.stringify(doc, null, 2);
    const err = await caught(readRegistryFile(file('semantic.json', text)));
    expect(err).toBeInstanceOf(RegistryError);
    const issues = (err as unknown as RegistryError).issues;
    expect(issues.map((i) => i.pointer)).toEqual(['/action_types/1/allowed_transitions/open/1', '/action_types/1/allowed_transitions/ghost']);
    expect(issues[0]!.message).toContain('"nowhere"');
    const lines = text.split('\n');
    expect(lines[issues[0]!.line! - 1]).toContain('"nowhere"');
    expect(lines[issues[1]!.line! - 1]).toContain('"ghost"');
  });

  test('unknown property and wrong enum value, placed at the key', async () => {
    const doc = defaultRegistryDocument() as unknown as { action_types: Record<string, unknown>[] };
    doc.action_types[2]!.colour = 'red';
    doc.action_types[3]!.allowed_owners = ['robot'];
    const text = JSON.stringify(doc, null, 2);
    const err = (await caught(readRegistryFile(file('structure.json', text)))) as unknown as RegistryError;
    expect(err.issues.map((i) => i.pointer).sort()).toEqual(['/action_types/2/colour', '/action_types/3/allowed_owners/0']);
    expect(err.message).toMatch(/structure\.json: invalid action-type registry/);
    expect(text.split('\n')[err.issues.find((i) => i.pointer.endsWith('colour'))!.line! - 1]).toContain('"colour"');
  });

  test('hostile keys: __proto__ in JSON and in YAML are refused', async () => {
    const json = await caught(readRegistryFile(file('proto.json', '{"action_types": [], "__proto__": {"polluted": true}}')));
    expect(json.code).toBe('unsafe-input');
    const yaml = await caught(readRegistryFile(file('proto.yaml', 'action_types: []\n__proto__:\n  polluted: true\n')));
    expect(yaml.code).toBe('invalid-registry');
    expect(yaml.message).toContain('__proto__');
    expect(yaml.line).toBe(2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('YAML: a valid registry with CRLF and a BOM loads; a syntax error names the line', async () => {
    const { stringify } = await import('yaml');
    const text = `\uFEFF${stringify(defaultRegistryDocument()).replaceAll('\n', '\r\n')}`;
    const ok = await readRegistryFile(file('types.yaml', text));
    expect(ok.types.size).toBe(9);
    expect(ok.format).toBe('yaml');
    const err = await caught(readRegistryFile(file('broken.yml', 'action_types:\n  - id: x\n    display_name: [unclosed\n')));
    expect(err.code).toBe('invalid-registry');
    expect(err.line).toBeGreaterThanOrEqual(3);
  });

  test('YAML problems are placed at their line', async () => {
    const err = (await caught(readRegistryFile(file('bad-status.yaml', 'action_types:\n  - id: t\n    display_name: T\n    allowed_owners: [agent]\n    default_policies: {}\n    allowed_statuses: [open, done]\n    allowed_transitions:\n      open: [closed]\n    deprecation_status: active\n')))) as unknown as RegistryError;
    expect(err.issues[0]).toMatchObject({ pointer: '/action_types/0/allowed_transitions/open/0', line: 8 });
  });

  test('binary, huge, missing, a directory: typed errors with the path', async () => {
    expect((await caught(readRegistryFile(file('bin.json', Buffer.from([0x7b, 0, 0x7d]))))).code).toBe('binary-file');
    expect((await caught(readRegistryFile(file('huge.json', `{"action_types": [], "x": "${'a'.repeat(1_100_000)}"}`)))).code).toBe('file-too-large');
    expect((await caught(readRegistryFile(join(dir, 'missing.json')))).code).toBe('not-found');
    expect((await caught(readRegistryFile(dir))).code).toBe('not-a-file');
  });

  test('duplicate ids and reserved status names', () => {
    const doc = defaultRegistryDocument();
    doc.action_types.push({ ...doc.action_types[0]!, allowed_statuses: ['open', 'constructor'], allowed_transitions: { open: ['constructor'] } });
    try {
      loadRegistry(doc);
      throw new Error('expected a RegistryError');
    } catch (err) {
      expect((err as RegistryError).issues.map((i) => i.message)).toEqual(['duplicate action type id "agent_task"', '"constructor" is a reserved name', 'transition to "constructor", which is not in allowed_statuses', 'type "agent_task" has no terminal status: its actions could never finish']);
    }
  });
});
