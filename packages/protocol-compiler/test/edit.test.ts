import { readFile, writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { applyProtocolEdit, defaultProtocolSchema, editJsonText, stringifyLike, updateProtocol, type Protocol, type ProtocolError } from '../src/index.js';
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
  test('finds the file by id, keeps key order, 4-space indent and one-line arrays, validates; dry run writes nothing', async () => {
    const dir = await tempDir();
    const text = '{\n    "rules": [],\n    "protocol_id": "p",\n    "description": "d",\n    "associated_tools": ["a"]\n}';
    await writeFiles(dir, { 'x.protocol.json': text, 'y.protocol.json': protocolJson('other') });
    const dry = await updateProtocol(dir, { command: 'add-tool', protocolId: 'p', tool: 'b' }, { dryRun: true });
    expect(dry.diff).toContain('+    "associated_tools": ["a", "b"]');
    expect(await readFile(join(dir, 'x.protocol.json'), 'utf8')).toBe(text);
    await updateProtocol(dir, { command: 'add-tool', protocolId: 'p', tool: 'b' });
    const after = await readFile(join(dir, 'x.protocol.json'), 'utf8');
    expect(after).toBe('{\n    "rules": [],\n    "protocol_id": "p",\n    "description": "d",\n    "associated_tools": ["a", "b"]\n}');
  });

  test('only the bytes that change are rewritten: other lines, escapes, CRLF, BOM and the final newline stay', async () => {
    const dir = await tempDir();
    const lines = [
      '{',
      '    "protocol_id": "p",',
      '    "description": "caf\\u00e9 \\/ compact",',
      '    "rules": [',
      '        { "rule_id": "r1", "description": "one", "enforcement": "e" },',
      '        {',
      '            "rule_id": "r2",',
      '            "description": "two",',
      '            "enforcement": "e"',
      '        }',
      '    ],',
      '    "associated_tools": [',
      '        "keep",',
      '        "old"',
      '    ]',
      '}',
    ];
    const original = `\uFEFF${lines.join('\r\n')}\r\n`;
    const file = join(dir, 'p.protocol.json');
    await writeFile(file, original);
    await updateProtocol(dir, { command: 'update-rule', protocolId: 'p', ruleId: 'r2', description: 'says "two"' });
    let now = await readFile(file, 'utf8');
    expect(now).toBe(original.replace('"description": "two"', '"description": "says \\"two\\""'));
    await updateProtocol(dir, { command: 'deprecate-tool', protocolId: 'p', tool: 'old' });
    now = await readFile(file, 'utf8');
    expect(now.startsWith('\uFEFF{\r\n    "protocol_id": "p",\r\n    "description": "caf\\u00e9 \\/ compact",\r\n')).toBe(true);
    expect(now).toContain('        { "rule_id": "r1", "description": "one", "enforcement": "e" },\r\n');
    expect(now.endsWith('    "associated_tools": [\r\n        "keep"\r\n    ],\r\n    "deprecated_tools": [\r\n        "old"\r\n    ]\r\n}\r\n')).toBe(true);
    await updateProtocol(dir, { command: 'add-tool', protocolId: 'p', tool: 'old' });
    now = await readFile(file, 'utf8');
    expect(now.endsWith('    "associated_tools": [\r\n        "keep",\r\n        "old"\r\n    ],\r\n    "deprecated_tools": []\r\n}\r\n')).toBe(true);
    expect(now.replace(/\r\n/g, '')).not.toContain('\n');
  });

  test('a protocol without associated_tools gets the member last, in the file\'s style', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'p.protocol.json': '{\n\t"protocol_id": "p",\n\t"description": "d",\n\t"rules": []\n}\n', 'q.protocol.json': '{"protocol_id":"q","description":"d","rules":[]}' });
    await updateProtocol(dir, { command: 'add-tool', protocolId: 'p', tool: 'ratchet plan lint' });
    await updateProtocol(dir, { command: 'add-tool', protocolId: 'q', tool: 't' });
    expect(await readFile(join(dir, 'p.protocol.json'), 'utf8')).toBe('{\n\t"protocol_id": "p",\n\t"description": "d",\n\t"rules": [],\n\t"associated_tools": [\n\t\t"ratchet plan lint"\n\t]\n}\n');
    expect(await readFile(join(dir, 'q.protocol.json'), 'utf8')).toBe('{"protocol_id":"q","description":"d","rules":[],"associated_tools":["t"]}');
  });

  test('property: any edit of any layout parses back to exactly the edited protocol (keys in order)', async () => {
    const tool = fc.constantFrom('a', 'b', 'c', 'ratchet plan lint', 'quo"te', 'uni\u00e9');
    const protocolArb = fc.record({
      tools: fc.option(fc.uniqueArray(tool, { maxLength: 4 }), { nil: undefined }),
      deprecated: fc.option(fc.uniqueArray(tool, { maxLength: 3 }), { nil: undefined }),
      rules: fc.uniqueArray(fc.constantFrom('r1', 'r2', 'r3'), { minLength: 1, maxLength: 3 }),
      toolsFirst: fc.boolean(),
    });
    const layout = fc.record({ indent: fc.constantFrom(0, 2, 4, '\t'), crlf: fc.boolean(), newline: fc.boolean(), oneLineArrays: fc.boolean() });
    const editArb = fc.oneof(
      fc.record({ command: fc.constant('add-tool' as const), tool }),
      fc.record({ command: fc.constant('deprecate-tool' as const), tool }),
      fc.record({ command: fc.constant('update-rule' as const), ruleId: fc.constantFrom('r1', 'r2', 'r3'), description: fc.string({ minLength: 1, maxLength: 12 }) }),
    );
    await fc.assert(
      fc.asyncProperty(protocolArb, layout, editArb, async (p, l, e) => {
        const protocol: Record<string, unknown> = {};
        if (p.toolsFirst && p.tools !== undefined) protocol.associated_tools = p.tools;
        Object.assign(protocol, { protocol_id: 'p', description: 'd', rules: p.rules.map((id) => ({ rule_id: id, description: `about ${id}`, enforcement: 'e' })) });
        if (!p.toolsFirst && p.tools !== undefined) protocol.associated_tools = p.tools;
        if (p.deprecated !== undefined) protocol.deprecated_tools = p.deprecated;
        let text = JSON.stringify(protocol, null, l.indent === 0 ? undefined : l.indent);
        if (l.oneLineArrays) text = text.replace(/\[\s*("(?:[^"\\]|\\.)*"(?:,\s*"(?:[^"\\]|\\.)*")*)\s*\]/g, (_m, items: string) => `[${items.split(/,\s*/).join(', ')}]`);
        if (l.crlf) text = text.replace(/\n/g, '\r\n');
        if (l.newline) text += l.crlf ? '\r\n' : '\n';
        const dir = await tempDir();
        await writeFile(join(dir, 'p.protocol.json'), text);
        const edit = { ...e, protocolId: 'p' } as Parameters<typeof applyProtocolEdit>[1];
        let outcome: ReturnType<typeof applyProtocolEdit>;
        try {
          outcome = applyProtocolEdit(JSON.parse(text) as Protocol, edit);
        } catch {
          return; // an edit that cannot apply is refused before any text is touched
        }
        const expected = outcome.protocol;
        // The minimal text edits alone get it right (no fallback to re-serialising).
        expect(JSON.stringify(JSON.parse(editJsonText(text, outcome.ops)))).toBe(JSON.stringify(expected));
        const result = await updateProtocol(dir, edit);
        const written = await readFile(join(dir, 'p.protocol.json'), 'utf8');
        expect(written).toBe(result.text);
        expect(JSON.stringify(JSON.parse(written))).toBe(JSON.stringify(expected));
        expect(written.endsWith('\n')).toBe(l.newline);
        if (!l.crlf) expect(written).not.toContain('\r');
      }),
      { numRuns: 150 },
    );
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
