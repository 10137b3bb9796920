/**
 * The built `ratchet-mcp` fed raw bytes on stdin, as a broken or hostile client would: messages of
 * 10 to 60 MiB, bad JSON, JSON that is not JSON-RPC, requests with params that are not an object.
 * Each gets its JSON-RPC error (-32700, -32600, -32602), with the request's id where it has one,
 * and the server goes on answering the next request.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterEach, describe, expect, test } from 'vitest';
import { serverBin, taskProject } from './helpers.js';

const MIB = 1024 * 1024;

interface Reply {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

interface Raw {
  child: ChildProcessWithoutNullStreams;
  /** The next reply line from the server (fails after `timeoutMs`). */
  next(timeoutMs?: number): Promise<Reply>;
  /** Write bytes to the server's stdin, waiting for them to drain. */
  write(data: string | Buffer): Promise<void>;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

let raw: Raw | undefined;
afterEach(() => {
  raw?.child.kill();
  raw = undefined;
});

function start(env: Record<string, string> = {}): Raw {
  const project = taskProject();
  const child = spawn(process.execPath, [serverBin], { cwd: project, env: { ...process.env, RATCHET_MCP_TOOLS: '', RATCHET_PROJECT: '', ...env }, stdio: 'pipe' });
  const replies: Reply[] = [];
  const waiters: (() => void)[] = [];
  let buffered = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') replies.push(JSON.parse(line) as Reply);
    for (const w of waiters.splice(0)) w();
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => void (stderr += chunk));
  // A server that stops reading makes writes fail with EPIPE: the test's assertions say what went wrong.
  child.stdin.on('error', () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  let closed = false;
  void exited.then(() => {
    closed = true;
    for (const w of waiters.splice(0)) w();
  });
  return {
    child,
    exited,
    stderr: () => stderr,
    // Resolves once written, or once the server is gone (then the assertions on its replies fail).
    write: (data) =>
      new Promise((resolve) => {
        if (child.stdin.write(data)) resolve();
        else {
          child.stdin.once('drain', resolve);
          child.once('close', resolve);
        }
      }),
    next: (timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no reply within ${timeoutMs} ms; stderr: ${stderr.slice(-500)}`)), timeoutMs);
        const check = (): void => {
          const reply = replies.shift();
          if (reply !== undefined) {
            clearTimeout(timer);
            resolve(reply);
          } else if (closed) {
            clearTimeout(timer);
            reject(new Error(`the server exited without replying; stderr: ${stderr.slice(-500)}`));
          } else waiters.push(check);
        };
        check();
      }),
  };
}

const line = (message: unknown): string => `${JSON.stringify(message)}\n`;
const request = (id: number | string, method: string, params?: unknown): string => line({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

async function initialized(env: Record<string, string> = {}): Promise<Raw> {
  raw = start(env);
  await raw.write(request(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } }));
  expect((await raw.next()).result).toHaveProperty('serverInfo');
  await raw.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return raw;
}

/** The server still answers: tools/list with a fresh id. */
async function stillServing(r: Raw, id: number): Promise<void> {
  await r.write(request(id, 'tools/list'));
  const reply = await r.next();
  expect(reply.id).toBe(id);
  expect((reply.result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
}

/** A tools/call whose arguments hold `bytes` of text, its id last as the SDK's client writes it. */
const hugeCall = (id: number, bytes: number): string => `{"method":"tools/call","params":{"name":"run_status","arguments":{"pad":"${'x'.repeat(bytes)}"}},"jsonrpc":"2.0","id":${id}}\n`;

describe('ratchet-mcp over raw stdio: every bad message answered, the server kept', () => {
  test.each([20, 60])('a %i MiB message: -32600 naming the limit, with its id; then the next request is answered', { timeout: 180_000 }, async (mib) => {
    const r = await initialized();
    await r.write(hugeCall(1, mib * MIB));
    const reply = await r.next(120_000);
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32600 } });
    expect(reply.error?.message).toContain('16 MiB');
    await stillServing(r, 2);
  });

  test('a 10 MiB message is read and answered (a tool error for the unknown argument); the server goes on', { timeout: 120_000 }, async () => {
    const r = await initialized();
    await r.write(hugeCall(1, 10 * MIB));
    const reply = await r.next(60_000);
    expect(reply.id).toBe(1);
    expect(reply.error?.code ?? (reply.result?.isError === true ? 'tool-error' : 'ok')).not.toBe('ok');
    await stillServing(r, 2);
  });

  test('the limit is configurable: RATCHET_MCP_MAX_MESSAGE_BYTES', { timeout: 60_000 }, async () => {
    const r = await initialized({ RATCHET_MCP_MAX_MESSAGE_BYTES: String(64 * 1024) });
    await r.write(hugeCall(1, 100 * 1024));
    expect(await r.next()).toMatchObject({ id: 1, error: { code: -32600 } });
    await stillServing(r, 2);
  });

  test('a limit that is not a whole number of bytes is refused at start-up: exit 2, saying so', { timeout: 60_000 }, async () => {
    for (const bad of ['abc', '1.5', '-1', '100', '16MiB']) {
      raw = start({ RATCHET_MCP_MAX_MESSAGE_BYTES: bad });
      expect(await raw.exited, bad).toEqual({ code: 2, signal: null });
      expect(raw.stderr()).toContain(`RATCHET_MCP_MAX_MESSAGE_BYTES=${bad}`);
    }
  });

  test('bad JSON: -32700 with id null', { timeout: 60_000 }, async () => {
    const r = await initialized();
    for (const bad of ['{"jsonrpc":', 'not json', '{"a":1}}', '\u00ff\u00fe']) {
      await r.write(`${bad}\n`);
      expect(await r.next(), bad).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    }
    await stillServing(r, 3);
  });

  test('JSON that is not a JSON-RPC message: -32600, with its id where it has one', { timeout: 60_000 }, async () => {
    const r = await initialized();
    const cases: [string, string | number | null][] = [
      ['[1,2]', null],
      ['42', null],
      ['null', null],
      ['"ping"', null],
      ['{}', null],
      ['{"jsonrpc":"2.0","id":7}', 7],
      ['{"jsonrpc":"1.0","id":8,"method":"tools/list"}', 8],
      ['{"jsonrpc":"2.0","id":"s-9","method":5}', 's-9'],
      ['{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}', null],
      ['[{"jsonrpc":"2.0","id":10,"method":"tools/list"}]', null],
    ];
    for (const [bad, id] of cases) {
      await r.write(`${bad}\n`);
      expect(await r.next(), bad).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32600 } });
    }
    await stillServing(r, 11);
  });

  test('a request whose params are not an object: -32602 with its id', { timeout: 60_000 }, async () => {
    const r = await initialized();
    for (const [id, params] of [
      [1, 5],
      [2, [1, 2]],
      [3, 'x'],
      [4, null],
    ] as const) {
      await r.write(request(id, 'tools/call', params));
      expect(await r.next(), JSON.stringify(params)).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32602 } });
    }
    await stillServing(r, 5);
  });

  test('blank lines are skipped, CRLF accepted, a message split across writes joined; end of input ends the server', { timeout: 60_000 }, async () => {
    const r = await initialized();
    await r.write('\n  \r\n');
    const message = request(1, 'tools/list').replace('\n', '\r\n');
    await r.write(message.slice(0, 10));
    await r.write(message.slice(10));
    expect((await r.next()).id).toBe(1);
    r.child.stdin.end();
    expect(await r.exited).toEqual({ code: 0, signal: null });
  });
});
