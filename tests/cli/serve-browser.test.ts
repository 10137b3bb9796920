/// <reference lib="dom" />
/**
 * The dashboard in a real headless browser (Debian's Chromium driven by playwright-core): the page
 * shows every task; a claim and then a completion made by other processes appear without a reload
 * within a second; hostile titles stay text; a broken state file is shown with its place; no
 * console errors; the screenshot is kept (DASHBOARD_SCREENSHOT, default in the OS temp directory)
 * and its pixels checked for the status colours. A 10,000-task campaign renders every task. Without
 * Chromium these tests skip loudly, and fail under RATCHET_REQUIRE_CHROMIUM=1 (CI).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, ratchetAsync, requireChromiumOrSkip, seedCampaign, startServe } from '../bench/lib/dashboard.mjs';
import { ratchet, tempDir } from '../helpers.js';

const availability = requireChromiumOrSkip();
export const SCREENSHOT = process.env.DASHBOARD_SCREENSHOT ?? join(tmpdir(), 'ratchet-dashboard.png');

const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

/** A project with a bit of everything: a campaign in progress, a block with its cascade, what waits for the user, refusals. */
function richProject(): string {
  const dir = tempDir('ratchet-serve-page-');
  const run = (args: string[]): void => {
    const r = ratchet(args, { cwd: dir });
    if (r.status !== 0) throw new Error(`ratchet ${args.join(' ')}: ${r.stderr}`);
  };
  run(['init']);
  const tasks = [
    ['schema', 'none', 'SPEC'],
    ['models', [1]],
    ['api', [2]],
    ['invoices', [2]],
    ['payments', [2]],
    ['webhooks', [5]],
    ['emails', [4]],
    ['admin-ui', [3, 4]],
    ['reports', [4, 5]],
    ['e2e', [6, 7, 8, 9], 'VERIFY'],
    ['docs', [3]],
    ['load-test', [10], 'VERIFY'],
  ] as const;
  writeFileSync(
    join(dir, 'plan.json'),
    JSON.stringify({ tasks: tasks.map(([slug, depends, type], i) => ({ seq: i + 1, slug, type: type ?? 'BUILD', delta: [`src/${slug}.ts`], verify: 'true', depends, ...(i === 0 ? { description: HOSTILE } : {}) })) }),
  );
  run(['campaign', 'create', `Billing ${HOSTILE}`]);
  run(['campaign', 'add-tasks', 'plan.json']);
  run(['campaign', 'ready', '--claim', 'alice', '--lease', '15m']);
  run(['campaign', 'update-task', '1', 'complete', '--runner', 'alice']);
  run(['campaign', 'ready', '--claim', 'alice', '--lease', '15m']);
  run(['campaign', 'update-task', '2', 'complete', '--runner', 'alice']);
  run(['campaign', 'ready', '--claim', 'bob', '--lease', '10m']);
  run(['campaign', 'update-task', '5', 'blocked', '--reason', 'sandbox credentials missing']);
  run(['campaign', 'propagate-blocks']);
  run(['actions', 'add', 'user_task', `Provide the keys ${HOSTILE}`, '--owner', 'user', '--priority', '5']);
  run(['task', 'start', '--task-id', 'billing-1']);
  const hook = (event: string, payload: object): void => void ratchet(['hook', event], { cwd: dir, input: JSON.stringify({ session_id: 's1', cwd: dir, ...payload }) });
  hook('pre-tool-use', { hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(dir, '.ratchet/campaign.json'), content: '{}' } });
  hook('post-tool-use', { hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: 'src/api.ts' }, tool_response: {} });
  hook('stop', { hook_event_name: 'Stop', stop_hook_active: false });
  return dir;
}

describe.skipIf(!availability.available)('the dashboard in a real browser', () => {
  let browser: { context: BrowserContext; close: () => Promise<void> };
  beforeAll(async () => {
    browser = await launchBrowser({ viewport: { width: 1440, height: 1000 } });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  async function open(url: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    await page.goto(url);
    await page.waitForSelector('canvas[data-drawn="true"]', { timeout: 30_000 });
    return { page, problems };
  }

  const taskStatus = (page: Page, seq: number): Promise<string | null> => page.locator(`.vrow[data-seq="${seq}"]`).getAttribute('data-status');

  test('shows every task, live: a claim and then a completion by other processes appear within a second, without a reload', async () => {
    const dir = richProject();
    const server = await startServe(dir);
    try {
      const { page, problems } = await open(server.url);
      // Every task, in the list and in the graph.
      for (const slug of ['schema', 'models', 'api', 'invoices', 'payments', 'webhooks', 'emails', 'admin-ui', 'reports', 'e2e', 'docs', 'load-test']) {
        await expect(page.locator('.vrow .slug', { hasText: new RegExp(`^${slug}$`) }).count()).resolves.toBe(1);
      }
      expect(await page.locator('canvas').getAttribute('data-nodes')).toBe('12');
      expect(await page.locator('canvas').getAttribute('data-layout')).toBe('d3-dag');
      expect(await taskStatus(page, 3)).toBe('in_progress');
      expect(await taskStatus(page, 6)).toBe('blocked');
      await expect(page.locator('#claims').textContent()).resolves.toContain('bob');
      // The lease counts down in the page, on the server's clock.
      const lease = async (): Promise<string> => (await page.locator('#claims td.lease').first().textContent()) ?? '';
      const before = await lease();
      await page.waitForFunction((b) => document.querySelector('#claims td.lease')?.textContent !== b, before, { timeout: 5000 });
      expect(await lease()).toMatch(/^9m \d\ds$/);

      const version = Number(await page.evaluate(() => document.body.dataset.version));
      const claim = await ratchetAsync(['campaign', 'ready', '--claim', 'carol', '--lease', '5m'], { cwd: dir });
      expect(claim.status, claim.stderr).toBe(0);
      const claimedAt = Date.now();
      await page.waitForFunction(() => document.querySelector('.vrow[data-seq="4"]')?.getAttribute('data-status') === 'in_progress', null, { timeout: 5000 });
      const claimSeen = Date.now() - claimedAt;
      await expect(page.locator('.vrow[data-seq="4"] .who').textContent()).resolves.toContain('carol');
      const done = await ratchetAsync(['campaign', 'update-task', '4', 'complete', '--runner', 'carol'], { cwd: dir });
      expect(done.status, done.stderr).toBe(0);
      const doneAt = Date.now();
      await page.waitForFunction(() => document.querySelector('.vrow[data-seq="4"]')?.getAttribute('data-status') === 'complete', null, { timeout: 5000 });
      const doneSeen = Date.now() - doneAt;
      // Completing 4 made 7 (emails) ready.
      expect(await taskStatus(page, 7)).toBe('ready');
      expect(Number(await page.evaluate(() => document.body.dataset.version))).toBeGreaterThan(version);
      expect({ claimSeen: claimSeen < 1000, doneSeen: doneSeen < 1000 }).toEqual({ claimSeen: true, doneSeen: true });
      expect(problems).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 120_000);

  test('user data stays text; the screenshot shows the statuses in their colours', async () => {
    const dir = richProject();
    const server = await startServe(dir);
    try {
      const { page, problems } = await open(server.url);
      expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator('#campaign-header .objective').textContent()).toBe(`Billing ${HOSTILE}`);
      await expect(page.locator('#waiting').textContent()).resolves.toContain(`Provide the keys ${HOSTILE}`);
      expect(await page.locator('#waiting img, #campaign-header img, #task-list img, #waiting script').count()).toBe(0);
      await page.locator('.vrow[data-seq="1"]').click();
      await expect(page.locator('#task-detail .description').textContent()).resolves.toBe(HOSTILE);
      expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
      // Every panel has its content.
      await expect(page.locator('#session').textContent()).resolves.toContain('billing-1');
      await expect(page.locator('#refusals').textContent()).resolves.toContain('state-file');
      await expect(page.locator('#refusals').textContent()).resolves.toContain('stop-open-task');
      await expect(page.locator('#waiting').textContent()).resolves.toContain('ratchet actions confirm a1 --as user');
      await expect(page.locator('#blocked').textContent()).resolves.toContain('sandbox credentials missing');
      await expect(page.locator('#activity').textContent()).resolves.toContain('src/api.ts');
      await page.locator('#fit').click();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.mouse.move(0, 0);
      await page.waitForTimeout(300);
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(readFileSync(SCREENSHOT).length).toBeGreaterThan(50_000);
      // The graph's pixels: complete (green), in progress (amber) and blocked (red) nodes are drawn.
      const colours = await page.evaluate(() => {
        const canvas = document.querySelector('canvas')!;
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        const seen = new Set<string>();
        for (let i = 0; i < data.length; i += 4) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
        return [...seen];
      });
      for (const rgb of ['5,150,105', '217,119,6', '220,38,38']) expect(colours, rgb).toContain(rgb);
      expect(problems).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 120_000);

  test('a state file that does not parse is shown with its place; the rest of the page stays live', async () => {
    const dir = richProject();
    const server = await startServe(dir);
    try {
      const { page } = await open(server.url);
      writeFileSync(join(dir, '.ratchet', 'goals.json'), '{\n  "version": 3,\n  "actions": [,]\n}\n');
      await page.waitForSelector('#errors:not([hidden])', { timeout: 5000 });
      await expect(page.locator('#errors').textContent()).resolves.toMatch(/\.ratchet\/goals\.json:3:\d+/);
      const r = await ratchetAsync(['campaign', 'update-task', '3', 'complete', '--runner', 'bob'], { cwd: dir });
      expect(r.status, r.stderr).toBe(0);
      await page.waitForFunction(() => document.querySelector('.vrow[data-seq="3"]')?.getAttribute('data-status') === 'complete', null, { timeout: 5000 });
    } finally {
      await server.stop();
    }
  }, 120_000);

  test('a 10,000-task campaign: every task laid out and drawn, the list scrolls to the last one', async () => {
    const dir = tempDir('ratchet-serve-10k-');
    await seedCampaign(dir, 10_000);
    const server = await startServe(dir);
    try {
      const { page, problems } = await open(server.url);
      expect(await page.locator('canvas').getAttribute('data-nodes')).toBe('10000');
      expect(await page.locator('canvas').getAttribute('data-layout')).toBe('waves');
      await expect(page.locator('.task-list .toolbar').textContent()).resolves.toContain('10000 tasks');
      // Only the rows in view (and a margin) exist.
      expect(await page.locator('.vrow').count()).toBeLessThan(100);
      await page.locator('.vlist').evaluate((el) => (el.scrollTop = el.scrollHeight));
      await page.waitForSelector('.vrow[data-seq="10000"]', { timeout: 5000 });
      await page.locator('.task-list input[type="search"]').fill('task-9999');
      await page.waitForFunction(() => document.querySelectorAll('.vrow').length === 1, null, { timeout: 5000 });
      expect(problems).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 180_000);
});
