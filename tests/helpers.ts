import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const bin = join(repoRoot, 'apps/cli/bin/ratchet.js');
export const protocols = join(repoRoot, 'protocols');
export const examples = join(repoRoot, 'examples');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run the built `ratchet` binary as a user would: a real process, real exit code. */
export function ratchet(args: string[], options: SpawnSyncOptions = {}): CliResult {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', ...options, env: { ...process.env, NO_COLOR: '1', ...options.env } });
  return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

export function tempDir(prefix = 'ratchet-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
