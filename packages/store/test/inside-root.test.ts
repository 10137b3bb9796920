import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OutsideRootError, defineDocument, isInsideRoot, openDocument, openJsonl, resolveInsideRoot, unsafeRelativePath, type InsideRootOptions, type OutsideRootKind } from '../src/index.js';

/** A project with src/a.ts, and links: escape -> a directory outside, src/link.ts -> a file outside, in -> src, dangling -> nothing. */
function fixture(): { root: string; outside: string } {
  const root = mkdtempSync(join(tmpdir(), 'inside-root-'));
  const outside = mkdtempSync(join(tmpdir(), 'outside-root-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.ts'), '');
  writeFileSync(join(outside, 'f'), '');
  symlinkSync(outside, join(root, 'escape'));
  symlinkSync(join(outside, 'f'), join(root, 'src', 'link.ts'));
  symlinkSync(join(root, 'src'), join(root, 'in'));
  symlinkSync(join(root, 'nowhere'), join(root, 'dangling'));
  return { root, outside };
}

function refusal(root: string, path: string, options?: InsideRootOptions): OutsideRootKind | 'accepted' {
  try {
    resolveInsideRoot(root, path, options);
    return 'accepted';
  } catch (err) {
    expect(err).toBeInstanceOf(OutsideRootError);
    const e = err as OutsideRootError;
    expect(e.code).toBe('outside-root');
    expect(e.path).toBe(path);
    expect(e.message).toContain(e.reason);
    return e.kind;
  }
}

describe('resolveInsideRoot', () => {
  it('returns the absolute path for files inside the root, existing or not', () => {
    const { root } = fixture();
    expect(resolveInsideRoot(root, 'src/a.ts')).toBe(join(root, 'src', 'a.ts'));
    expect(resolveInsideRoot(root, 'src/new/deep.ts')).toBe(join(root, 'src', 'new', 'deep.ts'));
    expect(resolveInsideRoot(root, 'src\\win.ts')).toBe(join(root, 'src', 'win.ts'));
    expect(resolveInsideRoot(root, '.')).toBe(root);
    expect(resolveInsideRoot(root, '__proto__/constructor')).toBe(join(root, '__proto__', 'constructor'));
    // A link that stays inside the project is fine, also for a file that does not exist yet.
    expect(resolveInsideRoot(root, 'in/a.ts')).toBe(join(root, 'in', 'a.ts'));
    expect(resolveInsideRoot(root, 'in/new.ts')).toBe(join(root, 'in', 'new.ts'));
    // A file used as a directory is simply absent below it.
    expect(resolveInsideRoot(root, 'src/a.ts/x')).toBe(join(root, 'src', 'a.ts', 'x'));
  });

  it('refuses lexical escapes with the kind of each', () => {
    const { root } = fixture();
    expect(refusal(root, '')).toBe('empty');
    expect(refusal(root, 'a\0b')).toBe('nul');
    expect(refusal(root, 'x'.repeat(5000))).toBe('too-long');
    for (const abs of ['/etc/passwd', '\\\\server\\share', 'C:\\x', 'c:x']) expect(refusal(root, abs), abs).toBe('absolute');
    for (const up of ['..', '../x', 'src/../../x', '..\\x', 'a/./../../b']) expect(refusal(root, up), up).toBe('outside');
    expect(refusal(root, 'src/../src/a.ts')).toBe('accepted');
    expect(refusal(root, 'src/../src/a.ts', { allowDotDot: false })).toBe('dot-dot');
  });

  it('follows symbolic links on the file and on every directory above it', () => {
    const { root } = fixture();
    expect(refusal(root, 'escape/f')).toBe('symlink');
    expect(refusal(root, 'escape/new/file')).toBe('symlink');
    expect(refusal(root, 'escape')).toBe('symlink');
    expect(refusal(root, 'src/link.ts')).toBe('symlink');
    expect(refusal(root, 'dangling')).toBe('broken-symlink');
    expect(refusal(root, 'dangling/x')).toBe('broken-symlink');
    // Lexical only when asked.
    expect(refusal(root, 'escape/f', { followSymlinks: false })).toBe('accepted');
  });

  it('takes absolute paths only when allowed, and then only inside the root', () => {
    const { root, outside } = fixture();
    expect(refusal(root, join(root, 'src', 'a.ts'))).toBe('absolute');
    expect(resolveInsideRoot(root, join(root, 'src', 'a.ts'), { allowAbsolute: true })).toBe(join(root, 'src', 'a.ts'));
    expect(refusal(root, join(outside, 'f'), { allowAbsolute: true })).toBe('outside');
    expect(refusal(root, join(root, 'escape', 'f'), { allowAbsolute: true })).toBe('symlink');
  });

  it('works when the root itself is reached through a symbolic link', () => {
    const { root } = fixture();
    const alias = join(mkdtempSync(join(tmpdir(), 'alias-')), 'project');
    symlinkSync(root, alias);
    expect(resolveInsideRoot(alias, 'src/a.ts')).toBe(join(alias, 'src', 'a.ts'));
    expect(refusal(alias, 'escape/f')).toBe('symlink');
    expect(realpathSync(resolveInsideRoot(alias, 'src/a.ts'))).toBe(realpathSync(join(root, 'src', 'a.ts')));
  });
});

describe('unsafeRelativePath / isInsideRoot', () => {
  it('judge paths without the file system', () => {
    expect(unsafeRelativePath('src/a.ts')).toBeUndefined();
    expect(unsafeRelativePath('/abs')?.kind).toBe('absolute');
    expect(unsafeRelativePath('/abs', { allowAbsolute: true })).toBeUndefined();
    expect(unsafeRelativePath('a/../../b')?.reason).toBe('is outside the project root (its ".." segments climb out of it)');
    expect(isInsideRoot('/p', '/p')).toBe(true);
    expect(isInsideRoot('/p', '/p/a/b')).toBe(true);
    expect(isInsideRoot('/p', '/p/..x')).toBe(true); // a name that starts with two dots
    expect(isInsideRoot('/p', '/px')).toBe(false);
    expect(isInsideRoot('/p', '/')).toBe(false);
  });
});

describe('documents and JSONL files confined to a root', () => {
  const def = defineDocument({ schema: z.object({ n: z.number() }), version: 1, initial: { n: 0 } });

  it('a document linked out of the root is refused on read and update; nothing is written outside', async () => {
    const { root, outside } = fixture();
    writeFileSync(join(outside, 'state.json'), '{"schemaVersion": 1, "n": 7}\n');
    symlinkSync(join(outside, 'state.json'), join(root, 'state.json'));
    const doc = openDocument(join(root, 'state.json'), def, { root });
    await expect(doc.read()).rejects.toBeInstanceOf(OutsideRootError);
    expect(() => doc.readSync()).toThrow(OutsideRootError);
    await expect(doc.update((d) => void (d.n = 8))).rejects.toMatchObject({ code: 'outside-root', kind: 'symlink' });
    expect(readFileSync(join(outside, 'state.json'), 'utf8')).toContain('"n": 7');
    // Without a root the same file is read through the link (callers that do not confine).
    expect(await openDocument(join(root, 'state.json'), def).read()).toEqual({ n: 7 });
  });

  it('a JSONL file under a linked directory, and a broken link, are refused; no lock file is made outside', async () => {
    const { root, outside } = fixture();
    const log = openJsonl(join(root, 'escape', 'log.jsonl'), { schema: z.object({ a: z.number() }), root });
    await expect(log.append([{ a: 1 }])).rejects.toBeInstanceOf(OutsideRootError);
    await expect(log.read()).rejects.toBeInstanceOf(OutsideRootError);
    expect(existsSync(join(outside, 'log.jsonl'))).toBe(false);
    expect(existsSync(join(outside, 'log.jsonl.lock'))).toBe(false);
    const inside = openDocument(join(root, 'src', 'ok.json'), def, { root });
    expect(await inside.update((d) => void (d.n = 1))).toEqual({ n: 1 });
  });
});
