import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { openTraceLog, startTurn } from '../src/index.js';
import { T0, tempDir } from './support.js';

const worker = fileURLToPath(new URL('./fixtures/trace-worker.mjs', import.meta.url));
const pkg = fileURLToPath(new URL('..', import.meta.url));

function runWorker(file: string, name: string, count: number, rotateBytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=@ratchet/source', '--import', 'tsx', worker, file, name, String(count), String(rotateBytes)], { cwd: pkg, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`worker ${name} exited ${String(code)}: ${err}`))));
  });
}

test('three processes recording into one turn while the file rotates: no event lost, none twice, ids unique, one Policy event', { timeout: 180_000 }, async () => {
  const dir = tempDir('goals-trace-race-');
  const file = join(dir, 'traces.jsonl');
  const rotateBytes = 4096;
  await startTurn(openTraceLog(file, { rotateBytes }), 't1', { tools: 30 }, T0);
  await Promise.all(['a', 'b', 'c'].map((name) => runWorker(file, name, 15, rotateBytes)));
  const t = (await openTraceLog(file, { rotateBytes }).read('t1')).trace!;
  const calls = t.events.filter((e) => e.kind === 'ToolInvocation').map((e) => e.summary).sort();
  expect(calls.length).toBe(45);
  expect(new Set(calls).size).toBe(45);
  expect(new Set(t.events.map((e) => e.event_id)).size).toBe(t.events.length);
  expect(t.events.filter((e) => e.kind === 'Policy')).toMatchObject([{ payload: { budget: 'tools', allowed: 30, used: 31 } }]);
  expect(readdirSync(dir).filter((n) => /^traces\.\d+\.jsonl$/.test(n)).length).toBeGreaterThan(0);
});
