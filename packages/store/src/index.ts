/**
 * @ratchet/store: the only code in Ratchet that touches state files. Locked, atomic, validated and
 * versioned JSON documents and JSONL files, guarded reading of user files, JSON parsing with
 * line:column errors, and a guard for user-supplied regular expressions. See README.md for the
 * guarantees and the lock file format.
 */
export {
  BackendSchemaError,
  BackendUnavailableError,
  BinaryFileError,
  DocumentTooLargeError,
  LeaseLostError,
  RevisionConflictError,
  FileTooLargeError,
  InvalidKeyError,
  IoError,
  JsonParseError,
  LockCorruptError,
  LockLostError,
  LockNotHeldError,
  LockTimeoutError,
  NotAFileError,
  NotFoundError,
  OutsideRootError,
  SchemaVersionError,
  StoreError,
  TamperedError,
  UnsafeInputError,
  ValidationError,
  describeHolder,
  formatBytes,
  type LockHolder,
  type OutsideRootKind,
  type Place,
  type StoreErrorCode,
  type TamperKind,
  type ValidationIssue,
} from './errors.js';
export { MAX_JSON_DEPTH, lineColumn, locate, parseJson, type Located, type Location, type ParseOptions } from './json-parse.js';
export { parseJsonPointer, toJsonPointer } from './json-pointer.js';
export { DEFAULT_MAX_BYTES, readJsonFile, readTextFile, readTextFileSync, readJsonFileSync, type JsonFile, type ReadOptions, type TextFile } from './read-file.js';
export { readLinesSync, type FileLine, type ReadLinesOptions } from './read-lines.js';
export { MAX_PATH_LENGTH, isInsideRoot, resolveInsideRoot, unsafeRelativePath, type InsideRootOptions, type UnsafePath } from './inside-root.js';
export { YamlParseError, isYamlPath, parseYaml, readDataFile, readDataFileSync } from './yaml-parse.js';
export { writeFileAtomic, type AtomicWriteOptions } from './atomic-write.js';
export { DEFAULT_PROCESS_LEASE_MS, acquireLock, inspectLock, lockPathFor, releaseLockByToken, removeLeftovers, renewLockLease, withLock, type LockHandle, type LockInfo, type LockOptions } from './lock.js';
export { openStoredDocument, type StoredDocumentOptions } from './stored-document.js';
export { defineDocument, openDocument, type Document, type DocumentDefinition, type DocumentDefinitionInput, type DocumentOptions, type Migration } from './document.js';
export {
  QUICK_MAX,
  acceptCurrent,
  checkDigest,
  digestOf,
  digestPathFor,
  matchesDigest,
  previousPathFor,
  quickHash,
  readDigestRecord,
  recordRemoval,
  restorePrevious,
  sha256Hex,
  writeTracked,
  type Digest,
  type DigestAdminOptions,
  type DigestRecord,
  type RestoreResult,
  type TrackedWrite,
} from './digest.js';
export { journalEntriesUnder, journalEntry, journalFileFor, journalRoot, type JournalEntry } from './journal.js';
export { openJsonl, type JsonlFile, type JsonlOptions } from './jsonl.js';
export { readTrackedText, updateTrackedText, type TrackedText, type TrackedTextOptions } from './tracked-text.js';
export { MATCH_MAX_LENGTH, MATCH_SUBJECT_LIMIT, MAX_SPLITS, TRIAL_SLOW_MS, TRIAL_SLOW_LONG_MS, TRIAL_TOTAL_MS, checkRegex, splitBound, trialRun, type CheckRegexOptions, type RegexVerdict, type TrialResult } from './regex-guard.js';
export type { WriterOptions } from './locked-update.js';
export type { SafeParseResult, Schema, SchemaIssue } from './validate.js';
export type {
  BackendLimits,
  Claim,
  ClaimOutcome,
  DocumentStore,
  DocumentUpdater,
  JsonObject as StoredJsonObject,
  JsonValue as StoredJsonValue,
  Lease,
  LockStore,
  LogEntry,
  LogStore,
  LostAttempt,
  QueueItem,
  QueueItemState,
  QueueStore,
  StorageBackend,
  StoredDocument,
  UpdateDocumentOptions,
} from './port/storage-port.js';
export { MAX_LEASE_MS, MIN_LEASE_MS, formatLeaseDuration, parseDurationText, parseLeaseDuration, type DurationUnit } from './port/lease-duration.js';
export { MAX_KEY_LENGTH, assertKey, assertLogKey, assertPrefix, keyOf, keyProblem } from './port/keys.js';
export { redactUrl } from './port/redact-url.js';
export { assertJsonObject, assertJsonValue } from './port/json-value.js';
export {
  CONFIG_FILE,
  POSTGRES_PACKAGE,
  PROJECT_ENV,
  STORE_ENV,
  readStoreConfig,
  resolveStorageBackend,
  storageKind,
  storeSettings,
  type PostgresBackendModule,
  type ResolveBackendOptions,
  type StorageKind,
  type StoreConfig,
  type StoreSettings,
} from './port/resolve-backend.js';
export { createFileBackend, fileBackendRoot, sharedBackendOf, type FileBackendOptions } from './file-backend/backend.js';
export { EXPORT_FORMAT, EXPORT_VERSION, exportStore, importStore, parseExport, type ExportRecord, type TransferCounts } from './port/transfer.js';
