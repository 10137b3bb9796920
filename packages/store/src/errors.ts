/**
 * Every failure @ratchet/store reports about a file is a StoreError with a stable `code` and the
 * `path` it concerns, plus a place (line/column and/or JSON pointer) when one is known. The CLI turns
 * these fields into `file:line:col: message` without knowing the subclasses. Misuse of the API
 * itself (bad options) throws plain TypeError/RangeError instead: that is a bug, not bad input.
 */

export type StoreErrorCode =
  | 'not-found'
  | 'not-a-file'
  | 'file-too-large'
  | 'binary-file'
  | 'parse-error'
  | 'unsafe-input'
  | 'validation-error'
  | 'schema-version'
  | 'lock-timeout'
  | 'lock-lost'
  | 'lock-not-held'
  | 'lock-corrupt'
  | 'tampered'
  | 'io-error'
  | 'outside-root'
  | 'revision-conflict'
  | 'lease-lost'
  | 'document-too-large'
  | 'backend-unavailable'
  | 'backend-schema'
  | 'invalid-key';

/** Where in a file a problem is. `line` and `column` are 1-based; columns count UTF-16 code units. */
export interface Place {
  line?: number | undefined;
  column?: number | undefined;
  /** RFC 6901 JSON pointer ("" is the whole document). */
  pointer?: string | undefined;
}

export class StoreError extends Error {
  readonly code: StoreErrorCode;
  /** The file the error is about (absolute when the caller passed an absolute path). */
  readonly path: string;
  /** The message without the path and place prefix, for callers that format places themselves. */
  readonly reason: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly pointer: string | undefined;

  constructor(code: StoreErrorCode, path: string, reason: string, place: Place = {}, options?: { cause?: unknown }) {
    super(formatMessage(path, reason, place), options);
    this.name = new.target.name;
    this.code = code;
    this.path = path;
    this.reason = reason;
    this.line = place.line;
    this.column = place.column;
    this.pointer = place.pointer;
  }
}

function formatMessage(path: string, reason: string, place: Place): string {
  const where: string[] = [];
  if (place.line !== undefined) where.push(`line ${place.line}, column ${place.column ?? 1}`);
  if (place.pointer !== undefined) where.push(`at ${place.pointer === '' ? '(document root)' : place.pointer}`);
  return where.length > 0 ? `${path}: ${reason} (${where.join(', ')})` : `${path}: ${reason}`;
}

/** The file (or a directory on its path) does not exist. */
export class NotFoundError extends StoreError {
  constructor(path: string, reason = 'no such file', options?: { cause?: unknown }) {
    super('not-found', path, reason, {}, options);
  }
}

/** The path names a directory, FIFO, device or socket where a regular file was expected. */
export class NotAFileError extends StoreError {
  constructor(path: string, what: string) {
    super('not-a-file', path, `is a ${what}, not a regular file`);
  }
}

export class FileTooLargeError extends StoreError {
  readonly size: number;
  readonly maxBytes: number;
  /** True when the file was not written: the new content would be over the limit its readers use. */
  readonly write: boolean;
  /** `line`: one line of a file read line by line (readLinesSync) is over the limit, not the file. */
  constructor(path: string, size: number, maxBytes: number, options: { write?: boolean; line?: number } = {}) {
    super(
      'file-too-large',
      path,
      options.write === true
        ? `refused to write ${formatBytes(size)}: over the ${formatBytes(maxBytes)} limit Ratchet reads this file with, so the next read would fail; the file is unchanged`
        : options.line !== undefined
          ? `the line is ${formatBytes(size)}, over the ${formatBytes(maxBytes)} limit for one line`
          : `file is ${formatBytes(size)}, over the ${formatBytes(maxBytes)} limit for files Ratchet reads (raise maxBytes if this is intended)`,
      options.line === undefined ? {} : { line: options.line, column: 1 },
    );
    this.write = options.write === true;
    this.size = size;
    this.maxBytes = maxBytes;
  }
}

/** NUL bytes, invalid UTF-8 or a UTF-16 byte order mark: not a text file Ratchet can read. */
export class BinaryFileError extends StoreError {
  constructor(path: string, reason: string, place: Place = {}) {
    super('binary-file', path, reason, place);
  }
}

/** Not well-formed JSON: always has line and column. */
export class JsonParseError extends StoreError {
  declare readonly line: number;
  declare readonly column: number;
  constructor(path: string, reason: string, place: { line: number; column: number }) {
    super('parse-error', path, reason, place);
  }
}

/** A `__proto__`, `constructor` or `prototype` key: refused wherever it appears (prototype pollution). */
export class UnsafeInputError extends StoreError {
  readonly key: string;
  constructor(path: string, key: string, place: Place) {
    super('unsafe-input', path, `the key "${key}" is not allowed in Ratchet files (prototype pollution guard)`, place);
    this.key = key;
  }
}

/** Why a path was refused by resolveInsideRoot: callers map kinds to their own error codes. */
export type OutsideRootKind = 'empty' | 'too-long' | 'nul' | 'absolute' | 'dot-dot' | 'outside' | 'symlink' | 'broken-symlink';

/** A path that does not stay inside the project root (lexically, or through a symbolic link). */
export class OutsideRootError extends StoreError {
  readonly root: string;
  readonly kind: OutsideRootKind;
  constructor(path: string, root: string, kind: OutsideRootKind, reason: string) {
    super('outside-root', path, reason);
    this.root = root;
    this.kind = kind;
  }
}

/** One schema problem; `line`/`column` are set when the pointer could be located in the file text. */
export interface ValidationIssue {
  pointer: string;
  message: string;
  code?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
}

/**
 * The content does not match the caller's schema. `issues` lists every problem (not just the first);
 * the error's own place is the first issue's. `source` says whether the bad data came from the file
 * or from a value an update tried to write (in which case nothing was written).
 */
export class ValidationError extends StoreError {
  readonly issues: readonly ValidationIssue[];
  readonly source: 'file' | 'update';
  constructor(path: string, issues: readonly ValidationIssue[], source: 'file' | 'update', context = '') {
    const first = issues[0] ?? { pointer: '', message: 'invalid' };
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
    const lead = source === 'file' ? 'invalid content' : 'refused to write an invalid value, nothing was written';
    super('validation-error', path, `${lead}${context}: ${first.message}${more}`, first);
    this.issues = issues;
    this.source = source;
  }
}

/** schemaVersion missing, malformed, newer than this reader, or without a migration path. */
export class SchemaVersionError extends StoreError {
  readonly found: unknown;
  readonly supported: number;
  constructor(path: string, reason: string, found: unknown, supported: number, place: Place = {}) {
    super('schema-version', path, reason, place);
    this.found = found;
    this.supported = supported;
  }
}

/** What a lock file says about its holder. Extra caller metadata (e.g. a JIXO `runner`) sits beside these keys. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the lock was taken (from the acquirer's clock). */
  time: string;
  token: string;
  /** Start time of `pid` (Linux /proc ticks), so a reused pid is not mistaken for the holder. */
  pidStart?: string;
  /** True for a lock meant to outlive its process (released by token, or stale after `expires`). */
  detached?: boolean;
  /** ISO time after which a detached lock is stale. Absent on a detached lock = never expires. */
  expires?: string;
  /**
   * ISO time after which a process-bound lock is stale on any host: its holder renews it while it
   * holds the lock. Absent (locks written by older versions, or `processLeaseMs: Infinity`): liveness by pid only.
   */
  leaseUntil?: string;
  [extra: string]: unknown;
}

/** Human description of a holder: "pid 12 on host a since 2025-… (runner: "r1")". */
export function describeHolder(holder: LockHolder): string {
  const reserved = new Set(['pid', 'host', 'time', 'token', 'pidStart', 'detached', 'expires', 'leaseUntil']);
  const extra = Object.entries(holder)
    .filter(([key]) => !reserved.has(key))
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  let text = `pid ${holder.pid} on host ${holder.host} since ${holder.time}`;
  if (holder.detached === true) text += holder.expires === undefined ? ', detached (no expiry)' : `, detached until ${holder.expires}`;
  else if (typeof holder.leaseUntil === 'string') text += `, lease until ${holder.leaseUntil}`;
  if (extra.length > 0) text += ` (${extra.join(', ')})`;
  return text;
}

export class LockTimeoutError extends StoreError {
  readonly lockPath: string;
  readonly holder: LockHolder | undefined;
  readonly timeoutMs: number;
  constructor(path: string, lockPath: string, timeoutMs: number, holder: LockHolder | undefined) {
    const who = holder === undefined ? 'another holder' : describeHolder(holder);
    super(
      'lock-timeout',
      path,
      `timed out after ${timeoutMs} ms waiting for the lock ${lockPath}, held by ${who}; ` +
        'if that holder is gone for good, release it by its token or delete the lock file',
    );
    this.lockPath = lockPath;
    this.holder = holder;
    this.timeoutMs = timeoutMs;
  }
}

/** Our lock was taken over or removed while we held it: what we did under it may have raced. */
export class LockLostError extends StoreError {
  readonly lockPath: string;
  readonly holder: LockHolder | undefined;
  constructor(path: string, lockPath: string, holder: LockHolder | undefined) {
    const now = holder === undefined ? 'the lock file is gone' : `it is now held by ${describeHolder(holder)}`;
    super('lock-lost', path, `lost the lock ${lockPath} while holding it: ${now}`);
    this.lockPath = lockPath;
    this.holder = holder;
  }
}

/** A release by token that does not match the current holder (or there is no lock at all). */
export class LockNotHeldError extends StoreError {
  readonly lockPath: string;
  readonly holder: LockHolder | undefined;
  constructor(path: string, lockPath: string, holder: LockHolder | undefined) {
    const now = holder === undefined ? 'the file is not locked' : `it is held by ${describeHolder(holder)} with another token`;
    super('lock-not-held', path, `refused to release the lock ${lockPath}: ${now}`);
    this.lockPath = lockPath;
    this.holder = holder;
  }
}

/** A lock file that is not valid holder metadata: never broken automatically. */
export class LockCorruptError extends StoreError {
  readonly lockPath: string;
  constructor(path: string, lockPath: string, reason: string) {
    super('lock-corrupt', path, `the lock file ${lockPath} is not valid lock metadata (${reason}); if no Ratchet process is using ${path}, delete ${lockPath}`);
    this.lockPath = lockPath;
  }
}

/** Why a tracked file was refused: its content, its digest record's content, or the record is gone. */
export type TamperKind = 'mismatch' | 'bad-record' | 'missing-record' | 'vanished' | 'rolled-back';

/**
 * A state file whose content is not what Ratchet last wrote (see `<file>.digest`): edited by hand or
 * by another program. Nothing is read from it or written over it until a person accepts the edit or
 * restores the last good version (`<file>.prev`).
 */
export class TamperedError extends StoreError {
  readonly kind: TamperKind;
  /** When Ratchet last wrote the file (from its digest record), if known. */
  readonly writtenAt: string | undefined;
  constructor(path: string, kind: TamperKind, writtenAt: string | undefined, what?: string) {
    const changed = what ?? `its content is not what Ratchet last wrote${writtenAt === undefined ? '' : ` at ${writtenAt}`}`;
    super(
      'tampered',
      path,
      `changed outside Ratchet: ${changed}; refusing to use it. A person can keep the edit (\`ratchet doctor --accept <file>\`) ` +
        `or put back the last good version (\`ratchet doctor --restore <file>\`)`,
    );
    this.kind = kind;
    this.writtenAt = writtenAt;
  }
}

/** Any other file-system failure (permissions, disk full, read-only file system, no hard links). */
export class IoError extends StoreError {
  /** The Node.js error code (EACCES, ENOSPC, ...) when there was one. */
  readonly sysCode: string | undefined;
  constructor(path: string, reason: string, cause?: unknown) {
    super('io-error', path, reason, {}, { cause });
    this.sysCode = errnoCode(cause);
  }
}

export function errnoCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${trim(bytes / 1024)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${trim(bytes / (1024 * 1024))} MiB`;
  return `${trim(bytes / (1024 * 1024 * 1024))} GiB`;
}

function trim(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

// --- Storage-port errors. `path` is the backend's printable location joined with the key, so the
// CLI's `file: message` formatting names both (never a password: locations are redacted). ---

/** An update's expected revision is not the stored one: someone else wrote first. Nothing was written. */
export class RevisionConflictError extends StoreError {
  readonly key: string;
  readonly expected: number;
  readonly actual: number;
  constructor(location: string, key: string, expected: number, actual: number) {
    super('revision-conflict', `${location}#${key}`, `expected revision ${expected} but it is at revision ${actual}; re-read it and try again`);
    this.key = key;
    this.expected = expected;
    this.actual = actual;
  }
}

/** A heartbeat, finish or lock renewal for a claim or lease the caller no longer holds. */
export class LeaseLostError extends StoreError {
  readonly key: string;
  /** Who holds it now, if anyone. */
  readonly holder: string | undefined;
  constructor(location: string, key: string, reason: string, holder?: string) {
    super('lease-lost', `${location}#${key}`, reason);
    this.key = key;
    this.holder = holder;
  }
}

/** A document over the backend's size limit: refused before anything was written. */
export class DocumentTooLargeError extends StoreError {
  readonly key: string;
  readonly size: number;
  readonly maxBytes: number;
  constructor(location: string, key: string, size: number, maxBytes: number) {
    super('document-too-large', `${location}#${key}`, `refused to write ${formatBytes(size)}: over this backend's ${formatBytes(maxBytes)} document limit; nothing was written`);
    this.key = key;
    this.size = size;
    this.maxBytes = maxBytes;
  }
}

/** The backend cannot be reached or refuses us (connection refused, bad credentials, no database). */
export class BackendUnavailableError extends StoreError {
  constructor(location: string, reason: string, options?: { cause?: unknown }) {
    super('backend-unavailable', location, reason, {}, options);
  }
}

/** The backend's schema was written by a newer Ratchet (or is not Ratchet's): nothing is read or written. */
export class BackendSchemaError extends StoreError {
  constructor(location: string, reason: string) {
    super('backend-schema', location, reason);
  }
}

/**
 * A storage key that is not a project-relative `/`-separated path: `..`, a leading `/`, a backslash,
 * NUL or another control character, an empty or `.` segment, or longer than the limit. Refused by
 * every backend before anything is read or written.
 */
export class InvalidKeyError extends StoreError {
  readonly key: string;
  constructor(location: string, key: string, reason: string) {
    super('invalid-key', `${location}#${key}`, `refused the storage key ${JSON.stringify(key)}: ${reason}`);
    this.key = key;
  }
}
