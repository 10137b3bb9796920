import { execFileSync } from 'node:child_process';
import { mkdirSync, openSync, closeSync, ftruncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BinaryFileError, FileTooLargeError, JsonParseError, NotAFileError, NotFoundError, readJsonFile, readTextFile, readTextFileSync, readJsonFileSync } from '../src/index.js';
import { tempDir } from './support/children.js';

describe('readTextFile', () => {
  const dir = tempDir();

  it('reads UTF-8 text and strips a BOM', async () => {
    const path = join(dir, 'bom.txt');
    writeFileSync(path, '\uFEFFhéllo\r\nworld');
    expect(await readTextFile(path)).toEqual({ path, text: 'héllo\r\nworld', bytes: 16 });
  });

  it('gives NotFoundError for a missing file and for a missing directory', async () => {
    await expect(readTextFile(join(dir, 'nope.json'))).rejects.toMatchObject({ code: 'not-found', path: join(dir, 'nope.json') });
    await expect(readTextFile(join(dir, 'no-dir', 'x.json'))).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses a directory', async () => {
    const sub = join(dir, 'sub');
    mkdirSync(sub);
    const err = await readTextFile(sub).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotAFileError);
    expect((err as Error).message).toBe(`${sub}: is a directory, not a regular file`);
  });

  it('refuses a FIFO without blocking', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(readTextFile(fifo)).rejects.toMatchObject({ code: 'not-a-file', reason: 'is a FIFO, not a regular file' });
  });

  it('refuses a 100 MB file from its size alone, quickly', async () => {
    const path = join(dir, 'huge.json');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 100 * 1024 * 1024); // sparse: no 100 MB actually written
    closeSync(fd);
    const started = performance.now();
    const err = await readTextFile(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileTooLargeError);
    expect((err as Error).message).toBe(`${path}: file is 100 MiB, over the 16 MiB limit for files Ratchet reads (raise maxBytes if this is intended)`);
    // Generous bound: reading (or even allocating) 100 MB would be far slower than a stat.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('honours a configured limit', async () => {
    const path = join(dir, 'small.txt');
    writeFileSync(path, 'x'.repeat(11));
    await expect(readTextFile(path, { maxBytes: 10 })).rejects.toMatchObject({ code: 'file-too-large', size: 11, maxBytes: 10 });
    expect((await readTextFile(path, { maxBytes: 11 })).text).toBe('x'.repeat(11));
  });

  it('refuses NUL bytes with the place of the first one', async () => {
    const path = join(dir, 'nul.json');
    writeFileSync(path, Buffer.from('{\n  "a": "x\0y"\n}'));
    const err = await readTextFile(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BinaryFileError);
    expect(err).toMatchObject({ code: 'binary-file', line: 2, column: 10 });
    expect((err as Error).message).toMatch(/NUL byte.*binary/u);
  });

  it('refuses invalid UTF-8 with the place of the bad byte', async () => {
    const path = join(dir, 'latin1.txt');
    writeFileSync(path, Buffer.concat([Buffer.from('ok\ncaf'), Buffer.from([0xe9]), Buffer.from('!')]));
    await expect(readTextFile(path)).rejects.toMatchObject({ code: 'binary-file', line: 2, column: 4, reason: 'is not valid UTF-8 text (bad byte 0xe9)' });
    // Overlong encodings and surrogates are invalid too.
    writeFileSync(path, Buffer.from([0x61, 0xc0, 0xaf]));
    await expect(readTextFile(path)).rejects.toMatchObject({ code: 'binary-file', column: 2 });
    writeFileSync(path, Buffer.from([0xed, 0xa0, 0x80]));
    await expect(readTextFile(path)).rejects.toMatchObject({ code: 'binary-file', column: 1 });
  });

  it('explains UTF-16 files', async () => {
    const path = join(dir, 'utf16.json');
    writeFileSync(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{}', 'utf16le')]));
    await expect(readTextFile(path)).rejects.toMatchObject({ code: 'binary-file', reason: expect.stringMatching(/UTF-16.*save it as UTF-8/u) as unknown });
  });
});

describe('readJsonFile', () => {
  const dir = tempDir();

  it('returns the value, the text and a locate bound to the text', async () => {
    const path = join(dir, 'fsm.json');
    writeFileSync(path, '\uFEFF{\r\n  "states": [\r\n    {"id": "a"}\r\n  ]\r\n}\r\n');
    const file = await readJsonFile(path);
    expect(file.value).toEqual({ states: [{ id: 'a' }] });
    expect(file.locate('/states/0/id')).toMatchObject({ line: 3, column: 12 });
  });

  it('names the file and place of a parse error', async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{\n  "a": 1,\n}\n');
    const err = await readJsonFile(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JsonParseError);
    expect(err).toMatchObject({ path, line: 3, column: 1 });
    expect((err as Error).message).toBe(`${path}: trailing comma before '}' (JSON does not allow it) (line 3, column 1)`);
  });
});

describe('readTextFileSync', () => {
  it('applies the same guards as readTextFile: BOM stripped, missing, too large, binary, directory', () => {
    const dir = tempDir();
    const ok = join(dir, 'ok.txt');
    writeFileSync(ok, '\uFEFFplan\r\n');
    expect(readTextFileSync(ok)).toEqual({ path: ok, text: 'plan\r\n', bytes: 9 });
    expect(() => readTextFileSync(join(dir, 'nope'))).toThrow(NotFoundError);
    const big = join(dir, 'big.txt');
    writeFileSync(big, 'x'.repeat(100));
    expect(() => readTextFileSync(big, { maxBytes: 10 })).toThrow(FileTooLargeError);
    const bin = join(dir, 'bin.txt');
    writeFileSync(bin, Buffer.from([0x61, 0x0a, 0x00, 0x62]));
    expect(() => readTextFileSync(bin)).toThrow(expect.objectContaining({ code: 'binary-file', line: 2, column: 1 }) as Error);
    expect(() => readTextFileSync(dir)).toThrow(NotAFileError);
  });
});

describe('readJsonFileSync', () => {
  it('parses with places and locates pointers, like readJsonFile', async () => {
    const dir = tempDir();
    const ok = join(dir, 'ok.json');
    writeFileSync(ok, '{\n  "a": [1, {"b": 2}]\n}\n');
    const file = readJsonFileSync(ok);
    expect(file.value).toEqual({ a: [1, { b: 2 }] });
    expect(file.locate('/a/1/b')).toMatchObject({ line: 2, column: (await readJsonFile(ok)).locate('/a/1/b')?.column });
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"a": }');
    expect(() => readJsonFileSync(bad)).toThrow(expect.objectContaining({ code: 'parse-error', line: 1, column: 7 }) as Error);
  });
});
