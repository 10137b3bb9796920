import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { addLessons, extractLessons, readLessons } from '../src/index.js';
import { NOW, postMortem, tempDir, writeFiles } from './support.js';

const WORKER = fileURLToPath(new URL('./workers/lessons-worker.mjs', import.meta.url));
const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));

function runWorker(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [WORKER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

const lessonsFor = (task: string, n: number) =>
  extractLessons(postMortem(Array.from({ length: n }, (_, i) => `**Lesson:** lesson number ${i} was learned\n**Action:** add tool '${task}-${i}' to protocol 'p'`).join('\n\n')), { path: 'pm.md', now: NOW, taskId: task }).lessons;

describe.skipIf(!existsSync(DIST) && !process.env.CI)('real processes (built dist; run `pnpm --filter @ratchet/self-correction build`)', () => {
  test('four processes adding lessons at once lose none and duplicate none', async () => {
    const dir = await tempDir();
    const lessonsPath = join(dir, 'knowledge_core', 'lessons.jsonl');
    const shared = lessonsFor('shared', 2);
    const inputs = await Promise.all(
      [0, 1, 2, 3].map(async (w) => {
        const file = join(dir, `in-${w}.json`);
        await writeFile(file, JSON.stringify([...lessonsFor(`w${w}`, 5), ...shared]));
        return file;
      }),
    );
    const results = await Promise.all(inputs.map((file) => runWorker(['add', lessonsPath, file])));
    for (const r of results) expect(r.code, r.err).toBe(0);
    expect(results.reduce((sum, r) => sum + Number(r.out), 0)).toBe(22);
    const file = await readLessons(lessonsPath);
    expect(file.problems).toEqual([]);
    expect(file.lessons).toHaveLength(22);
  }, 30_000);

  test('kill -9 in the middle of an apply loses nothing: every file still parses, a rerun finishes the rest exactly once', async () => {
    const root = await tempDir();
    await writeFiles(root, { 'protocols/p.protocol.json': `${JSON.stringify({ protocol_id: 'p', description: 'd', rules: [] }, null, 2)}\n` });
    const lessonsPath = join(root, 'knowledge_core', 'lessons.jsonl');
    const lessons = lessonsFor('k', 150);
    await addLessons(lessonsPath, lessons);
    const child = spawn(process.execPath, [WORKER, 'apply', lessonsPath, join(root, 'protocols'), root], { stdio: 'ignore' });
    // Kill it once some lessons are recorded, while it is still working on the others.
    for (let i = 0; i < 400; i++) {
      await new Promise((r) => setTimeout(r, 25));
      const text = await readFile(lessonsPath, 'utf8').catch(() => '');
      // Each applied lesson says "applied" twice: its status and its history entry.
      if ((text.match(/"status":"applied"/g) ?? []).length >= 6) break;
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.on('close', r));
    const after = await readLessons(lessonsPath);
    expect(after.problems).toEqual([]);
    expect(after.lessons).toHaveLength(150);
    const applied = after.lessons.filter((l) => l.status === 'applied').length;
    expect(applied).toBeGreaterThanOrEqual(3);
    expect(applied).toBeLessThan(150); // it really was killed mid-run
    const protocol = JSON.parse(await readFile(join(root, 'protocols/p.protocol.json'), 'utf8')) as { associated_tools?: string[] };
    // Every lesson recorded as applied really is in the protocol (the edit is written before the record).
    for (const l of after.lessons.filter((x) => x.status === 'applied')) expect(protocol.associated_tools).toContain((l.action.parameters as { tool: string }).tool);
    // The killed holder's locks are taken over; the rerun applies the rest, each exactly once.
    const rerun = await runWorker(['apply', lessonsPath, join(root, 'protocols'), root]);
    expect(rerun.code, rerun.err).toBe(0);
    expect(Number(rerun.out)).toBe(150 - applied);
    const final = await readLessons(lessonsPath);
    expect(final.lessons.every((l) => l.status === 'applied' && l.history.filter((h) => h.status === 'applied').length === 1)).toBe(true);
    const tools = (JSON.parse(await readFile(join(root, 'protocols/p.protocol.json'), 'utf8')) as { associated_tools: string[] }).associated_tools;
    expect([...tools].sort()).toEqual(lessons.map((l) => (l.action.parameters as { tool: string }).tool).sort());
  }, 60_000);

  test('two concurrent applies apply each lesson exactly once', async () => {
    const root = await tempDir();
    await writeFiles(root, { 'protocols/p.protocol.json': `${JSON.stringify({ protocol_id: 'p', description: 'd', rules: [] }, null, 2)}\n` });
    const lessonsPath = join(root, 'knowledge_core', 'lessons.jsonl');
    await addLessons(lessonsPath, lessonsFor('t', 6));
    const results = await Promise.all([0, 1].map(() => runWorker(['apply', lessonsPath, join(root, 'protocols'), root])));
    for (const r of results) expect(r.code, r.err).toBe(0);
    expect(results.map((r) => Number(r.out)).sort()).toEqual([0, 6]);
    const file = await readLessons(lessonsPath);
    for (const lesson of file.lessons) expect(lesson.history.map((h) => h.status)).toEqual(['pending', 'applied']);
  }, 30_000);
});
