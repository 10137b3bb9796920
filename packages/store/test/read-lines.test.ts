/** readLinesSync: any size, one line in memory at a time, the whole-file reader's guards per line. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BinaryFileError, FileTooLargeError, NotAFileError, NotFoundError, readLinesSync, readTextFileSync, type FileLine } from '../src/index.js';
import { tempDir } from './support/children.js';

function file(content: string | Buffer): string {
  const path = join(tempDir('ratchet-lines-'), 'log.jsonl');
  writeFileSync(path, content);
  return path;
}

const shown = (lines: Iterable<FileLine>): string[] => [...lines].map((l) => (l.error === undefined ? `${l.line}:${l.text}` : `${l.line}!${l.error.code}@${l.error.line}:${l.error.column}`));

describe('readLinesSync', () => {
  it('yields every line with its number; no trailing newline, CRLF and blank lines as they are', () => {
    expect(shown(readLinesSync(file('a\nb\n\nc')))).toEqual(['1:a', '2:b', '3:', '4:c']);
    expect(shown(readLinesSync(file('a\r\nb\r\n')))).toEqual(['1:a\r', '2:b\r']);
    expect(shown(readLinesSync(file('')))).toEqual([]);
    expect(shown(readLinesSync(file('\n')))).toEqual(['1:']);
  });

  it('joins lines and multi-byte characters split across chunks, at every chunk size', () => {
    const text = 'ä€😀\n{"k":"ü"}\n' + 'x'.repeat(50) + '\n€';
    const path = file(text);
    const expected = text.split('\n').map((t, i) => `${i + 1}:${t}`);
    for (const chunkBytes of [1, 2, 3, 5, 7, 64, 4096]) expect(shown(readLinesSync(path, { chunkBytes })), `chunk ${chunkBytes}`).toEqual(expected);
  });

  it('strips a UTF-8 byte order mark at the start only, refuses a UTF-16 one', () => {
    expect(shown(readLinesSync(file('\uFEFFa\n\uFEFFb\n')))).toEqual(['1:a', '2:\uFEFFb']);
    expect(shown(readLinesSync(file(Buffer.from([0xff, 0xfe, 0x61, 0x00]))))).toEqual(['1!binary-file@1:1']);
  });

  it('a line with a NUL or invalid UTF-8 is an error at its line and column, and reading goes on', () => {
    const path = file(Buffer.concat([Buffer.from('ok\nab'), Buffer.from([0xff]), Buffer.from('\nx\0y\nlast\n')]));
    const lines = [...readLinesSync(path, { chunkBytes: 3 })];
    expect(shown(lines)).toEqual(['1:ok', '2!binary-file@2:3', '3!binary-file@3:2', '4:last']);
    expect(lines[1]?.error).toBeInstanceOf(BinaryFileError);
    // The same places as the whole-file reader gives.
    expect(() => readTextFileSync(file(Buffer.concat([Buffer.from('ok\nab'), Buffer.from([0xff])])))).toThrow(expect.objectContaining({ line: 2, column: 3 }));
  });

  it('a line over maxLineBytes is an error, its bytes skipped; the next line is read', () => {
    const lines = [...readLinesSync(file(`short\n${'y'.repeat(1000)}\nafter\n${'z'.repeat(1000)}`), { maxLineBytes: 100, chunkBytes: 64 })];
    expect(shown(lines)).toEqual(['1:short', '2!file-too-large@2:1', '3:after', '4!file-too-large@4:1']);
    expect(lines[1]?.error).toBeInstanceOf(FileTooLargeError);
    expect(lines[1]?.error?.message).toContain('line');
  });

  it('reads past the 16 MiB whole-file limit', () => {
    const line = `${JSON.stringify({ pad: 'p'.repeat(1000) })}\n`;
    const path = file(line.repeat(Math.ceil((17 * 1024 * 1024) / line.length)));
    expect(() => readTextFileSync(path)).toThrow(FileTooLargeError);
    let count = 0;
    for (const l of readLinesSync(path)) {
      expect(l.error).toBeUndefined();
      count++;
    }
    expect(count).toBe(Math.ceil((17 * 1024 * 1024) / line.length));
  });

  it('refuses a missing file, a directory and a FIFO (without hanging on it)', () => {
    const dir = tempDir('ratchet-lines-');
    expect(() => [...readLinesSync(join(dir, 'none'))]).toThrow(NotFoundError);
    mkdirSync(join(dir, 'sub'));
    expect(() => [...readLinesSync(join(dir, 'sub'))]).toThrow(NotAFileError);
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    expect(() => [...readLinesSync(join(dir, 'fifo'))]).toThrow(NotAFileError);
  });

  it('stopping early closes the file', () => {
    const path = file('a\nb\nc\n');
    const open = (): number => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 50; i++) {
      for (const l of readLinesSync(path)) {
        expect(l.text).toBe('a');
        break;
      }
    }
    expect(open()).toBeLessThanOrEqual(before + 2);
  });
});
