import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { applyProtocolEdit, defaultProtocolSchema, stringifyLike, updateProtocol, type Protocol, type ProtocolError } from '../src/index.js';
import { protocolJson, tempDir, writeFiles } from './support.js';

const base: Protocol = { protocol_id: 'p', description: 'd', rules: [{ rule_id: 'r', description: 'old', enforcement: 'e' }], associated_tools: ['a'] };

describe('applyProtocolEdit (pure)', () => {
  test('add-tool is idempotent and un-deprecates; deprecate-tool moves the tool; update-rule replaces the description', () => {
    expect(applyProtocolEdit(base, { command: 'add-tool', protocolId: 'p', tool: 'b' }).protocol.associated_tools).toEqual(['a', 'b']);
    expect(applyProtocolEdit(base, { command: 'add-tool', protocolId: 'p', tool: 'a' }).changed).toBe(false);
    const dep = applyProtocolEdit(base, { command: 'deprecate-tool', protocolId: 'p', tool: 'a' }).protocol;
    expect(dep.associated_tools).toEqual([]);
    expect(dep.deprecated_tools).toEqual(['a']);
    expect(applyProtocolEdit(dep, { command: 'deprecate-tool', protocolId: 'p', tool: 'a' }).changed).toBe(false);
    const back = applyProtocolEdit(dep, { command: 'add-tool', protocolId: 'p', tool: 'a' }).protocol;
    expect(back.associated_tools).toEqual(['a']);
    expect(back.deprecated_tools).toEqual([]);
    expect(applyProtocolEdit(base, { command: 'update-rule', protocolId: 'p', ruleId: 'r', description: 'new' }).protocol.rules[0]!.description).toBe('new');
    expect(base.rules[0]!.description).toBe('old');
  });

  test('edits that cannot apply are typed errors', () => {
    const code = (fn: () => unknown): string => {
      try {
        fn();
      } catch (err) {
        return (err as ProtocolError).code;
      }
      return 'none';
    };
    expect(code(() => applyProtocolEdit(base, { command: 'update-rule', protocolId: 'p', ruleId: 'nope', description: 'x' }))).toBe('edit-failed');
    expect(code(() => applyProtocolEdit(base, { command: 'deprecate-tool', protocolId: 'p', tool: 'never-listed' }))).toBe('edit-failed');
    expect(code(() => applyProtocolEdit(base, { command: 'add-tool', protocolId: 'p', tool: '   ' }))).toBe('edit-failed');
  });
});

describe('stringifyLike keeps formatting', () => {
  test('indent (2, 4, tabs), CRLF, BOM, final newline or none, one-line files', () => {
    const value = { b: 1, a: [1] };
    expect(stringifyLike('{\n    "x": 1\n}\n', value)).toBe('{\n    "b": 1,\n    "a": [\n        1\n    ]\n}\n');
    expect(stringifyLike('{\n\t"x": 1\n}', value)).toBe('{\n\t"b": 1,\n\t"a": [\n\t\t1\n\t]\n}');
    expect(stringifyLike('\uFEFF{\r\n  "x": 1\r\n}\r\n', value)).toBe('\uFEFF{\r\n  "b": 1,\r\n  "a": [\r\n    1\r\n  ]\r\n}\r\n');
    expect(stringifyLike('{"x":1}', value)).toBe('{"b":1,"a":[1]}');
  });
});

describe('updateProtocol (files)', () => {
  test('finds the file by id, keeps key order and 4-space indent, validates, writes atomically; dry run writes nothing', async () => {
    const dir = await tempDir();
    const text = '{\n    "rules": [],\n    "protocol_id": "p",\n    "description": "d",\n    "associated_tools": ["a"]\n}';
    await writeFiles(dir, { 'x.protocol.json': text, 'y.protocol.json': protocolJson('other') });
    const dry = await updateProtocol(dir, { command: 'add-tool', protocolId: 'p', tool: 'b' }, { dryRun: true });
    expect(dry.diff).toContain('+        "b"');
    expect(await readFile(join(dir, 'x.protocol.json'), 'utf8')).toBe(text);
    await updateProtocol(dir, { command: 'add-tool', protocolId: 'p', tool: 'b' });
    const after = await readFile(join(dir, 'x.protocol.json'), 'utf8');
    expect(Object.keys(JSON.parse(after) as object)).toEqual(['rules', 'protocol_id', 'description', 'associated_tools']);
    expect(after).toBe('{\n    "rules": [],\n    "protocol_id": "p",\n    "description": "d",\n    "associated_tools": [\n        "a",\n        "b"\n    ]\n}');
  });

  test("an edit the project's schema refuses is not written", async () => {
    const dir = await tempDir();
    const schema = defaultProtocolSchema() as { properties: Record<string, { maxItems?: number }> };
    schema.properties.associated_tools!.maxItems = 1;
    const text = protocolJson('p', { associated_tools: ['a'] });
    await writeFiles(dir, { 'protocol.schema.json': JSON.stringify(schema), 'p.protocol.json': text });
    const err = (await updateProtocol(dir, { command: 'add-tool', protocolId: 'p', tool: 'b' }).catch((e: unknown) => e)) as ProtocolError;
    expect(err.code).toBe('schema-violation');
    expect(err.pointer).toBe('/associated_tools');
    expect(await readFile(join(dir, 'p.protocol.json'), 'utf8')).toBe(text);
  });

  test('unknown protocol id, broken neighbour: error, nothing written', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'p.protocol.json': protocolJson('p') });
    expect(((await updateProtocol(dir, { command: 'add-tool', protocolId: 'q', tool: 'b' }).catch((e: unknown) => e)) as ProtocolError).code).toBe('edit-failed');
    await writeFile(join(dir, 'broken.protocol.json'), '{');
    expect(((await updateProtocol(dir, { command: 'add-tool', protocolId: 'p', tool: 'b' }).catch((e: unknown) => e)) as ProtocolError).code).toBe('parse-error');
    expect(await readFile(join(dir, 'p.protocol.json'), 'utf8')).toBe(protocolJson('p'));
  });

  test('concurrent updates of one file lose nothing (locked read-modify-write)', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'p.protocol.json': protocolJson('p') });
    const tools = Array.from({ length: 8 }, (_, i) => `tool-${i}`);
    await Promise.all(tools.map((tool) => updateProtocol(dir, { command: 'add-tool', protocolId: 'p', tool })));
    const after = JSON.parse(await readFile(join(dir, 'p.protocol.json'), 'utf8')) as Protocol;
    expect([...after.associated_tools!].sort()).toEqual(tools);
  });
});
