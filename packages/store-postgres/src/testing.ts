/**
 * Throwaway PostgreSQL for tests, benches and examples: `startTestCluster()` gives a database URL
 * and a `stop()` that removes everything it made.
 *
 * - `RATCHET_TEST_PG_URL` set: a fresh database in that server per call (dropped on stop).
 * - Otherwise: a new cluster from the PostgreSQL binaries on this machine (`initdb`, `pg_ctl`,
 *   `postgres` on PATH, else `/usr/lib/postgresql/<version>/bin`), in a temp directory, listening
 *   only on a unix socket in that directory (no TCP), trust authentication on that socket only.
 *   `initdb` refuses to run as root, so as root the cluster runs as `nobody`.
 *
 * `testClusterAvailability()` says whether either is possible, so a suite can skip loudly instead.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, chownSync, constants, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';

export interface TestCluster {
  /** A database URL nobody else uses (a unix-socket URL for a local cluster). */
  readonly url: string;
  /** Drops the database, or stops the cluster and removes its directory. Safe to call twice. */
  stop(): Promise<void>;
  /**
   * A local cluster only: kill the server as a crash would (`pg_ctl stop -m immediate`: every
   * connection dropped mid-statement, no checkpoint), keeping its data for `restart`.
   */
  crash?(): Promise<void>;
  /** A local cluster only: start the server again on the same data (crash recovery runs). */
  restart?(): Promise<void>;
}

export type Availability = { available: true; via: 'RATCHET_TEST_PG_URL' | 'binaries'; bin?: string } | { available: false; reason: string };

export const INSTALL_HINT =
  'install PostgreSQL (Debian/Ubuntu: apt-get install postgresql; macOS: brew install postgresql) so initdb and pg_ctl are found, or set RATCHET_TEST_PG_URL=postgres://user:password@host/db to a server where that user may create databases';

const canRun = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Where to look for the binaries (the defaults are PATH and Debian's versioned directories). */
export interface SearchOptions {
  path?: string | undefined;
  libDir?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

/** The directory holding initdb, pg_ctl and postgres, or undefined. Newest Debian version first. */
export function findPostgresBin(options: SearchOptions = {}): string | undefined {
  const tools = ['initdb', 'pg_ctl', 'postgres'];
  const libDir = options.libDir ?? '/usr/lib/postgresql';
  const candidates = ((options.path ?? process.env.PATH) || '').split(delimiter).filter(Boolean);
  const versions = existsSync(libDir)
    ? readdirSync(libDir)
        .filter((v) => /^\d+$/u.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  candidates.push(...versions.map((v) => join(libDir, v, 'bin')));
  return candidates.find((dir) => tools.every((t) => canRun(join(dir, t))));
}

export function testClusterAvailability(options: SearchOptions = {}): Availability {
  if ((options.env ?? process.env).RATCHET_TEST_PG_URL) return { available: true, via: 'RATCHET_TEST_PG_URL' };
  const bin = findPostgresBin(options);
  if (bin) return { available: true, via: 'binaries', bin };
  return { available: false, reason: `no PostgreSQL for the tests: initdb/pg_ctl/postgres not found on PATH or in /usr/lib/postgresql/*/bin, and RATCHET_TEST_PG_URL is not set; ${INSTALL_HINT}` };
}

export async function startTestCluster(): Promise<TestCluster> {
  const shared = process.env.RATCHET_TEST_PG_URL;
  if (shared) return freshDatabase(shared);
  const bin = findPostgresBin();
  if (!bin) throw new Error(testClusterAvailability().available ? 'unreachable' : `cannot start a test cluster: ${INSTALL_HINT}`);
  return localCluster(bin);
}

/** A new database in an existing server, dropped (with any connections still open) on stop. */
async function freshDatabase(adminUrl: string): Promise<TestCluster> {
  const name = `ratchet_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let stopped = false;
  return {
    url: url.toString(),
    async stop() {
      if (stopped) return;
      stopped = true;
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** As root, run the PostgreSQL tools as `nobody` (initdb and postgres refuse to run as root). */
function asClusterUser(dir: string): { wrap: (cmd: string, args: string[]) => [string, string[]] } {
  if (process.getuid?.() !== 0) return { wrap: (cmd, args) => [cmd, args] };
  const uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim());
  chownSync(dir, uid, gid);
  const runuser = ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find(canRun);
  if (runuser) return { wrap: (cmd, args) => [runuser, ['-u', 'nobody', '--', cmd, ...args]] };
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find(canRun);
  if (setpriv) return { wrap: (cmd, args) => [setpriv, [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', cmd, ...args]] };
  throw new Error('running as root, and neither runuser nor setpriv is available to run initdb as an unprivileged user');
}

function run(cmd: string, args: string[], what: string): void {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd: '/', env: { ...process.env, LC_ALL: 'C', LANG: 'C' } });
  if (r.status !== 0) throw new Error(`${what} failed (${r.error?.message ?? `exit ${r.status}`}):\n${`${r.stdout}${r.stderr}`.trim().slice(-2000)}`);
}

const live = new Set<() => void>();
let exitHookInstalled = false;

function localCluster(bin: string): TestCluster {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-pg-'));
  const data = join(dir, 'data');
  const user = asClusterUser(dir);
  const pgCtl = join(bin, 'pg_ctl');
  // No fsync: the cluster is thrown away, and fsync on a shared CI disk costs seconds per test. But a
  // commit is written to the WAL before it is acknowledged (synchronous_commit stays on, a write
  // without fsync): the crash test kills the server, and a commit it acknowledged must survive that.
  const serverOptions = `-k ${dir} -c listen_addresses= -c fsync=off -c full_page_writes=off -c max_connections=200`;
  const stopNow = (): void => {
    live.delete(stopNow);
    const [cmd, args] = user.wrap(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
    spawnSync(cmd, args, { stdio: 'ignore', cwd: '/' });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run(...user.wrap(join(bin, 'initdb'), ['-D', data, '-U', 'ratchet', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']), 'initdb');
    // Trust on the cluster's own unix socket only; it does not listen on TCP at all.
    writeFileSync(join(data, 'pg_hba.conf'), 'local all all trust\n');
    live.add(stopNow);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      const stopAll = (): void => {
        for (const stop of [...live]) stop();
      };
      process.once('exit', stopAll);
      // 'exit' does not run when a signal kills the process: stop the clusters, then let the signal
      // do what it would have done (unless someone else handles it).
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
        process.once(signal, () => {
          stopAll();
          if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
        });
      }
    }
    run(...user.wrap(pgCtl, ['-D', data, '-l', join(dir, 'server.log'), '-o', serverOptions, '-w', '-t', '60', 'start']), 'pg_ctl start');
  } catch (err) {
    stopNow();
    throw err;
  }
  const start = (): void => run(...user.wrap(pgCtl, ['-D', data, '-l', join(dir, 'server.log'), '-o', serverOptions, '-w', '-t', '60', 'start']), 'pg_ctl start');
  return {
    // A valid WHATWG URL (so it can be parsed and redacted); `host=` makes pg use the socket
    // directory. Slashes stay readable; anything odd in TMPDIR is escaped.
    url: `postgres://ratchet@localhost/postgres?host=${dir.split('/').map(encodeURIComponent).join('/')}`,
    stop() {
      if (live.has(stopNow)) stopNow();
      return Promise.resolve();
    },
    crash() {
      if (live.has(stopNow)) run(...user.wrap(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']), 'pg_ctl stop -m immediate');
      return Promise.resolve();
    },
    restart() {
      if (live.has(stopNow)) start();
      return Promise.resolve();
    },
  };
}
