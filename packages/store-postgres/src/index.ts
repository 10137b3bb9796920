/**
 * @ratchet/store-postgres: the PostgreSQL backend of Ratchet's storage port (`StorageBackend` in
 * `@ratchet/store`), for fleets: many machines sharing one database. See README.md for what is
 * shared, the URL format, migrations, the pool and errors. Throwaway clusters for tests are in
 * `@ratchet/store-postgres/testing`.
 */
export { DEFAULT_MAX_DOCUMENT_BYTES, createPostgresBackend, type PostgresBackendOptions } from './backend.js';
export { SCHEMA_VERSION } from './schema.js';
