/**
 * Prior knowledge is per task: each workspace's memory query is the task's own words (its slug or
 * description, its files), not the campaign objective every task shares, which made every task of
 * a campaign get nearly the same entries (issue 29). And `memory observe` on such a campaign keeps
 * one pattern per task.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';
import { taskTopic } from '../src/memory-campaign.js';

async function ratchet(cwd: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd, readStdin: () => Promise.resolve('') };
  return { code: await run(args, io), out, err };
}

const OBJECTIVE = 'Ship release 4.2 of the storefront to production';

function memoryFile(): string {
  const entry = (name: string, trigger: string, cost = 2000): Record<string, unknown> => ({ name, trigger, fix: `fix ${name}`, match: null, cost, source: [], access_count: 0, last_accessed: null, related: [], related_typed: {}, times_helped: 0, times_failed: 0, created_at: new Date().toISOString() });
  // Six entries about the campaign as a whole, one about each task's own work.
  const general = [
    'storefront release 4.2 build breaks on the production bundle',
    'production storefront release rollback needed after deploy',
    'release 4.2 storefront cache not purged in production',
    'storefront production release notes missing version 4.2',
    'shipping the storefront release stalls on production approval',
    'storefront release 4.2 smoke test flaky in production',
  ].map((t, i) => entry(`general-${i}`, t, 5000));
  const own = [entry('sharp-vips', 'image resize: sharp fails to install libvips for src/images/resize.ts'), entry('puppeteer-chromium', 'invoice pdf: puppeteer cannot launch chromium for src/invoice/pdf.ts')];
  return JSON.stringify({ $schema: 'https://unpkg.com/@ratchet/memory/schemas/memory.schema.json', schemaVersion: 1, failures: [...general, ...own], patterns: [] });
}

test('two tasks of one campaign get the failures about their own work, not the same five', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-memtasks-'));
  writeFileSync(join(dir, 'plan.json'), JSON.stringify({ tasks: [{ seq: 1, slug: 'image-resize', delta: ['src/images/resize.ts'], verify: 'npm test' }, { seq: 2, slug: 'invoice-pdf', delta: ['src/invoice/pdf.ts'], verify: 'npm test' }] }));
  expect((await ratchet(dir, 'campaign', 'create', OBJECTIVE)).code).toBe(0);
  expect((await ratchet(dir, 'campaign', 'add-tasks', 'plan.json')).code).toBe(0);
  writeFileSync(join(dir, '.ratchet/memory.json'), memoryFile());
  const names = async (seq: string): Promise<string[]> => {
    const r = await ratchet(dir, '--json', 'workspace', 'create', seq);
    expect(r.code, r.err).toBe(0);
    return (JSON.parse(r.out) as { workspace: { priorKnowledge: { failures: { name: string; injected: boolean }[] } } }).workspace.priorKnowledge.failures.filter((f) => f.injected).map((f) => f.name);
  };
  // Before: both got sharp-vips, puppeteer-chromium and three of the general entries (the objective's words).
  expect(await names('1')).toEqual(['sharp-vips']);
  expect(await names('2')).toEqual(['puppeteer-chromium']);
});

test('taskTopic: the task\'s own words; the campaign objective only when the task says too little', () => {
  expect(taskTopic({ slug: 'token-sign', delta: ['src/token/sign.ts'] }, OBJECTIVE)).toBe('token sign token sign');
  expect(taskTopic({ slug: 'login', delta: ['src/routes/login.ts'], description: 'Return 401 on a bad password' }, OBJECTIVE)).toBe('Return 401 on a bad password routes login');
  expect(taskTopic({ slug: 't1', delta: [] }, OBJECTIVE)).toBe(`${OBJECTIVE} t1`);
});

test('memory observe on a campaign whose workspaces all carry its objective: one pattern per task, each with its own insight', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-memtasks-'));
  const slugs = ['password-hash', 'token-sign', 'token-verify'];
  const lessons = ['hash with bcryptjs at cost 12, never the native bcrypt', 'sign with RS256 keys loaded once at start-up', 'verify tokens with a clock tolerance of five seconds'];
  writeFileSync(join(dir, 'plan.json'), JSON.stringify({ tasks: slugs.map((slug, i) => ({ seq: i + 1, slug, delta: [`src/${slug}.ts`], verify: 'npm test' })) }));
  expect((await ratchet(dir, 'campaign', 'create', OBJECTIVE)).code).toBe(0);
  expect((await ratchet(dir, 'campaign', 'add-tasks', 'plan.json')).code).toBe(0);
  for (const [i, slug] of slugs.entries()) {
    const seq = String(i + 1);
    for (const argv of [
      ['campaign', 'ready', '--claim', 'b1'],
      ['workspace', 'create', seq, '--runner', 'b1'],
      ['workspace', 'complete', seq, '--runner', 'b1', '--delivered', `${slug} done. ${'Covered by unit and integration tests for every branch. '.repeat(4)}\nPattern: ${lessons[i]}`],
      ['campaign', 'update-task', seq, 'complete', '--runner', 'b1'],
    ]) {
      const r = await ratchet(dir, ...argv);
      expect(r.code, `${argv.join(' ')}: ${r.err}`).toBe(0);
    }
  }
  const r = await ratchet(dir, '--json', 'memory', 'observe');
  expect(r.code, r.err).toBe(0);
  const memory = JSON.parse(readFileSync(join(dir, '.ratchet/memory.json'), 'utf8')) as { patterns: { trigger: string; insight: string }[] };
  expect(memory.patterns.map((p) => p.insight).sort()).toEqual([...lessons].sort());
  expect(memory.patterns.map((p) => p.trigger)).not.toContain(OBJECTIVE);
});
