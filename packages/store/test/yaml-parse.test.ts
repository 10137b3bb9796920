import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsafeInputError, YamlParseError, isYamlPath, parseYaml, readDataFile, readDataFileSync } from '../src/index.js';

describe('YAML input, read like JSON', () => {
  it('parses a document and locates JSON pointers by line', async () => {
    const { value, locate } = await parseYaml('id: fdc\nstates:\n  - IDLE\n  - DONE\n', { path: 'f.yaml' });
    expect(value).toEqual({ id: 'fdc', states: ['IDLE', 'DONE'] });
    expect(locate('/states/1')).toMatchObject({ line: 4, column: 5, exact: true });
    // A missing member: its deepest existing ancestor, marked inexact.
    expect(locate('/states/9')).toMatchObject({ line: 3, pointer: '/states', exact: false });
  });

  it('a syntax error names the file and line', async () => {
    const err = await parseYaml('a: 1\nb: [1, 2\nc: 3\n', { path: 'bad.yaml' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(YamlParseError);
    expect((err as YamlParseError).message).toBe('bad.yaml: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] (line 3, column 1)');
    expect((err as YamlParseError).line).toBe(3);
  });

  it('refuses duplicate keys, __proto__ keys (with their line) and alias bombs', async () => {
    await expect(parseYaml('a: 1\na: 2\n', { path: 'd.yaml' })).rejects.toMatchObject({ line: 2 });
    const err = await parseYaml('ok: 1\nnested:\n  list:\n    - __proto__: {polluted: true}\n', { path: 'p.yaml' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsafeInputError);
    expect(err).toMatchObject({ line: 4, pointer: '/nested/list/0/__proto__' });
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`)].join('\n');
    await expect(parseYaml(bomb, { path: 'bomb.yaml' })).rejects.toBeInstanceOf(YamlParseError);
  });

  it('readDataFile dispatches on the extension: JSON stays JSON, .yaml/.yml (any case) are YAML; BOM and CRLF are fine', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-yaml-'));
    writeFileSync(join(dir, 'a.json'), '{"x": [1]}');
    writeFileSync(join(dir, 'a.YML'), '\uFEFFx:\r\n  - 1\r\n');
    expect((await readDataFile(join(dir, 'a.json'))).value).toEqual({ x: [1] });
    expect((await readDataFileSync(join(dir, 'a.YML'))).value).toEqual({ x: [1] });
    expect(isYamlPath('x.yaml') && isYamlPath('x.Yml') && !isYamlPath('x.yaml.json')).toBe(true);
    // A JSON file is never handed to the YAML parser (which would accept `{x: 1}`).
    writeFileSync(join(dir, 'loose.json'), '{x: 1}');
    await expect(readDataFile(join(dir, 'loose.json'))).rejects.toMatchObject({ code: 'parse-error' });
  });
});
