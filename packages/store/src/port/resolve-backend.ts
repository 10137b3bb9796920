/**
 * Which backend a project's state lives in. `RATCHET_STORE` (`file`, or a `postgres://` /
 * `postgresql://` URL) overrides the `store` section of `ratchet.config.json`
 * (`{ "url": "...", "project": "..." }`); the default is the file backend at the project root.
 *
 * `@ratchet/store` never imports `pg`: the PostgreSQL backend is loaded with a dynamic `import()`
 * of `@ratchet/store-postgres`, only when a PostgreSQL URL is configured. `storageKind` answers
 * "file or not" synchronously from the environment and one small file, so CLI commands can keep
 * their file-only fast paths without loading any of this.
 */
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { BackendUnavailableError, StoreError, errnoCode } from '../errors.js';
import { createFileBackend } from '../file-backend/backend.js';
import { parseJson } from '../json-parse.js';
import type { StorageBackend } from './storage-port.js';
import { redactUrl } from './redact-url.js';

export const CONFIG_FILE = 'ratchet.config.json';
export const STORE_ENV = 'RATCHET_STORE';
export const PROJECT_ENV = 'RATCHET_STORE_PROJECT';
export const POSTGRES_PACKAGE = '@ratchet/store-postgres';

export type StorageKind = 'file' | 'postgres';

/** The `store` section of `ratchet.config.json`. */
export interface StoreConfig {
  /** `file` or a PostgreSQL URL. */
  url?: string;
  /** Project id in a shared database (default: the project root's directory name). */
  project?: string;
}

export interface ResolveBackendOptions {
  /** Environment to read `RATCHET_STORE` / `RATCHET_STORE_PROJECT` from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The config's `store` section; when absent it is read from `<root>/ratchet.config.json`. */
  config?: StoreConfig;
}

/** What the environment and config select: the kind, the URL (postgres) and the project id. */
export interface StoreSettings {
  kind: StorageKind;
  /** The PostgreSQL URL (with its password: never print it, use `redactUrl`). */
  url: string | undefined;
  project: string;
  /** Where the choice came from, for messages: `RATCHET_STORE` or the config file. */
  source: string;
}

/** The module `@ratchet/store-postgres` must export. */
export interface PostgresBackendModule {
  /** Creating a backend connects to nothing (the pool opens on first use), so it may be synchronous. */
  createPostgresBackend(options: { url: string; project: string }): StorageBackend | Promise<StorageBackend>;
}

/** `file` or `postgres`, synchronously, without loading any backend. */
export function storageKind(root: string, env: Readonly<Record<string, string | undefined>> = process.env): StorageKind {
  return storeSettings(root, { env }).kind;
}

/** The backend choice for the project at `root` (see the module comment for precedence). */
export function storeSettings(root: string, options: ResolveBackendOptions = {}): StoreSettings {
  const env = options.env ?? process.env;
  const fromEnv = env[STORE_ENV];
  const configPath = join(resolve(root), CONFIG_FILE);
  const config = options.config ?? readStoreConfig(configPath);
  const project = nonEmpty(env[PROJECT_ENV]) ?? nonEmpty(config.project) ?? basename(resolve(root));
  const [value, source] = nonEmpty(fromEnv) !== undefined ? [fromEnv as string, STORE_ENV] : [config.url, `${configPath} (store.url)`];
  if (value === undefined || value.trim() === '' || value.trim() === 'file') return { kind: 'file', url: undefined, project, source };
  if (/^postgres(?:ql)?:\/\//iu.test(value.trim())) return { kind: 'postgres', url: value.trim(), project, source };
  throw new BackendUnavailableError(source, `unknown store ${JSON.stringify(redactUrl(value))}: use "file" or a postgres:// (postgresql://) URL`);
}

/**
 * The backend for the project at `root`: the file backend (default), or `@ratchet/store-postgres`
 * loaded on demand. A missing PostgreSQL package is a BackendUnavailableError saying how to install it.
 */
export async function resolveStorageBackend(root: string, options: ResolveBackendOptions = {}): Promise<StorageBackend> {
  const settings = storeSettings(root, options);
  if (settings.kind === 'file') {
    return createFileBackend(root);
  }
  const url = settings.url as string;
  const module = await loadPostgres(redactUrl(url));
  return module.createPostgresBackend({ url, project: settings.project });
}

async function loadPostgres(location: string): Promise<PostgresBackendModule> {
  // A variable specifier: neither tsc nor a bundler follows it, so `pg` is never pulled in statically.
  const specifier: string = POSTGRES_PACKAGE;
  let loaded: unknown;
  try {
    loaded = await import(specifier);
  } catch (err) {
    const code = errnoCode(err);
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((err as Error).message).includes(POSTGRES_PACKAGE)) {
      throw new BackendUnavailableError(
        location,
        `a PostgreSQL store is configured but ${POSTGRES_PACKAGE} is not installed; install it next to Ratchet (npm install ${POSTGRES_PACKAGE}) or set ${STORE_ENV}=file`,
        { cause: err },
      );
    }
    throw err;
  }
  const create = (loaded as Partial<PostgresBackendModule> | null)?.createPostgresBackend;
  if (typeof create !== 'function') throw new BackendUnavailableError(location, `${POSTGRES_PACKAGE} does not export createPostgresBackend: reinstall a version matching @ratchet/store`);
  return { createPostgresBackend: create };
}

/** The `store` section of the config file; {} when there is no file or no section. */
export function readStoreConfig(configPath: string): StoreConfig {
  let text: string;
  try {
    text = readFileSync(configPath, 'utf8');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') return {};
    throw new BackendUnavailableError(configPath, `cannot read the project config: ${(err as Error).message}`, { cause: err });
  }
  const value = parseJson(text.replace(/^\uFEFF/u, ''), { path: configPath });
  const store = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>).store : undefined;
  if (store === undefined) return {};
  if (typeof store !== 'object' || store === null || Array.isArray(store)) throw new StoreError('validation-error', configPath, '"store" must be an object like { "url": "postgres://...", "project": "name" }', { pointer: '/store' });
  const { url, project } = store as Record<string, unknown>;
  if (url !== undefined && typeof url !== 'string') throw new StoreError('validation-error', configPath, '"store.url" must be a string ("file" or a postgres:// URL)', { pointer: '/store/url' });
  if (project !== undefined && typeof project !== 'string') throw new StoreError('validation-error', configPath, '"store.project" must be a string', { pointer: '/store/project' });
  return { ...(url === undefined ? {} : { url }), ...(project === undefined ? {} : { project }) };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
