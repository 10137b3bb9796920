/**
 * A command writes only what it owns. An output file a flag names (`--out`) is refused when it is
 * one of Ratchet's own protected files (state, rules, the configuration that holds its rails: a
 * `protocol compile --out .claude/settings.json` would switch the hooks off), when its kind is not
 * what the command produces (a compile target is Markdown, not `src/app.ts`), or when it exists and
 * is not an earlier output of the same command.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { extname, isAbsolute, relative, sep } from 'node:path';
import type { Context } from './context.js';
import { CliError } from './errors.js';
import { displayPath } from './paths.js';
import { protectedEntry } from './protected-paths.js';

export interface OutputRule {
  /** The flag, for messages (`--out`). */
  flag: string;
  /** What the command writes there, for messages ("an AGENTS.md-style Markdown file"). */
  what: string;
  /** Allowed file name extensions, lower case with the dot. */
  extensions: readonly string[];
  /** Given the first 4 KiB of an existing file: whether this command wrote it. Absent: any existing file of the right kind. */
  ownedIf?: (head: string) => boolean;
}

function head(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(4096);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, n).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Throws CliError (exit 2) unless `abs` is a file this command may write. */
export function checkOwnedOutput(ctx: Context, abs: string, rule: OutputRule): void {
  const shown = displayPath(ctx, abs);
  const rel = relative(ctx.cwd, abs);
  if (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel)) {
    const entry = protectedEntry(rel.split(sep).join('/'));
    if (entry !== undefined) {
      throw new CliError(`${rule.flag} ${shown} refused: it is one of Ratchet's ${entry.kind === 'config' ? 'configuration files' : entry.kind === 'rules' ? 'rule files' : 'state files'}, which a command's output never replaces`, { code: 'not-owned', file: shown });
    }
  }
  const ext = extname(abs).toLowerCase();
  if (!rule.extensions.includes(ext)) {
    throw new CliError(`${rule.flag} ${shown} refused: this command writes ${rule.what} (${rule.extensions.join(', ')}), not a ${ext === '' ? 'file without an extension' : `${ext} file`}`, { code: 'not-owned', file: shown });
  }
  if (rule.ownedIf !== undefined) {
    const text = head(abs);
    if (text !== undefined && !rule.ownedIf(text)) {
      throw new CliError(`${rule.flag} ${shown} refused: the file exists and is not ${rule.what} this command wrote; it is left as it is (choose another path, or remove it yourself)`, { code: 'not-owned', file: shown });
    }
  }
}
