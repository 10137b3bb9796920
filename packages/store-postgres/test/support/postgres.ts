import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import pg from 'pg';
import { describe, inject } from 'vitest';
import { createPostgresBackend, type PostgresBackendOptions } from '../../src/index.js';
import type { StorageBackend } from '@ratchet/store';

export const pgUrl = inject('pgUrl');

/** `describe` when the run has a PostgreSQL cluster; a loudly skipped `describe` otherwise (see global-setup.ts). */
export function describePg(name: string, fn: () => void): void {
  describe.skipIf(!pgUrl)(name, fn);
}

/** A project id no other test uses: every row is keyed by project, so tests share one database safely. */
export const freshProject = (label = 'p'): string => `${label}-${randomBytes(5).toString('hex')}`;

/** Backends opened by a test file, closed by its afterAll. */
const opened: StorageBackend[] = [];
export function openBackend(options: Partial<PostgresBackendOptions> = {}): StorageBackend {
  const backend = createPostgresBackend({ url: pgUrl, project: freshProject(), ...options });
  opened.push(backend);
  return backend;
}
export async function closeBackends(): Promise<void> {
  await Promise.all(opened.splice(0).map((b) => b.close()));
}

/** Runs `fn` with a plain client on `url` (default: the run's cluster). */
export async function withClient<T>(fn: (client: pg.Client) => Promise<T>, url = pgUrl): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The ratchet_* tables of the database at `url`, sorted. */
export async function ratchetTables(url: string): Promise<string[]> {
  const rows = await withClient((c) => c.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE tablename LIKE 'ratchet%' ORDER BY 1`), url);
  return rows.rows.map((r) => r.t);
}

/** A new empty database in the run's cluster; its URL. */
export async function freshDatabase(): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withClient((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx');
const workerFile = fileURLToPath(new URL('../workers/worker.ts', import.meta.url));
export const conformanceWorker = fileURLToPath(new URL('../workers/conformance-worker.ts', import.meta.url));

/** NODE_OPTIONS for child processes that import this package's TypeScript source (and @ratchet/* sources). */
export function childNodeOptions(existing = ''): string {
  const ours = `--conditions=@ratchet/source --import ${tsx}`;
  return existing.includes(ours) ? existing : `${existing} ${ours}`.trim();
}

/** The worker's command line: the package source under tsx, resolving @ratchet/* to sources too. */
export function workerCommand(args: string[]): [string, string[]] {
  return [process.execPath, ['--conditions=@ratchet/source', '--import', tsx, workerFile, ...args]];
}

/** Runs the worker (test/workers/worker.ts) to completion; its stdout parsed as JSON. */
export function runWorker<T>(args: string[]): Promise<T> {
  const [cmd, argv] = workerCommand(args);
  return new Promise((resolve, reject) => {
    execFile(cmd, argv, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`worker ${args.join(' ')} failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as T);
    });
  });
}
