import { describe, expect, test } from 'vitest';
import { compileProtocolSchema, defaultProtocolSchema, loadProtocolSet, type ProtocolError } from '../src/index.js';
import { protocolJson, tempDir, writeFiles } from './support.js';

async function failure(promise: Promise<unknown>): Promise<ProtocolError & { code: string }> {
  try {
    await promise;
  } catch (err) {
    return err as ProtocolError;
  }
  throw new Error('expected a failure');
}

describe('loadProtocolSet', () => {
  test('sorted by file name, prose paired by base name or declared id, version read', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      'b.protocol.json': protocolJson('beta'),
      'a.protocol.json': protocolJson('alpha'),
      'a.protocol.md': '\uFEFF# Alpha\r\n\r\nProse.\r\n\r\n\r\n',
      'notes.protocol.md': '<!-- protocol: beta -->\n## Beta\n',
      VERSION: '1.2.3\n',
    });
    const set = await loadProtocolSet(dir);
    expect(set.version).toBe('1.2.3');
    expect(set.sources.map((s) => s.protocol.protocol_id)).toEqual(['alpha', 'beta']);
    expect(set.sources[0]!.prose?.text).toBe('# Alpha\n\nProse.\n');
    expect(set.sources[1]!.prose?.text).toBe('## Beta\n');
  });

  test('JSON that does not parse: file:line:col, exit-2 class error', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'x.protocol.json': '{\n  "protocol_id": "x",\n  "rules": [,]\n}\n' });
    const err = await failure(loadProtocolSet(dir));
    expect(err.code).toBe('parse-error');
    expect(err.path).toContain('x.protocol.json');
    expect(err.line).toBe(3);
    expect(err.column).toBeGreaterThan(1);
  });

  test('schema violations: JSON pointer, the schema message, and the place in the file', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      'x.protocol.json': '{\n  "protocol_id": "Bad Id",\n  "description": "d",\n  "rules": [{ "rule_id": "r", "description": "d" }],\n  "colour": 1\n}\n',
    });
    const err = await failure(loadProtocolSet(dir));
    expect(err.code).toBe('schema-violation');
    const pointers = err.issues.map((i) => i.pointer).sort();
    expect(pointers).toEqual(['/colour', '/protocol_id', '/rules/0']);
    const id = err.issues.find((i) => i.pointer === '/protocol_id')!;
    expect(id.message).toContain('pattern');
    expect(id.line).toBe(2);
    expect(err.issues.find((i) => i.pointer === '/colour')!.message).toContain('unknown property "colour"');
    expect(err.issues.find((i) => i.pointer === '/rules/0')!.message).toContain('enforcement');
  });

  test('a protocol_id used by two files names both', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'a.protocol.json': protocolJson('same'), 'b.protocol.json': protocolJson('same') });
    const err = await failure(loadProtocolSet(dir));
    expect(err.code).toBe('duplicate-id');
    expect(err.path).toContain('b.protocol.json');
    expect(err.reason).toContain('a.protocol.json');
    expect(err.line).toBe(2);
  });

  test('VERSION must be semver; prose must pair explicitly', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'a.protocol.json': protocolJson('a'), VERSION: 'v1.2\n' });
    expect((await failure(loadProtocolSet(dir))).code).toBe('bad-version');
    const dir2 = await tempDir();
    await writeFiles(dir2, { 'a.protocol.json': protocolJson('a'), 'orphan.protocol.md': '# Lost\n' });
    expect((await failure(loadProtocolSet(dir2))).code).toBe('unpaired-prose');
    const dir3 = await tempDir();
    await writeFiles(dir3, { 'a.protocol.json': protocolJson('a'), 'x.protocol.md': '<!-- protocol: nope -->\n# X\n' });
    expect((await failure(loadProtocolSet(dir3))).reason).toContain('"nope"');
    const dir4 = await tempDir();
    await writeFiles(dir4, { 'a.protocol.json': protocolJson('a'), 'a.protocol.md': '# A\n', 'z.protocol.md': '<!-- protocol: a -->\n# A again\n' });
    expect((await failure(loadProtocolSet(dir4))).reason).toContain('already has prose');
  });

  test('hostile input: __proto__ keys, binary files, a missing directory', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'a.protocol.json': '{"protocol_id":"a","description":"d","rules":[],"__proto__":{"polluted":true}}' });
    expect((await failure(loadProtocolSet(dir))).code).toBe('unsafe-input');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const bin = await tempDir();
    await writeFiles(bin, { 'a.protocol.json': new Uint8Array([123, 0, 1, 2, 125]) });
    expect((await failure(loadProtocolSet(bin))).code).toBe('binary-file');
    expect((await failure(loadProtocolSet(`${dir}/missing`))).code).toBe('not-found');
  });

  test('every problem in the directory is reported, each with its file and place', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      'a.protocol.json': '{\n  "protocol_id": "a",\n  oops\n}\n',
      'a.protocol.md': '# A\n',
      'b.protocol.json': '{\n  "protocol_id": "B",\n  "description": "",\n  "rules": []\n}\n',
      'c.protocol.json': protocolJson('c', { rules: [{ rule_id: 'r', description: 'd', enforcement: 'e' }, { rule_id: 'r', description: 'd', enforcement: 'e' }] }),
      'd.protocol.json': protocolJson('c'),
      'lost.protocol.md': '# Lost\n',
      VERSION: 'one\n',
    });
    const err = await failure(loadProtocolSet(dir));
    const seen = err.problems.map((p) => [p.file.slice(dir.length + 1), p.code, p.pointer ?? null, p.line ?? null]);
    expect(seen).toEqual([
      ['VERSION', 'bad-version', null, 1],
      ['a.protocol.json', 'parse-error', null, 3],
      ['b.protocol.json', 'schema-violation', '/protocol_id', 2],
      ['b.protocol.json', 'schema-violation', '/description', 3],
      ['c.protocol.json', 'duplicate-rule-id', '/rules/1/rule_id', 11],
      ['d.protocol.json', 'duplicate-id', '/protocol_id', 2],
      ['lost.protocol.md', 'unpaired-prose', null, 1],
    ]);
    // The error itself is the first problem, and says how many more there are.
    expect(err.code).toBe('bad-version');
    expect(err.reason).toContain('(and 6 more problems)');
  });

  test("a project that extends the schema gets its extension enforced (a new required field)", async () => {
    const dir = await tempDir();
    const schema = defaultProtocolSchema() as { properties: Record<string, unknown>; required: string[] };
    schema.properties.owner = { type: 'string', minLength: 1 };
    schema.required.push('owner');
    await writeFiles(dir, { 'protocol.schema.json': JSON.stringify(schema, null, 2), 'a.protocol.json': protocolJson('a', { owner: 'team' }), 'b.protocol.json': protocolJson('b') });
    const err = await failure(loadProtocolSet(dir));
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0]).toMatchObject({ code: 'schema-violation', pointer: '', message: "must have required property 'owner'" });
    expect(err.path).toContain('b.protocol.json');
    await writeFiles(dir, { 'b.protocol.json': protocolJson('b', { owner: 'ops' }) });
    expect((await loadProtocolSet(dir)).sources.map((s) => s.protocol.owner)).toEqual(['team', 'ops']);
  });

  test("the project's protocol.schema.json replaces the default (it may extend it)", async () => {
    const dir = await tempDir();
    const schema = defaultProtocolSchema() as { properties: Record<string, unknown> };
    schema.properties.owner = { type: 'string' };
    await writeFiles(dir, { 'protocol.schema.json': JSON.stringify(schema), 'a.protocol.json': protocolJson('a', { owner: 'team' }) });
    expect((await loadProtocolSet(dir)).sources[0]!.protocol.owner).toBe('team');
    await writeFiles(dir, { 'protocol.schema.json': '{"type": 12}' });
    expect((await failure(loadProtocolSet(dir))).code).toBe('bad-schema');
  });

  test('2020-12 schemas are compiled too', () => {
    const validate = compileProtocolSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', required: ['protocol_id'] });
    expect(validate({}).ok).toBe(false);
    expect(validate({ protocol_id: 'x' }).ok).toBe(true);
  });
});
