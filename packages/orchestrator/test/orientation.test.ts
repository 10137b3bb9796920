import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createSocket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { OrientationError, orient, orientationReportFile, probeNetwork, type OrientationOptions } from '../src/index.js';
import { OrientationReportSchema } from '../src/schema.js';
import { blackHole } from '../../../scripts/dev/black-hole.js';
import { fakeClock } from './support.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ratchet-orient-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The caller's review of what the last tasks left (the CLI passes self-correction's); here one pending lesson. */
const review: OrientationOptions['review'] = (at) => Promise.resolve({ lastPostMortem: null, pendingLessons: [{ id: 'lesson-1', taskId: 'T-0', insight: `from ${at}` }], manualLessons: [], openSuggestions: [], errors: [] });
const options = (extra: Partial<OrientationOptions> = {}): OrientationOptions => ({ root, now: fakeClock(), env: { PATH: '/bin', HOME: '/root', SECRET_TOKEN: 'hunter2' }, network: false, review, ...extra });
const writeMeta = async (text: string): Promise<void> => {
  await mkdir(join(root, 'knowledge_core'), { recursive: true });
  await writeFile(join(root, 'knowledge_core', 'agent_meta.json'), text);
};

describe('L1: knowledge_core/agent_meta.json', () => {
  test('missing: OrientationError agent-meta-missing naming the file', async () => {
    const err = await orient(options()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OrientationError);
    expect(err).toMatchObject({ code: 'agent-meta-missing', path: join(root, 'knowledge_core', 'agent_meta.json') });
  });

  test('does not parse: the line and column of the syntax error', async () => {
    await writeMeta('{\n  "name": "jules",\n  "version": \n}\n');
    await expect(orient(options())).rejects.toMatchObject({ code: 'agent-meta-invalid', line: 4, column: 1 });
  });

  test('wrong shape: the place of the bad value', async () => {
    await writeMeta('{\n  "name": "jules",\n  "capabilities": ["read", 7]\n}\n');
    const err = (await orient(options()).catch((e: unknown) => e)) as OrientationError;
    expect(err).toMatchObject({ code: 'agent-meta-invalid', line: 3 });
    expect(err.message).toContain('"capabilities" must be an array of strings');
    await writeMeta('[]');
    await expect(orient(options())).rejects.toMatchObject({ code: 'agent-meta-invalid' });
    await writeMeta('{"__proto__": {"name": "x"}}');
    await expect(orient(options())).rejects.toMatchObject({ code: 'agent-meta-invalid' });
  });

  test('BOM and CRLF are fine', async () => {
    await writeMeta('\uFEFF{\r\n  "name": "jules"\r\n}\r\n');
    expect((await orient(options())).level1.agent.name).toBe('jules');
  });
});

describe('L2 and L3', () => {
  test('summarises every knowledge_core artifact, reporting broken ones without failing', async () => {
    await writeMeta('{"name": "jules", "limitations": ["no network"]}');
    await writeFile(join(root, 'knowledge_core', 'plan_registry.json'), '{"schemaVersion": 1, "plans": {}}');
    await writeFile(join(root, 'knowledge_core', 'lessons.jsonl'), '{"a":1}\n{"b":2}\n{oops\n');
    await writeFile(join(root, 'knowledge_core', 'notes.md'), '# A\n## B\ntext\n');
    const report = await orient(options());
    expect(report.level2.artifacts.map((a) => [a.path, a.ok, a.items])).toEqual([
      ['knowledge_core/agent_meta.json', true, 2],
      ['knowledge_core/lessons.jsonl', false, 2],
      ['knowledge_core/notes.md', true, 2],
      ['knowledge_core/plan_registry.json', true, 2],
    ]);
    expect(report.level2.artifacts[1]!.error).toMatch(/^line 3:/);
  });

  test("L2's review is the caller's, measured at the project root", async () => {
    await writeMeta('{"name": "jules"}');
    const report = await orient(options());
    expect(report.level2.review.pendingLessons).toEqual([{ id: 'lesson-1', taskId: 'T-0', insight: `from ${root}` }]);
    await expect(orient(options({ review: () => Promise.reject(new Error('lessons unreadable')) }))).rejects.toThrow('lessons unreadable');
  });

  test('file-system probe writes, reads back and deletes its scratch file', async () => {
    await writeMeta('{"name": "jules"}');
    const report = await orient(options());
    const fs = report.level3.filesystem;
    expect(fs.ok).toBe(true);
    expect([typeof fs.writeMs, typeof fs.readMs, typeof fs.deleteMs]).toEqual(['number', 'number', 'number']);
    expect(await readdir(join(root, '.ratchet'))).toEqual([]);
  });

  test('environment: names of the standard variables only, never values', async () => {
    await writeMeta('{"name": "jules"}');
    const report = await orient(options());
    expect(report.level3.environment.present).toEqual(['PATH', 'HOME']);
    expect(report.level3.environment.missing).toContain('SHELL');
    expect(JSON.stringify(report)).not.toContain('hunter2');
    expect(JSON.stringify(report)).not.toContain('/root');
  });
});

describe('the orientation report file', () => {
  test('orient() wrapped for .ratchet/orientation.json matches the documented schema (network skipped and probed)', async () => {
    await writeMeta('{"name": "jules", "capabilities": ["plans"]}');
    await mkdir(join(root, 'knowledge_core', 'notes'), { recursive: true });
    await writeFile(join(root, 'knowledge_core', 'notes', 'a.md'), '# A\n## B\n');
    await writeFile(join(root, 'knowledge_core', 'broken.jsonl'), '{"a":1}\n{oops\n');
    const server = createServer((s) => s.destroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      for (const network of [false, { host: '127.0.0.1', port, timeoutMs: 2000 }] as const) {
        const file = orientationReportFile(await orient(options({ network })), { taskId: 'T-1', sessionId: 'S-1' });
        const parsed = OrientationReportSchema.safeParse(JSON.parse(JSON.stringify(file)));
        expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
        expect(file).toMatchObject({ schemaVersion: 1, taskId: 'T-1', sessionId: 'S-1' });
        const broken = file.level2.artifacts.find((a) => a.path === 'knowledge_core/broken.jsonl');
        expect(broken?.ok).toBe(false);
        expect(broken?.error).toMatch(/^line 2:/);
      }
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
    // The schema is strict: a report with a stray field is not one.
    expect(OrientationReportSchema.safeParse({ ...orientationReportFile(await orient(options()), { taskId: 'T' }), extra: 1 }).success).toBe(false);
  });
});

describe('network probe', () => {
  let server: Server;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  test('reachable: ok with the target named', async () => {
    server = createServer((s) => s.destroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    expect(await probeNetwork({ host: '127.0.0.1', port, timeoutMs: 2000 })).toMatchObject({ skipped: false, ok: true, target: `127.0.0.1:${port}` });
  });

  test('refused: ok false with the error', async () => {
    server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((r) => server.close(() => r()));
    const r = await probeNetwork({ host: '127.0.0.1', port, timeoutMs: 2000 });
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/ECONNREFUSED/);
  });

  test('a black hole cannot hang it: it resolves with a timeout error', async () => {
    // A socket that never connects and never errors: only the deadline can end the probe.
    let destroyed = false;
    const silent = {
      once: () => silent,
      destroy: () => {
        destroyed = true;
        return silent;
      },
    };
    const r = await probeNetwork({ host: 'example.invalid', port: 443, timeoutMs: 200 }, { open: () => silent as never });
    expect(r).toMatchObject({ ok: false, error: 'no connection within 200 ms', target: 'example.invalid:443' });
    expect(destroyed).toBe(true);
  });

  // Real sockets, nothing leaves the machine: a stopped listener whose accept queue is full.
  test.runIf(process.platform === 'linux')('a real black hole (a connect that never completes): resolves at the deadline', async () => {
    const hole = await blackHole();
    try {
      const r = await probeNetwork({ host: hole.host, port: hole.port, timeoutMs: 300 });
      expect(r).toMatchObject({ skipped: false, ok: false, error: 'no connection within 300 ms', target: `127.0.0.1:${hole.port}` });
    } finally {
      hole.close();
    }
  });

  test('a DNS server that never answers: resolves at the deadline, and the lookup is cancelled (nothing keeps the process alive)', async () => {
    const dns = createSocket('udp4');
    let queries = 0;
    dns.on('message', () => queries++);
    await new Promise<void>((r) => dns.bind(0, '127.0.0.1', r));
    try {
      const r = await probeNetwork({ host: 'registry.example.test', port: 443, timeoutMs: 300 }, { dnsServers: [`127.0.0.1:${dns.address().port}`] });
      expect(r).toMatchObject({ skipped: false, ok: false, error: 'no connection within 300 ms', target: 'registry.example.test:443' });
      expect(queries).toBeGreaterThan(0);
      const pending = process.getActiveResourcesInfo().filter((x) => /QueryReqWrap|GetAddrInfoReqWrap/.test(x));
      expect(pending).toEqual([]);
    } finally {
      dns.close();
    }
  });

  test('a name that does not resolve is reported as such', async () => {
    // A DNS server that answers every query with NXDOMAIN.
    const dns = createSocket('udp4');
    dns.on('message', (msg, from) => {
      const reply = Buffer.from(msg);
      reply[2] = 0x81; // QR=1, RD=1
      reply[3] = 0x83; // RA=1, RCODE=3 (NXDOMAIN)
      dns.send(reply, from.port, from.address);
    });
    await new Promise<void>((r) => dns.bind(0, '127.0.0.1', r));
    try {
      const r = await probeNetwork({ host: 'nowhere.example.test', port: 443, timeoutMs: 2000 }, { dnsServers: [`127.0.0.1:${dns.address().port}`] });
      expect(r).toMatchObject({ ok: false, error: 'cannot resolve nowhere.example.test: ENOTFOUND' });
    } finally {
      dns.close();
    }
  });

  test('skipped when disabled', async () => {
    expect(await probeNetwork(false)).toEqual({ skipped: true });
  });
});
