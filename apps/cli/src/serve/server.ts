/**
 * The dashboard's HTTP server: the page and its assets (shipped in the package, served from a fixed
 * list, never from a path in the request), the snapshot as JSON, and a server-sent event stream
 * that starts with the snapshot and then carries patches. Read-only by construction: GET and HEAD
 * only, no route writes anything, so the page cannot become a way to act as the user.
 *
 * A page on another origin can make a browser send requests to 127.0.0.1, and a DNS name pointed
 * at 127.0.0.1 ("DNS rebinding") would make them same-origin: requests whose Host is not the
 * address the server was started on are refused, and nothing is served with CORS headers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import type { Snapshot, SnapshotPatch } from './model.js';

/** The page's files: request path -> file name under the assets directory, and its type. */
export const PAGE_FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/layout-worker.js': { file: 'layout-worker.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
  '/favicon.svg': { file: 'favicon.svg', type: 'image/svg+xml' },
  '/THIRD_PARTY_NOTICES.txt': { file: 'THIRD_PARTY_NOTICES.txt', type: 'text/plain; charset=utf-8' },
};

/** Scripts only from the server itself; no inline script or style, no framing, nothing sent elsewhere. */
export const CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; worker-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

/** A slow client whose unsent events pass this is dropped; its EventSource reconnects to a fresh snapshot. */
const MAX_BUFFERED = 16 * 1024 * 1024;
const KEEPALIVE_MS = 15_000;

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return /^::ffff:127\./.test(h);
}

export interface DashboardServerOptions {
  /** Where the page's files are (assets/serve). */
  assetsDir: string;
  /** The snapshot a new page or stream starts from. */
  snapshot: () => Snapshot;
}

export interface DashboardServer {
  readonly server: Server;
  /** Sends a patch to every open stream. */
  broadcast(patch: SnapshotPatch): void;
  /** Sends every open stream a fresh snapshot (after an error the patches cannot express). */
  resync(): void;
  readonly clients: number;
  listen(port: number, host: string): Promise<{ port: number; host: string }>;
  close(): Promise<void>;
}

export function createDashboardServer(options: DashboardServerOptions): DashboardServer {
  const streams = new Set<ServerResponse>();
  let allowedHosts = new Set<string>();
  /** Bound to every interface (asked for with --host 0.0.0.0): clients name it however they reach it. */
  let anyHost = false;
  const files = new Map<string, Buffer>();

  const send = (res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void => {
    res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...extra });
    res.end(res.req.method === 'HEAD' ? undefined : body);
  };

  const event = (name: string, data: unknown): string => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

  const write = (res: ServerResponse, text: string): void => {
    if (res.writableLength > MAX_BUFFERED) {
      streams.delete(res);
      res.destroy();
      return;
    }
    res.write(text);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'text/plain; charset=utf-8', 'read-only: GET and HEAD only\n', { allow: 'GET, HEAD' });
      return;
    }
    const host = (req.headers.host ?? '').toLowerCase();
    if (!anyHost && !allowedHosts.has(host)) {
      send(res, 421, 'text/plain; charset=utf-8', `this server answers only as ${[...allowedHosts][0] ?? 'its own address'}\n`);
      return;
    }
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const page = PAGE_FILES[path];
    if (page !== undefined) {
      let body = files.get(page.file);
      if (body === undefined) {
        body = await readFile(`${options.assetsDir}/${page.file}`);
        files.set(page.file, body);
      }
      send(res, 200, page.type, body, { 'cache-control': 'no-cache' });
      return;
    }
    if (path === '/api/snapshot') {
      send(res, 200, 'application/json; charset=utf-8', JSON.stringify(options.snapshot()), { 'cache-control': 'no-store' });
      return;
    }
    if (path === '/api/events') {
      res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      res.socket?.setNoDelay(true);
      streams.add(res);
      req.on('close', () => streams.delete(res));
      // The browser reconnects after a second if the stream drops; the first event is always whole.
      write(res, `retry: 1000\n${event('snapshot', options.snapshot())}`);
      return;
    }
    send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `internal error: ${(err as Error).message}\n`);
      else res.destroy();
    });
  });
  const keepalive = setInterval(() => {
    for (const res of streams) write(res, ': keep-alive\n\n');
  }, KEEPALIVE_MS);
  keepalive.unref();

  return {
    server,
    get clients() {
      return streams.size;
    },
    broadcast(patch) {
      if (streams.size === 0) return;
      const text = event('patch', patch);
      for (const res of streams) write(res, text);
    },
    resync() {
      if (streams.size === 0) return;
      const text = event('snapshot', options.snapshot());
      for (const res of streams) write(res, text);
    },
    listen(port, host) {
      return new Promise((resolvePromise, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address();
          const bound = typeof address === 'object' && address !== null ? address.port : port;
          const shown = host.includes(':') ? `[${host}]` : host;
          allowedHosts = new Set([`${shown}:${bound}`.toLowerCase()]);
          anyHost = host === '0.0.0.0' || host === '::';
          // The loopback names of a loopback server are the same machine; any other name is not.
          if (isLoopback(host)) for (const alias of ['localhost', '127.0.0.1', '[::1]']) allowedHosts.add(`${alias}:${bound}`);
          resolvePromise({ port: bound, host });
        });
      });
    },
    close() {
      clearInterval(keepalive);
      for (const res of streams) res.end();
      streams.clear();
      return new Promise((resolvePromise) => {
        server.close(() => resolvePromise());
        server.closeAllConnections();
      });
    },
  };
}
