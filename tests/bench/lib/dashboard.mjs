// What the dashboard's browser tests (tests/cli/serve-browser.test.ts) and benchmark
// (tests/bench/dashboard.mjs) share: a real headless Chromium (Debian's, driven by playwright-core:
// no browser download is possible here), the built `ratchet serve` as a child process, and large
// campaigns made through @ratchet/campaign-dag as a user's commands would leave them.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addTasks, createCampaign, propagate, updateCampaign } from '@ratchet/campaign-dag';
import { seededRandom } from './seeded-random.mjs';

export const bin = fileURLToPath(new URL('../../../apps/cli/bin/ratchet.js', import.meta.url));

/** Debian's chromium (or RATCHET_CHROMIUM), when installed. */
export function chromiumAvailability() {
  const path = process.env.RATCHET_CHROMIUM ?? '/usr/bin/chromium';
  if (existsSync(path)) return { available: true, path, reason: '' };
  return { available: false, path, reason: `no Chromium at ${path} (apt-get install chromium, or set RATCHET_CHROMIUM)` };
}

/** Fails under RATCHET_REQUIRE_CHROMIUM=1 (CI) instead of skipping, so CI cannot pass without a browser. */
export function requireChromiumOrSkip(env = process.env) {
  const availability = chromiumAvailability();
  if (!availability.available && env.RATCHET_REQUIRE_CHROMIUM === '1') throw new Error(`RATCHET_REQUIRE_CHROMIUM=1 but ${availability.reason}`);
  if (!availability.available) console.warn(`\n${'!'.repeat(100)}\n!! the dashboard's browser tests were SKIPPED: ${availability.reason}\n${'!'.repeat(100)}\n`);
  return availability;
}

/** A fresh headless Chromium profile; `close()` ends the browser and removes the profile. */
export async function launchBrowser(options = {}) {
  const { chromium } = await import('playwright-core');
  const { path } = chromiumAvailability();
  const profile = mkdtempSync(join(tmpdir(), 'ratchet-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: path,
    headless: true,
    viewport: options.viewport ?? { width: 1440, height: 1000 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * `ratchet serve --port 0` in `cwd` as a child process; resolves with the URL it printed first.
 * `stop()` sends SIGTERM and waits for the exit (code and output returned).
 */
export function startServe(cwd, { env = {}, args = [] } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let resolved = false;
    const exited = new Promise((done) => child.on('close', (code, signal) => done({ code, signal, stdout, stderr })));
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      const nl = stdout.indexOf('\n');
      if (!resolved && nl >= 0) {
        resolved = true;
        resolve({ url: stdout.slice(0, nl), child, stderr: () => stderr, stdout: () => stdout, exited, stop: async () => (child.kill('SIGTERM'), exited) });
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    void exited.then(({ code }) => {
      if (!resolved) reject(new Error(`ratchet serve exited ${code} before printing its URL: ${stderr}`));
    });
  });
}

/** Runs the built CLI and waits for it; resolves with its exit code and output. */
export function ratchetAsync(args, { cwd, env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * A campaign of `n` tasks in `root` (through the library, as `campaign create` and `add-tasks` do):
 * each task depends on one to three of the `window` tasks before it (or, with `layerWidth`, on one or
 * two tasks of the layer before: many ready at once). With `progress`, the first
 * fraction is complete, some in progress under runners, a few blocked with their cascade.
 */
export async function seedCampaign(root, n, { objective = `Campaign of ${n} tasks`, window = 40, layerWidth, seed = 7, progress = true, backend } = {}) {
  const random = seededRandom(seed);
  const options = backend === undefined ? {} : { backend };
  await createCampaign(root, objective, options);
  const tasks = [];
  for (let seq = 1; seq <= n; seq++) {
    const depends = new Set();
    if (layerWidth !== undefined) {
      // Layers of `layerWidth` tasks, each depending on one or two of the layer before: wide work.
      const layer = Math.floor((seq - 1) / layerWidth);
      if (layer > 0) for (let j = 0; j < 1 + Math.floor(random() * 2); j++) depends.add((layer - 1) * layerWidth + 1 + Math.floor(random() * layerWidth));
    } else {
      const k = seq === 1 ? 0 : 1 + Math.floor(random() * 3);
      for (let j = 0; j < k; j++) depends.add(Math.max(1, seq - 1 - Math.floor(random() * Math.min(seq - 1, window))));
    }
    depends.delete(seq);
    tasks.push({ seq, slug: `task-${seq}`, type: seq % 10 === 0 ? 'VERIFY' : 'BUILD', delta: [`src/t${seq}.ts`], verify: 'true', depends: depends.size === 0 ? 'none' : [...depends].sort((a, b) => a - b), description: `Task ${seq} of the benchmark campaign` });
  }
  await addTasks(root, { objective, tasks }, options);
  if (progress) {
    await updateCampaign(root, options, (c) => {
      const done = Math.floor(c.tasks.length * 0.3);
      c.tasks.forEach((t, i) => {
        if (i < done) t.status = 'complete';
        else if (i < done + 20) Object.assign(t, { status: 'in_progress', runner: `builder-${i % 8}` });
        else if (i % 997 === 0) Object.assign(t, { status: 'blocked', reason: 'the fixture says so' });
      });
    });
    await propagate(root, options);
  }
}
