/**
 * Persistence through @ratchet/store: one versioned JSON document (`.ratchet/goals.json` by
 * default) holding the state and its audit trail, so a mutation and its audit entry are written
 * together or not at all. Every mutation is a locked read-modify-write: re-read inside the lock,
 * check `expected_version` (ConflictError), apply, validate, write atomically. A mutation that
 * changes nothing writes nothing and creates no version.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { NotFoundError, defineDocument, openDocument, openStoredDocument, sharedBackendOf, withLock, writeFileAtomic, type LockOptions, type SchemaIssue, type StorageBackend } from '@ratchet/store';
import { createHash } from 'node:crypto';
import { ConflictError, InputError, OwnerError, UntrustedRegistryError } from './errors.js';
import { markMerged, type PolicyHandlers } from './ops.js';
import { applyProposal, checkMergedGuard, serializeRegistry } from './proposals.js';
import { REGISTRY_MAX_BYTES, readRegistryFile, registryFormat, type Registry, type RegistryFormat } from './registry.js';
import { applyCommit, checkCommit, commitDigest, findReplay, type CommitResult, type TurnCommit } from './turn.js';
import { Tx, emptyState } from './tx.js';
import type { ActionTypeRegistryDocument, Actor, AuditEntry, AuditSummary, GoalsState, RegistryProposal } from './types.js';
import { COMPACT_KEEP_DEFAULT, auditBase, compactAudit, compactHistory, revertPoints, type CompactOptions, type CompactResult } from './compact.js';
import { GOALS_STATE_SCHEMA_URL } from './urls.js';
import { stateIssues } from './validate.js';
import { registryPatch } from './diff.js';
import { parseJsonPointer } from '@ratchet/store';

export const DEFAULT_GOALS_FILE = '.ratchet/goals.json';
export const GOALS_STATE_VERSION = 1;

/**
 * The audit trail is the state's history: one entry per version, 1 to `version`, each following the
 * one before. Revert replays it, so a trail with a gap or an edited version number is refused
 * rather than used.
 */
function auditIssues(state: GoalsState): { pointer: string; message: string; code: string }[] {
  const out: { pointer: string; message: string; code: string }[] = [];
  // Compacted history: summaries cover 1..base without a gap, and the entries continue after base.
  let base = 0;
  (state.audit_summaries ?? []).forEach((s, i) => {
    if (s.from_version !== base + 1 || s.to_version < s.from_version) out.push({ pointer: `/audit_summaries/${i}`, message: `audit summary ${i + 1} covers versions ${s.from_version} to ${s.to_version}, expected to start at ${base + 1}: the history was edited`, code: 'audit' });
    base = s.to_version;
  });
  state.audit.forEach((e, i) => {
    const v = base + i + 1;
    if (e.version !== v || e.previous_version !== v - 1) out.push({ pointer: `/audit/${i}`, message: `audit entry ${i + 1} records version ${e.previous_version} -> ${e.version}, expected ${v - 1} -> ${v}: the audit trail was edited or truncated`, code: 'audit' });
  });
  if (out.length === 0 && base + state.audit.length !== state.version) out.push({ pointer: '/version', message: `the state is at version ${state.version} but its history covers ${base + state.audit.length} versions`, code: 'audit' });
  return out.slice(0, 20);
}

const stateSchema = {
  safeParse(input: unknown): { success: true; data: GoalsState } | { success: false; error: { issues: SchemaIssue[] } } {
    const structural = stateIssues(input);
    const issues = structural.length > 0 ? structural : auditIssues(input as GoalsState);
    if (issues.length === 0) return { success: true, data: input as GoalsState };
    return { success: false, error: { issues: issues.map((i) => ({ path: parseJsonPointer(i.pointer) ?? [], message: i.message, code: i.code })) } };
  },
};

export const goalsDocument = defineDocument<GoalsState>({ schema: stateSchema, version: GOALS_STATE_VERSION, $schema: GOALS_STATE_SCHEMA_URL, initial: emptyState() });

export interface GoalsStoreOptions {
  /** ms since the epoch (default Date.now): timestamps and escalation. */
  clock?: (() => number) | undefined;
  lock?: LockOptions | undefined;
  /** Create the state file's directory on the first write (default true). */
  createParentDirs?: boolean | undefined;
  /** The project root the state file must resolve inside, symbolic links followed (see @ratchet/store). */
  root?: string | undefined;
  /** The largest state file read or written (default @ratchet/store's 16 MiB): an uncompacted audit trail reaches it first. */
  maxBytes?: number | undefined;
  /**
   * Automatic compaction, so the state file stays bounded without anyone running `goals compact`:
   * a write that leaves more than `at` audit entries (default AUTO_COMPACT_AT) compacts all but the
   * newest fifth of `at` (COMPACT_KEEP_DEFAULT at the default) into a summary, in the same locked write. `registry` (loaded only
   * then) classifies the per-type counts the summary keeps. Without this option nothing compacts
   * by itself.
   */
  autoCompact?: { at?: number | undefined; registry: () => Registry | Promise<Registry> } | undefined;
  /**
   * A shared storage backend (PostgreSQL, for several machines): the state document is kept there
   * under `key` (its project-relative path, e.g. `.ratchet/goals.json`) instead of at `path`;
   * optimistic locking (`expected_version`) works the same. Without one, or on the file backend, the
   * file at `path` is used as always.
   */
  backend?: StorageBackend | undefined;
  key?: string | undefined;
}

export interface MutationMeta {
  actor: Actor;
  /** What the audit entry calls the mutation, e.g. "action.create". */
  op: string;
  /** Refuse (ConflictError) unless the state is at this version. */
  expected_version?: number | undefined;
  turn_id?: string | undefined;
  /** The project registry file the decision is judged against (see `registryDigest`); none for the built-in one. */
  registry?: RegistryFile | undefined;
}

/** A registry file in use: where it is (for messages) and the digest of its text. */
export interface RegistryFile {
  path: string;
  digest: string;
}

/** What `registry_trust` records: sha256 of the registry file's text. */
export function registryDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Judge the registry in use against the one the user approved, inside the state's lock: the agent
 * is refused unless the file is byte for byte what a user last merged or first used; a user's first
 * use records it. Returns whether `registry_trust` changed.
 */
function judgeRegistry(draft: GoalsState, actor: Actor, registry: RegistryFile | undefined, now: string): boolean {
  if (registry === undefined) return false;
  if (actor.role === 'user') {
    if (draft.registry_trust !== undefined) return false;
    draft.registry_trust = { digest: registry.digest, at: now, by: actor.name ?? actor.role };
    return true;
  }
  const problem = registryTrustProblem(draft, actor, registry);
  if (problem !== undefined) throw problem;
  return false;
}

/**
 * Why `actor` may not act under `registry`, judged as a mutation judges it, without recording
 * anything (a user is never refused): what a caller that does not mutate (a turn pinning the registry
 * it will run under) checks. Undefined: it may.
 */
export function registryTrustProblem(state: Pick<GoalsState, 'registry_trust'>, actor: Actor, registry: RegistryFile | undefined): UntrustedRegistryError | undefined {
  if (registry === undefined || actor.role === 'user') return undefined;
  const trusted = state.registry_trust;
  if (trusted === undefined) {
    return new UntrustedRegistryError(registry.path, 'no user has approved this action-type registry yet, so the agent cannot act under it: the user runs a goals command (or merges a proposal) first');
  }
  if (trusted.digest !== registry.digest) {
    return new UntrustedRegistryError(registry.path, `the action-type registry changed since a user last merged or approved it (${trusted.at}, ${trusted.by}): the agent cannot act under an edited registry; the user reviews the change and merges it as a proposal`);
  }
  return undefined;
}

export interface MutationResult<T> {
  result: T;
  /** The state version after the mutation (unchanged when nothing changed). */
  version: number;
  /** The audit entry written, if anything changed. */
  entry?: AuditEntry | undefined;
}

export interface GoalsStore {
  readonly path: string;
  read(): Promise<GoalsState>;
  /**
   * One locked, audited mutation. `fn` works on a transaction; if it throws, nothing is written.
   * Its return value comes back as a copy taken after the new version was stamped.
   */
  mutate<T>(meta: MutationMeta, fn: (tx: Tx, state: GoalsState) => T): Promise<MutationResult<T>>;
  /** The audit trail, oldest first (optionally only entries after `sinceVersion`). */
  history(sinceVersion?: number): Promise<AuditEntry[]>;
  /** A new version whose goals, actions, questions, stories, proposals and turns are as they were at `version`. */
  revert(version: number, meta: Omit<MutationMeta, 'op' | 'turn_id'>): Promise<MutationResult<{ reverted_to: number }>>;
  /** Apply a turn's deltas, idempotently by turn id. */
  commitTurn(registry: Registry, commit: TurnCommit, meta: { actor: Actor; handlers?: PolicyHandlers | undefined; registry?: RegistryFile | undefined }): Promise<CommitResult>;
  /**
   * Write an approved proposal into the registry file and mark it merged. Returns the patch applied.
   * `ifMissing`: the registry in use when the file does not exist yet (the bundled one): the file is
   * created from it, with the change. `expected_version`: refused (ConflictError) before the registry
   * is touched unless the state is at this version.
   */
  mergeProposal(
    id: string,
    registryPath: string,
    meta: { actor: Actor; displayPath?: string | undefined; ifMissing?: ActionTypeRegistryDocument | undefined; handlers?: PolicyHandlers | undefined; expected_version?: number | undefined },
  ): Promise<{ proposal: RegistryProposal; patch: string }>;
  /**
   * Compact the oldest audit entries into a summary (see compact.ts): the user only. Returns what was
   * compacted and the revert points left; writes nothing when there is nothing to compact.
   * `expected_version`: refused (ConflictError) unless the state is at this version.
   */
  compact(registry: Registry, options: Omit<CompactOptions, 'agentRevertRefusal'>, meta: { actor: Actor; expected_version?: number | undefined }): Promise<CompactResult>;
  /** The compacted history, oldest first. */
  summaries(): Promise<AuditSummary[]>;
  /** The proposal as a unified diff against the registry file (nothing is written); with `ifMissing`, a patch creating the file. */
  exportProposal(id: string, registryPath: string, displayPath?: string, options?: { ifMissing?: ActionTypeRegistryDocument | undefined }): Promise<string>;
}

/** Thrown out of a store update to leave the file alone when a mutation changed nothing. */
class NothingChanged extends Error {
  constructor(readonly version: number) {
    super('nothing changed');
  }
}

/** The registry file's text and document; a file that does not exist yet starts from `ifMissing` (empty text), if given. */
async function currentRegistry(path: string, ifMissing: ActionTypeRegistryDocument | undefined): Promise<{ text: string; document: ActionTypeRegistryDocument; format: RegistryFormat; created: boolean }> {
  try {
    const r = await readRegistryFile(path);
    return { text: r.text, document: r.document, format: r.format, created: false };
  } catch (err) {
    if (!(err instanceof NotFoundError) || ifMissing === undefined) throw err;
    return { text: '', document: ifMissing, format: registryFormat(path), created: true };
  }
}

/**
 * What a revert may not undo. A merge wrote the registry file, which the state's history does not
 * hold: undoing it would leave a proposal "approved" beside a registry that already has its type, so
 * nobody reverts across one (a new proposal deprecates the type instead). And a revert is no way round
 * the owner rules: the agent cannot undo what only the user may do (a confirmation, a review, a change
 * to the user's own action).
 */
function checkRevertable(undone: readonly AuditEntry[], actor: Actor): void {
  for (const e of undone) {
    for (const c of e.changes) {
      const before = c.before ?? {};
      const after = c.after ?? {};
      if (c.kind === 'proposal' && after.status === 'merged' && before.status !== 'merged') {
        throw new InputError(`cannot revert past v${e.version}: it merged proposal ${c.id} into the registry file, which a revert cannot undo; revert to v${e.version} or later, or submit a proposal that deprecates the type`, 'proposal-state');
      }
      if (actor.role !== 'agent' || (e.role ?? e.who) !== 'user') continue;
      const what =
        c.kind === 'action' && before.confirmed_at !== after.confirmed_at ? `the user's confirmation of action ${c.id}`
        : c.kind === 'proposal' && before.status !== after.status ? `the user's review of proposal ${c.id}`
        : c.kind === 'action' && (after.owner ?? before.owner) === 'user' && before.status !== after.status ? `the user's move of their own action ${c.id}`
        : undefined;
      if (what !== undefined) throw new OwnerError(`the agent cannot revert past v${e.version}: it would undo ${what}; revert to v${e.version} or later, or ask the user`);
    }
  }
}

/**
 * The summaries a revert to `version` goes back through (newest first), refused unless `version` is a
 * kept revert point (a summary's, or any version from the oldest kept entry's on), no range holds a
 * merge, and for the agent, no range holds what only the user may undo.
 */
function summariesAcross(state: GoalsState, version: number, actor: Actor): AuditSummary[] {
  const base = auditBase(state);
  if (version >= base) return [];
  const across = (state.audit_summaries ?? []).filter((s) => s.to_version > version).reverse();
  const oldest = across[across.length - 1]!;
  const { points } = revertPoints(state);
  if (oldest.revert_point !== version || across.some((s) => s.base === undefined)) {
    throw new InputError(`cannot revert to version ${version}: it was compacted; revert points kept: ${[...points.map((p) => `v${p}`), `v${base} and later`].join(', ')}`, 'not-found');
  }
  for (const s of across) {
    if (s.merge_version !== undefined) throw new InputError(`cannot revert past v${s.merge_version}: it merged a proposal into the registry file, which a revert cannot undo; revert to v${s.merge_version} or later`, 'proposal-state');
    if (actor.role === 'agent' && s.agent_revert_refused !== undefined) throw new OwnerError(s.agent_revert_refused);
  }
  return across;
}

/** What `checkRevertable` would say to the agent about a run of entries (kept in summaries). */
function agentRevertRefusal(entries: readonly AuditEntry[]): string | undefined {
  try {
    checkRevertable(entries, { role: 'agent' });
    return undefined;
  } catch (err) {
    if (err instanceof OwnerError || err instanceof InputError) return err.reason;
    throw err;
  }
}

/**
 * Audit entries past which a write compacts the trail (with `autoCompact`). About 1.3 KB an entry
 * in the compaction benchmark: 5,000 entries stay far below the store's 16 MiB read limit, which an
 * uncompacted trail reaches near 12,000.
 */
export const AUTO_COMPACT_AT = 5000;

export function openGoals(path: string, options: GoalsStoreOptions = {}): GoalsStore {
  const clock = options.clock ?? Date.now;
  const shared = sharedBackendOf(options.backend);
  if (shared !== undefined && options.key === undefined) throw new InputError('a goals store on a shared backend needs the key of its state document (e.g. ".ratchet/goals.json")');
  const doc =
    shared !== undefined
      ? openStoredDocument(shared, options.key!, goalsDocument)
      : openDocument(path, goalsDocument, { lock: options.lock, createParentDirs: options.createParentDirs ?? true, ...(options.root === undefined ? {} : { root: options.root }), ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }) });
  const iso = (): string => new Date(clock()).toISOString();

  async function mutate<T>(meta: MutationMeta, fn: (tx: Tx, state: GoalsState) => T): Promise<MutationResult<T>> {
    let result: T | undefined;
    let entry: AuditEntry | undefined;
    try {
      const state = await doc.update(async (draft) => {
        if (meta.expected_version !== undefined && draft.version !== meta.expected_version) throw new ConflictError(meta.expected_version, draft.version, doc.path);
        const tx = new Tx(draft, iso(), meta.actor);
        const trusted = judgeRegistry(draft, meta.actor, meta.registry, tx.now);
        const live = fn(tx, draft);
        entry = tx.finish({ op: meta.op, turn_id: meta.turn_id });
        // A copy taken after the version is stamped: what the caller gets is what was written.
        result = structuredClone(live);
        // Nothing changed: leave the file alone (no new version, no audit entry).
        if (entry === undefined && !trusted) throw new NothingChanged(draft.version);
        const auto = options.autoCompact;
        if (entry !== undefined && auto !== undefined && draft.audit.length > (auto.at ?? AUTO_COMPACT_AT)) {
          // Keep a fifth of the threshold (COMPACT_KEEP_DEFAULT at the default): the next compaction is
          // then thousands of writes away, not one.
          const at = auto.at ?? AUTO_COMPACT_AT;
          compactHistory(draft, await auto.registry(), 'auto-compaction', tx.now, { keep: Math.min(COMPACT_KEEP_DEFAULT, Math.floor(at / 5)), agentRevertRefusal });
        }
      });
      return { result: result as T, version: state.version, entry };
    } catch (err) {
      if (err instanceof NothingChanged) return { result: result as T, version: err.version };
      throw err;
    }
  }

  const store: GoalsStore = {
    path: doc.path,
    read: () => doc.read(),
    mutate,
    async history(sinceVersion = 0) {
      return (await doc.read()).audit.filter((e) => e.version > sinceVersion);
    },
    async revert(version, meta) {
      let reverted = 0;
      try {
        const state = await doc.update((draft) => {
          if (meta.expected_version !== undefined && draft.version !== meta.expected_version) throw new ConflictError(meta.expected_version, draft.version, doc.path);
          if (!Number.isSafeInteger(version) || version < 0 || version > draft.version) throw new InputError(`cannot revert to version ${version}: the state has versions 0 to ${draft.version}`);
          const tx = new Tx(draft, iso(), meta.actor);
          // Across compacted history only to a kept revert point, through summaries that keep their images.
          const across = summariesAcross(draft, version, meta.actor);
          checkRevertable(draft.audit.filter((e) => e.version > version), meta.actor);
          // Undo every later mutation, newest first, from its before-images.
          for (const e of [...draft.audit].reverse()) {
            if (e.version <= version) break;
            for (const c of [...e.changes].reverse()) tx.restore(c.kind, c.id, c.before);
          }
          // Then each compacted range, newest first, from the image of every entity at its first change.
          for (const s of across) for (const b of s.base ?? []) tx.restore(b.kind, b.id, b.image);
          reverted = version;
          if (tx.finish({ op: 'revert', reverted_to: version }) === undefined) throw new NothingChanged(draft.version);
        });
        return { result: { reverted_to: reverted }, version: state.version, entry: state.audit[state.audit.length - 1] };
      } catch (err) {
        if (err instanceof NothingChanged) return { result: { reverted_to: version }, version: err.version };
        throw err;
      }
    },
    async commitTurn(registry, commit, meta) {
      checkCommit(commit);
      const digest = commitDigest(commit);
      let replayed = false;
      let applied: Omit<CommitResult, 'replayed' | 'version'> | undefined;
      let version: number;
      try {
        const state = await doc.update((draft) => {
          const tx = new Tx(draft, iso(), meta.actor);
          judgeRegistry(draft, meta.actor, meta.registry, tx.now);
          // A replay is recognised before the version check: retrying a commit that went through must not fail.
          if (findReplay(tx, commit, digest)) {
            replayed = true;
            throw new NothingChanged(draft.version);
          }
          if (commit.expected_version !== undefined && draft.version !== commit.expected_version) throw new ConflictError(commit.expected_version, draft.version, doc.path);
          const r = applyCommit(tx, registry, commit, clock(), meta.handlers);
          tx.finish({ op: 'turn.commit', turn_id: commit.turn_id });
          // The entities as written, with the version this commit stamped on them.
          const now = <E extends { id: string }>(kind: 'action' | 'proposal', list: E[]): E[] => list.map((e) => structuredClone(tx.get(kind, e.id)) as unknown as E);
          applied = { ...r, created: now('action', r.created), completed: now('action', r.completed), escalated: now('action', r.escalated), proposals: now('proposal', r.proposals) };
        });
        version = state.version;
      } catch (err) {
        if (!(err instanceof NothingChanged)) throw err;
        version = err.version;
      }
      if (replayed || applied === undefined) return { turn_id: commit.turn_id, replayed: true, version, created: [], completed: [], escalated: [], proposals: [] };
      return { ...applied, replayed: false, version };
    },
    async mergeProposal(id, registryPath, meta) {
      if (meta.actor.role !== 'user') throw new OwnerError(`only the user (a maintainer) can merge proposal ${id} into the registry`);
      const state = await doc.read();
      // Checked before the registry file is written: a stale view must not change the registry.
      if (meta.expected_version !== undefined && state.version !== meta.expected_version) throw new ConflictError(meta.expected_version, state.version, doc.path);
      const proposal = state.proposals.find((p) => p.id === id);
      if (proposal === undefined) throw new InputError(`no proposal "${id}"`, 'not-found');
      if (proposal.status !== 'approved') throw new InputError(`proposal ${id} is ${proposal.status}: only an approved proposal can be merged`, 'proposal-state');
      let patch = '';
      let merged = '';
      if (meta.ifMissing !== undefined) await mkdir(dirname(registryPath), { recursive: true });
      // The registry file is replaced atomically under its own lock; a running turn keeps the registry it loaded.
      await withLock(registryPath, async () => {
        const current = await currentRegistry(registryPath, meta.ifMissing);
        const document = applyProposal(current.document, proposal);
        // Checked before anything is written: a guard nobody implements would make the type uncompletable.
        checkMergedGuard(document, proposal, meta.handlers);
        const next = await serializeRegistry(document, current.format);
        patch = await registryPatch(current.text, next, meta.displayPath ?? registryPath, { created: current.created });
        if (next !== current.text) await writeFileAtomic(registryPath, next, { maxBytes: REGISTRY_MAX_BYTES });
        merged = next;
      }, options.lock);
      const { result } = await mutate({ actor: meta.actor, op: 'proposal.merge' }, (tx, state) => {
        // The registry as the user merged it is the one agent decisions are judged against from now on.
        state.registry_trust = { digest: registryDigest(merged), at: tx.now, by: tx.who };
        const p = tx.get('proposal', id);
        if (p.status !== 'approved') throw new InputError(`proposal ${id} is ${p.status}: only an approved proposal can be merged`, 'proposal-state');
        return markMerged(tx, id);
      });
      return { proposal: result, patch };
    },
    async compact(registry, compactOptions, meta) {
      let result: CompactResult | undefined;
      await doc.update((draft) => {
        if (meta.expected_version !== undefined && draft.version !== meta.expected_version) throw new ConflictError(meta.expected_version, draft.version, doc.path);
        const imagesKept = (): number => (draft.audit_summaries ?? []).filter((x) => x.base !== undefined).length;
        const had = imagesKept();
        result = compactAudit(draft, registry, meta.actor, iso(), { ...compactOptions, agentRevertRefusal });
        // Nothing compacted and no revert point dropped: leave the file alone.
        if (result.compacted === 0 && imagesKept() === had) throw new NothingChanged(draft.version);
      }).catch((err: unknown) => {
        if (!(err instanceof NothingChanged)) throw err;
      });
      return result!;
    },
    async summaries() {
      return (await doc.read()).audit_summaries ?? [];
    },
    async exportProposal(id, registryPath, displayPath = registryPath, exportOptions = {}) {
      const proposal = (await doc.read()).proposals.find((p) => p.id === id);
      if (proposal === undefined) throw new InputError(`no proposal "${id}"`, 'not-found');
      const current = await currentRegistry(registryPath, exportOptions.ifMissing);
      const next = await serializeRegistry(applyProposal(current.document, proposal), current.format);
      return await registryPatch(current.text, next, displayPath, { created: current.created });
    },
  };
  return store;
}
