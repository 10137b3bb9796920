/**
 * Versioned JSON documents: `{ "$schema"?, "schemaVersion": n, ...data }`. The store owns the two
 * envelope keys; the caller's schema describes the rest. Reads never lock (writes are atomic renames,
 * so a reader sees a whole old or whole new file); updates are locked read-modify-write through lowdb
 * with our own adapter (lowdb's JSONFile shares one temp name and has no lock; JSONFilePreset even
 * swaps in memory storage under NODE_ENV=test).
 */
import { resolve } from 'node:path';
import type { Adapter } from 'lowdb';
import { checkDigest, writeTracked } from './digest.js';
import { NotFoundError, SchemaVersionError, ValidationError, type Place } from './errors.js';
import { locate, parseJson } from './json-parse.js';
import { confined, lockedUpdate, type WriterOptions } from './locked-update.js';
import { readTextFileSync } from './read-file.js';
import { validate, type Schema } from './validate.js';

type JsonObject = Record<string, unknown>;

/** Turns data of schemaVersion n (without the envelope keys) into data of version n + 1. */
export type Migration = (data: JsonObject) => JsonObject;

export interface DocumentDefinitionInput<T extends object> {
  /** Describes the document without `$schema` and `schemaVersion`. */
  schema: Schema<T>;
  /** Current schemaVersion (integer >= 1). Files with a higher version are refused. */
  version: number;
  /** URL written as `$schema` (editors use it for completion). */
  $schema?: string;
  /** `{ 1: v1ToV2, 2: v2ToV3 }`: run in order on read, persisted by the next update. */
  migrations?: Readonly<Record<number, Migration>>;
  /** The value `read` returns (and `update` starts from) when the file does not exist. */
  initial: T;
}

export interface DocumentDefinition<T extends object> {
  readonly schema: Schema<T>;
  readonly version: number;
  readonly $schema: string | undefined;
  readonly migrations: Readonly<Record<number, Migration>>;
  readonly initial: T;
}

export type DocumentOptions = WriterOptions;

export interface Document<T extends object> {
  /** Absolute path of the file. */
  readonly path: string;
  /** Current value (migrated in memory if the file is older); the initial value if the file does not exist. */
  read(): Promise<T>;
  /**
   * `read`, synchronously: for CLI commands that only read one small state file, where the async
   * file-handle machinery costs more start-up time than the read itself.
   */
  readSync(): T;
  /**
   * Locked read-modify-write. `fn` gets the current value (fresh from disk, migrated, validated) and
   * may mutate it or return a new one; the result is validated and written atomically, and returned.
   * If `fn` throws, or the file or the result is invalid, nothing is written.
   */
  update(fn: (draft: T) => T | void | Promise<T | void>): Promise<T>;
}

const ENVELOPE = new Set(['$schema', 'schemaVersion']);

export function defineDocument<T extends object>(input: DocumentDefinitionInput<T>): DocumentDefinition<T> {
  const { schema, version, $schema, migrations = {}, initial } = input;
  if (typeof schema?.safeParse !== 'function') throw new TypeError('defineDocument: schema must have a safeParse method (a zod schema)');
  if (!Number.isSafeInteger(version) || version < 1) throw new RangeError(`defineDocument: version must be an integer >= 1, got ${String(version)}`);
  if ($schema !== undefined && typeof $schema !== 'string') throw new TypeError('defineDocument: $schema must be a string');
  for (const [key, fn] of Object.entries(migrations)) {
    const from = Number(key);
    if (!Number.isSafeInteger(from) || from < 1 || from >= version) throw new RangeError(`defineDocument: migration key ${key} must be a version from 1 to ${version - 1}`);
    if (typeof fn !== 'function') throw new TypeError(`defineDocument: migration ${key} must be a function`);
  }
  if (!isJsonObject(initial)) throw new TypeError('defineDocument: initial must be a plain object');
  return Object.freeze({ schema, version, $schema, migrations: Object.freeze({ ...migrations }), initial });
}

export function openDocument<T extends object>(path: string, definition: DocumentDefinition<T>, options: DocumentOptions = {}): Document<T> {
  const file = resolve(path);
  const initialValue = (): T => initialOf(definition, file);
  /**
   * Decode (migrate, validate) first, so a broken or invalid file is reported with its places; then
   * check the digest: a valid file Ratchet did not write is a TamperedError. A reader that raced a
   * writer continues with the text the check verified.
   */
  const load = (adapter: SafeJsonFile, raw: JsonObject | null): T => {
    // No file: the journal may know Ratchet wrote one (then its absence is tampering, not "empty").
    if (raw === null) {
      adapter.verify();
      return initialValue();
    }
    const text = adapter.text ?? '';
    const value = decode(definition, raw, text, file);
    const verified = adapter.verify();
    if (verified === text) return value;
    const again = verified === undefined ? null : adapter.parseText(verified);
    return again === null ? initialValue() : decode(definition, again, verified ?? '', file);
  };
  return {
    path: file,
    async read() {
      const adapter = new SafeJsonFile(confined(file, options), options);
      return load(adapter, await adapter.read());
    },
    readSync() {
      const adapter = new SafeJsonFile(confined(file, options), options);
      return load(adapter, adapter.readSync());
    },
    async update(fn) {
      return lockedUpdate(file, options, async (beforeRename) => {
        const adapter = new SafeJsonFile(file, options, beforeRename);
        // Loaded on first update only: read-only callers (most CLI commands) never pay for it.
        const { Low } = await import('lowdb');
        const db = new Low<JsonObject>(adapter, MISSING);
        await db.read();
        const current = load(adapter, db.data === MISSING ? null : db.data);
        const returned = await fn(current);
        const next = validate(definition.schema, returned ?? current, { path: file, source: 'update' });
        db.data = envelope(definition, next);
        await db.write();
        return next;
      });
    },
  };
}

/** @internal The definition's initial value, validated (a copy: callers may mutate it). */
export function initialOf<T extends object>(definition: DocumentDefinition<T>, where: string): T {
  const result = definition.schema.safeParse(structuredClone(definition.initial));
  if (!result.success) throw new TypeError(`the initial value of the document definition for ${where} does not match its schema: ${result.error.issues[0]?.message ?? ''}`);
  return result.data;
}

// lowdb keeps its default when the adapter reads nothing; this sentinel tells "no file" apart.
const MISSING: JsonObject = Object.freeze({});

/**
 * lowdb adapter: reads through the guarded reader and the safe parser, checks the text against the
 * digest Ratchet recorded (digest.ts), writes with a unique temp file, fsync and rename, recording
 * the new digest. `text` keeps what was read so schema issues can be given a line.
 */
class SafeJsonFile implements Adapter<JsonObject> {
  text: string | undefined;

  constructor(
    private readonly path: string,
    private readonly options: DocumentOptions,
    private readonly beforeRename?: () => Promise<void>,
  ) {}

  /**
   * Synchronous underneath, like every read of a state file: they are small (16 MiB at most), and the
   * promise-based FileHandle machinery costs about 5 ms on its first use in a process, which hooks
   * and CLI commands would pay on every call.
   */
  // eslint-disable-next-line @typescript-eslint/require-await -- lowdb's Adapter wants a promise
  async read(): Promise<JsonObject | null> {
    return this.readSync();
  }

  readSync(): JsonObject | null {
    const text = this.reread();
    return text === undefined ? null : this.parse(text);
  }

  /** The text read, once checked against the digest record (a re-read one after a race; undefined: the file is gone). */
  verify(): string | undefined {
    return checkDigest(this.path, this.text, () => this.reread());
  }

  parseText(text: string): JsonObject {
    return this.parse(text);
  }

  private reread(): string | undefined {
    try {
      return readTextFileSync(this.path, this.readOptions()).text;
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  }

  private readOptions(): { maxBytes?: number } {
    return this.options.maxBytes === undefined ? {} : { maxBytes: this.options.maxBytes };
  }

  private parse(text: string): JsonObject {
    this.text = text;
    const value = parseJson(text, { path: this.path });
    if (!isJsonObject(value)) {
      const found = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
      throw new ValidationError(this.path, [{ pointer: '', message: `expected a JSON object with "schemaVersion", found ${found}`, ...placeOf(text, '') }], 'file');
    }
    return value;
  }

  async write(data: JsonObject): Promise<void> {
    const writtenAt = new Date((this.options.lock?.clock ?? Date.now)()).toISOString();
    // `text` is what the update read inside the lock (undefined: no file), checked against its digest.
    // The limit this document is read with: a write the next read would refuse is refused instead.
    await writeTracked(this.path, `${JSON.stringify(data, null, 2)}\n`, {
      writtenAt,
      replacing: this.text,
      ...(this.beforeRename === undefined ? {} : { beforeRename: this.beforeRename }),
      ...(this.options.maxBytes === undefined ? {} : { maxBytes: this.options.maxBytes }),
    });
  }
}

/** @internal Migrate and validate a stored document's raw value (with its envelope keys). */
export function decode<T extends object>(definition: DocumentDefinition<T>, raw: JsonObject, text: string, path: string): T {
  const supported = definition.version;
  const found = raw.schemaVersion;
  if (found === undefined) {
    throw new SchemaVersionError(path, `has no "schemaVersion" (expected an integer from 1 to ${supported})`, found, supported, { pointer: '', ...placeOf(text, '') });
  }
  if (typeof found !== 'number' || !Number.isSafeInteger(found) || found < 1) {
    throw new SchemaVersionError(path, `"schemaVersion" must be an integer >= 1, found ${JSON.stringify(found)}`, found, supported, placeOf(text, '/schemaVersion', true));
  }
  if (found > supported) {
    throw new SchemaVersionError(
      path,
      `written by a newer version: schemaVersion ${found}, this reader supports up to ${supported}; upgrade Ratchet (the package that owns this file) to read or change it`,
      found,
      supported,
      placeOf(text, '/schemaVersion', true),
    );
  }
  // Editors fetch the schema from this URL, and the shipped JSON Schemas say it is a string: a file
  // the schema refuses is not read as valid either.
  if (raw.$schema !== undefined && typeof raw.$schema !== 'string') {
    throw new ValidationError(path, [{ pointer: '/$schema', message: `"$schema" must be a string (the URL of the file's JSON Schema), found ${JSON.stringify(raw.$schema)}`, ...placeOf(text, '/$schema', true) }], 'file');
  }
  let data = withoutEnvelope(raw);
  for (let from = found; from < supported; from++) {
    const migrate = definition.migrations[from];
    if (migrate === undefined) {
      throw new SchemaVersionError(path, `schemaVersion ${found} is too old: there is no migration from ${from} to ${from + 1}`, found, supported, placeOf(text, '/schemaVersion', true));
    }
    let next: unknown;
    try {
      next = migrate(data);
    } catch (err) {
      throw new SchemaVersionError(path, `migrating from schemaVersion ${from} to ${from + 1} failed: ${err instanceof Error ? err.message : String(err)}`, found, supported);
    }
    if (!isJsonObject(next)) throw new SchemaVersionError(path, `the migration from schemaVersion ${from} to ${from + 1} did not return an object`, found, supported);
    data = withoutEnvelope(next);
  }
  const migrated = found !== supported;
  // After a migration the pointers describe the new shape, which the file's text does not have.
  return validate(definition.schema, data, { path, source: 'file', text: migrated ? undefined : text, context: migrated ? ` after migrating from schemaVersion ${found}` : '' });
}

/** @internal The stored form of `data`: `$schema` and `schemaVersion` first, then the data. */
export function envelope<T extends object>(definition: DocumentDefinition<T>, data: T): JsonObject {
  const out: JsonObject = {};
  if (definition.$schema !== undefined) out.$schema = definition.$schema;
  out.schemaVersion = definition.version;
  return withoutEnvelope(data as JsonObject, out);
}

function withoutEnvelope(data: JsonObject, out: JsonObject = {}): JsonObject {
  for (const [key, value] of Object.entries(data)) {
    // defineProperty, not assignment: a "__proto__" key must stay data, never become a prototype.
    if (!ENVELOPE.has(key)) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function placeOf(text: string, pointer: string, withPointer = false): Place {
  const at = locate(text, pointer);
  const place: Place = at === undefined ? {} : { line: at.line, column: at.column };
  if (withPointer) place.pointer = pointer;
  return place;
}

function isJsonObject(value: unknown): value is JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
