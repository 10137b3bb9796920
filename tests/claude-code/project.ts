/** Temp projects for the Claude Code tests: `ratchet init`, a task, a campaign, a bin dir with `ratchet`. */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { bin, examples, ratchet, tempDir } from '../helpers.js';

/** A project after `ratchet init`; with `task`, that task is started (PLANNING). */
export function initProject(options: { task?: string; config?: Record<string, unknown> } = {}): string {
  const dir = tempDir('ratchet-cc-project-');
  expect(ratchet(['init', '--quiet'], { cwd: dir }).status).toBe(0);
  if (options.config) writeFileSync(join(dir, 'ratchet.config.json'), `${JSON.stringify({ schemaVersion: 1, hooks: options.config }, null, 2)}\n`);
  if (options.task) expect(ratchet(['task', 'start', '--task-id', options.task, '--no-network', '--quiet'], { cwd: dir }).status).toBe(0);
  return dir;
}

/** Add the example campaign (five tasks; 001 is ready). */
export function addCampaign(dir: string): void {
  expect(ratchet(['campaign', 'create', 'Add user authentication', '--quiet'], { cwd: dir }).status).toBe(0);
  expect(ratchet(['campaign', 'add-tasks', join(examples, 'campaign/plan.json'), '--quiet'], { cwd: dir }).status).toBe(0);
}

/** A directory holding a `ratchet` symlink to the built bin, as `npm install -g` leaves it. */
export function ratchetOnPath(): string {
  const dir = tempDir('ratchet-cc-bin-');
  symlinkSync(bin, join(dir, 'ratchet'));
  return dir;
}

export function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

export function readJson<T = Record<string, unknown>>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export function ensureDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
