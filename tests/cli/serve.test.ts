/**
 * `ratchet serve` as a user runs it: the built binary, real processes, the event stream a page
 * reads. Its URL comes first on stdout; it binds 127.0.0.1 unless another address is named (then
 * it warns); it stops on SIGINT and SIGTERM; a change by another process reaches the stream within
 * a second; a state file that does not parse is reported with its place while the rest is served;
 * hooks record their refusals, which an agent cannot erase. The page in a real browser is
 * serve-browser.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { get, request } from 'node:http';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { ratchetAsync, startServe } from '../bench/lib/dashboard.mjs';
import { ratchet, repoRoot, tempDir } from '../helpers.js';

interface Snapshot {
  format: string;
  campaign: { objective: string; tasks: { seq: number; status: string; lease?: { runner: string } }[] } | null;
  session: { taskId: string } | null;
  refusals: { total: number; byRule: { rule: string; count: number }[] };
  errors: { source: string; file?: string; line?: number; column?: number; message: string }[];
}
interface Patch {
  tasks?: { changed: { seq: number; status: string; lease?: { runner: string } }[] };
  set: Partial<Snapshot>;
}

function project(tasks = 4): string {
  const dir = tempDir('ratchet-serve-');
  writeFileSync(join(dir, 'plan.json'), JSON.stringify({ tasks: Array.from({ length: tasks }, (_, i) => ({ seq: i + 1, slug: `t${i + 1}`, delta: [`f${i}`], verify: 'true', depends: i === 0 ? 'none' : [i] })) }));
  expect(ratchet(['campaign', 'create', 'Serve test'], { cwd: dir }).status).toBe(0);
  expect(ratchet(['campaign', 'add-tasks', 'plan.json'], { cwd: dir }).status).toBe(0);
  return dir;
}

function fetchText(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

/** An EventSource in Node: every event as it arrives, with the time it arrived. */
function stream(url: string): { events: { name: string; data: unknown; at: number }[]; next: (pred: (e: { name: string; data: unknown }) => boolean, timeoutMs: number) => Promise<{ name: string; data: unknown; at: number }>; close: () => void } {
  const events: { name: string; data: unknown; at: number }[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  const req = request(`${url}api/events`, (res) => {
    res.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (name !== undefined && data !== undefined) events.push({ name, data: JSON.parse(data) as unknown, at: Date.now() });
        for (const w of waiters.splice(0)) w();
      }
    });
  });
  req.end();
  return {
    events,
    async next(pred, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(pred);
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`no matching event within ${timeoutMs} ms; got ${events.map((e) => e.name).join(', ')}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    close: () => req.destroy(),
  };
}

describe('ratchet serve', () => {
  test('prints its URL first, on 127.0.0.1; --json prints the serve.v1 document; SIGINT and SIGTERM stop it with exit 0', async () => {
    const dir = project();
    const server = await startServe(dir);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const page = await fetchText(server.url);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<script type="module" src="/app.js">');
      // Shipped assets only: the page references nothing outside this server.
      expect(page.body).not.toMatch(/https?:\/\//);
      for (const asset of ['app.js', 'layout-worker.js', 'app.css', 'THIRD_PARTY_NOTICES.txt']) expect((await fetchText(`${server.url}${asset}`)).status, asset).toBe(200);
      expect((await fetchText(`${server.url}app.js`)).body).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
    } finally {
      expect((await server.stop()).code).toBe(0);
    }

    const json = await startServe(dir, { args: ['--json'] });
    const first = JSON.parse(json.url) as Record<string, unknown>;
    json.child.kill('SIGINT');
    const end = await json.exited;
    expect(end.code).toBe(0);
    const schema = JSON.parse(readFileSync(join(repoRoot, 'apps/cli/schemas/output/serve.v1.schema.json'), 'utf8')) as object;
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(first), JSON.stringify(validate.errors)).toBe(true);
    expect(first).toMatchObject({ ok: true, host: '127.0.0.1', loopback: true, backend: { kind: 'file' } });
  }, 60_000);

  test('another address only when named, with a warning; bad options are usage errors', async () => {
    const dir = project();
    const open = await startServe(dir, { args: ['--host', '0.0.0.0'] });
    try {
      expect(open.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/$/);
      const port = new URL(open.url).port;
      // Reached through loopback only: this test sends nothing to any other address.
      expect((await fetchText(`http://127.0.0.1:${port}/api/snapshot`)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 200));
      expect(open.stderr()).toContain('WARNING: listening on 0.0.0.0');
    } finally {
      await open.stop();
    }
    const quiet = await startServe(dir);
    await new Promise((r) => setTimeout(r, 200));
    expect(quiet.stderr()).not.toContain('WARNING');
    const port = new URL(quiet.url).port;
    const taken = ratchet(['serve', '--port', port], { cwd: dir });
    expect(taken.status).toBe(2);
    expect(taken.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
    await quiet.stop();
    for (const args of [['--port', 'abc'], ['--port', '70000'], ['--host', 'a b'], ['--host', 'http://x/']]) {
      const r = ratchet(['serve', ...args], { cwd: dir });
      expect(r.status, args.join(' ')).toBe(2);
    }
  }, 90_000);

  test('a claim and a completion by other processes reach the event stream within a second', async () => {
    const dir = project();
    const server = await startServe(dir);
    const events = stream(server.url);
    try {
      const first = await events.next((e) => e.name === 'snapshot', 10_000);
      expect((first.data as Snapshot).campaign?.tasks.map((t) => t.status)).toEqual(['pending', 'pending', 'pending', 'pending']);
      const claim = await ratchetAsync(['campaign', 'ready', '--claim', 'builder-7', '--lease', '10m'], { cwd: dir });
      expect(claim.status).toBe(0);
      const claimedAt = Date.now();
      const claimed = await events.next((e) => e.name === 'patch' && (e.data as Patch).tasks?.changed.some((t) => t.seq === 1 && t.lease?.runner === 'builder-7') === true, 5000);
      expect(claimed.at - claimedAt).toBeLessThan(1000);
      const done = await ratchetAsync(['campaign', 'update-task', '1', 'complete', '--runner', 'builder-7'], { cwd: dir });
      expect(done.status).toBe(0);
      const doneAt = Date.now();
      const completed = await events.next((e) => e.name === 'patch' && (e.data as Patch).tasks?.changed.some((t) => t.seq === 1 && t.status === 'complete') === true, 5000);
      expect(completed.at - doneAt).toBeLessThan(1000);
    } finally {
      events.close();
      await server.stop();
    }
  }, 90_000);

  test('a state file that does not parse is shown with its place, the rest keeps being served, and a repair clears it', async () => {
    const dir = project();
    expect(ratchet(['init'], { cwd: dir }).status).toBe(0);
    expect(ratchet(['task', 'start', '--task-id', 'serve-1'], { cwd: dir }).status).toBe(0);
    const session = join(dir, '.ratchet', 'session.json');
    const good = readFileSync(session, 'utf8');
    writeFileSync(session, `${good.slice(0, 40)}\n  "oops": ,\n`);
    const server = await startServe(dir);
    const events = stream(server.url);
    try {
      const snapshot = (await events.next((e) => e.name === 'snapshot', 10_000)).data as Snapshot;
      expect(snapshot.session).toBeNull();
      expect(snapshot.errors).toHaveLength(1);
      expect(snapshot.errors[0]).toMatchObject({ source: 'session', file: '.ratchet/session.json' });
      expect(snapshot.errors[0]!.line).toBeGreaterThan(0);
      expect(snapshot.errors[0]!.column).toBeGreaterThan(0);
      expect(snapshot.campaign?.tasks).toHaveLength(4);
      // Other changes still arrive while the file is broken.
      expect((await ratchetAsync(['campaign', 'ready', '--claim', 'b1'], { cwd: dir })).status).toBe(0);
      await events.next((e) => e.name === 'patch' && (e.data as Patch).tasks !== undefined, 5000);
      // Nothing was written over the broken file.
      expect(readFileSync(session, 'utf8')).toContain('"oops": ,');
      // Put back as Ratchet last wrote it (its digest matches again): the error goes, the session comes back.
      writeFileSync(session, good);
      const after = await events.next((e) => e.name === 'patch' && (e.data as Patch).set.errors !== undefined, 5000);
      expect((after.data as Patch).set.errors).toEqual([]);
      expect((after.data as Patch).set.session?.taskId).toBe('serve-1');
    } finally {
      events.close();
      await server.stop();
    }
  }, 90_000);
});

describe('hook refusals are recorded for the dashboard', () => {
  test('a denied write and a blocked stop land in the refusal log with their rules, which the agent cannot write', async () => {
    const dir = project(2);
    expect(ratchet(['init'], { cwd: dir }).status).toBe(0);
    expect(ratchet(['task', 'start', '--task-id', 'h-1'], { cwd: dir }).status).toBe(0);
    const hook = (event: string, payload: object): string => ratchet(['hook', event], { cwd: dir, input: JSON.stringify({ session_id: 'cc-1', cwd: dir, ...payload }) }).stdout;
    expect(hook('pre-tool-use', { hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(dir, '.ratchet/campaign.json'), content: '{}' } })).toContain('"deny"');
    expect(hook('stop', { hook_event_name: 'Stop', stop_hook_active: false })).toContain('"block"');
    // The shortcut an agent would take: erase its refusals by hand. Refused like any state file.
    expect(hook('pre-tool-use', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: ': > .ratchet/refusals.log.jsonl' } })).toContain('"deny"');
    const records = readFileSync(join(dir, '.ratchet', 'refusals.log.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; decision: string; rules: string[]; tool?: string; session?: string });
    expect(records.map((r) => [r.event, r.decision, r.rules, r.tool])).toEqual([
      ['pre-tool-use', 'deny', ['state-file'], 'Write'],
      ['stop', 'block', ['stop-open-task'], undefined],
      ['pre-tool-use', 'deny', ['state-file'], 'Bash'],
    ]);
    expect(records.every((r) => r.session === 'cc-1')).toBe(true);

    const server = await startServe(dir);
    try {
      const snapshot = JSON.parse((await fetchText(`${server.url}api/snapshot`)).body) as Snapshot;
      expect(snapshot.refusals.total).toBe(3);
      expect(snapshot.refusals.byRule.map((r) => [r.rule, r.count])).toEqual([
        ['state-file', 2],
        ['stop-open-task', 1],
      ]);
    } finally {
      await server.stop();
    }
  }, 90_000);
});
