import { chmodSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IoError, NotAFileError, NotFoundError, writeFileAtomic } from '../src/index.js';
import { tempDir } from './support/children.js';

describe('writeFileAtomic', () => {
  it('writes a new file and replaces an existing one, leaving no temp file', async () => {
    const dir = tempDir();
    const path = join(dir, 'state.json');
    await writeFileAtomic(path, '{"a":1}\n');
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n');
    await writeFileAtomic(path, new TextEncoder().encode('{"a":2}\n'));
    expect(readFileSync(path, 'utf8')).toBe('{"a":2}\n');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('keeps the mode of the file it replaces', async () => {
    const dir = tempDir();
    const path = join(dir, 'script.json');
    writeFileSync(path, 'old');
    chmodSync(path, 0o600);
    await writeFileAtomic(path, 'new');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('writes through a symlink instead of replacing it', async () => {
    const dir = tempDir();
    const real = join(dir, 'real.json');
    const link = join(dir, 'link.json');
    writeFileSync(real, 'old');
    symlinkSync(real, link);
    await writeFileAtomic(link, 'new');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toBe('new');
  });

  it('refuses a missing directory clearly, or creates it when asked', async () => {
    const dir = tempDir();
    const path = join(dir, 'missing', 'state.json');
    const err = await writeFileAtomic(path, 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toBe(`${path}: cannot create the file: the directory ${join(dir, 'missing')} does not exist`);
    await writeFileAtomic(path, 'x', { createParentDirs: true });
    expect(readFileSync(path, 'utf8')).toBe('x');
  });

  it('removes its temp file when the rename fails', async () => {
    const dir = tempDir();
    const path = join(dir, 'taken');
    mkdirSync(join(path, 'child'), { recursive: true });
    await expect(writeFileAtomic(path, 'x')).rejects.toBeInstanceOf(NotAFileError);
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  it('aborts before the rename when the hook throws, leaving the old bytes', async () => {
    const dir = tempDir();
    const path = join(dir, 'state.json');
    writeFileSync(path, 'old');
    const hook = (): Promise<void> => Promise.reject(new Error('lock lost'));
    await expect(writeFileAtomic(path, 'new', { beforeRename: hook })).rejects.toBeInstanceOf(IoError);
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });
  it('renames only after the hook has finished, with the temp file already written while it runs', async () => {
    const dir = tempDir();
    const path = join(dir, 'state.json');
    writeFileSync(path, 'old');
    let seen: { target: string; temp: string[] } | undefined;
    const hook = async (): Promise<void> => {
      // The hook runs while the data's fsync is in flight: give the rename every chance to jump ahead.
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = { target: readFileSync(path, 'utf8'), temp: readdirSync(dir).filter((f) => f.endsWith('.tmp')).map((f) => readFileSync(join(dir, f), 'utf8')) };
    };
    await writeFileAtomic(path, 'new', { beforeRename: hook });
    expect(seen).toEqual({ target: 'old', temp: ['new'] });
    expect(readFileSync(path, 'utf8')).toBe('new');
  });
});
