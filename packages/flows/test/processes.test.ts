/** Real processes: concurrent `advance` calls on one session serialise through the store's lock; none is lost. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { openSession, startFlow } from '../src/index.js';
import { flowIn, runner, tmpProject } from './support.js';

const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));
// The built package starts in a fraction of the time tsx needs to compile the sources in each process;
// without a build (a fresh checkout) the sources are used.
const ARGS = existsSync(DIST)
  ? [fileURLToPath(new URL('./advance-worker.mjs', import.meta.url)), pathToFileURL(DIST).href]
  : ['--conditions=@ratchet/source', '--import', 'tsx', fileURLToPath(new URL('./advance-worker.ts', import.meta.url))];

function advanceInProcess(root: string, sessionId: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...ARGS, root, sessionId], { cwd: fileURLToPath(new URL('..', import.meta.url)) });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

test('four processes advancing one session at once: four distinct steps, no advance lost', async () => {
  const root = tmpProject();
  const dir = tmpProject();
  const steps = Array.from({ length: 6 }, (_, i) => ({ id: `s${i}`, title: `Step ${i}`, content: `s${i}.md` }));
  const flow = await flowIn(dir, { id: 'long', title: 'Long', steps });
  await startFlow(runner(root), { flow, ref: flow.path, sessionId: 'p' });
  const results = await Promise.all(Array.from({ length: 4 }, () => advanceInProcess(root, 'p')));
  for (const r of results) expect(r.code, r.err).toBe(0);
  expect(results.map((r) => r.out.trim()).sort()).toEqual(['advanced s1', 'advanced s2', 'advanced s3', 'advanced s4']);
  const state = await openSession(root, 'p').read();
  expect(state.current).toBe('s4');
  expect(state.history.filter((h) => h.event === 'leave')).toHaveLength(4);
  expect(state.revision).toBe(5);
}, 60_000);
