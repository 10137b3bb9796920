/**
 * What the goals commands share: the state store and registry for this project, the actor, and
 * the mapping of @ratchet/goals errors to exit codes (refusals exit 1, bad input exits 2).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { GoalsError, RegistryError, defaultRegistry, openGoals, scopedView, readRegistryFile, registryDigest, type Actor, type GoalsStore, type Registry, type RegistryFile } from '@ratchet/goals';
import { locate, parseJson, readJsonFile } from '@ratchet/store';
import type { Context } from '../../context.js';
import { actorScope, pinnedActor, requireUser } from '../../actor.js';
import { CliError } from '../../errors.js';
import { EXIT_PROBLEMS, EXIT_USAGE } from '../../exit-codes.js';
import { numberFrom } from '../../option-values.js';
import { assetPath, displayPath } from '../../paths.js';
import { sharedStorageOf, storageKey } from '../../storage.js';
import type { GoalsLocation, GoalsPlace } from '../../operations/goals-input.js';

/** The project's registry, in whichever format it is kept (one of them; two would be ambiguous). */
export const PROJECT_REGISTRIES = ['protocols/action_types.json', 'protocols/action_types.yaml', 'protocols/action_types.yml'] as const;

export type { GoalsPlace } from '../../operations/goals-input.js';

/** The clock: --now (ISO 8601) when given, else the system's. */
export function clockOf(place: Pick<GoalsPlace, 'now'>): () => number {
  if (place.now === undefined) return Date.now;
  const t = Date.parse(place.now);
  if (Number.isNaN(t)) throw new CliError(`--now ${place.now}: not an ISO 8601 time`);
  return () => t;
}

/**
 * The project's goals state as the acting agent may see it: reads (and the history) leave out the
 * goals, actions and Scratch Page items outside its access scope (`scopedView`), so every listing,
 * `turn assess` and `goals context` is scoped without each command knowing; writes are checked
 * against the scope inside the library's transaction, whatever command makes them.
 */
export async function openState(ctx: Context, place: GoalsPlace): Promise<GoalsStore> {
  const path = resolve(ctx.cwd, place.state ?? '.ratchet/goals.json');
  // On a shared backend (RATCHET_STORE=postgres://...) the state is the document at the file's
  // project-relative key there; on files nothing is loaded or opened beyond the file itself.
  const backend = await sharedStorageOf(ctx);
  // The audit trail compacts itself past AUTO_COMPACT_AT entries, so the state never reaches the
  // store's read limit; the registry that classifies the kept counts is loaded only then.
  const autoCompact = { registry: () => loadRegistryFor(ctx, place) };
  const store = openGoals(path, { clock: clockOf(place), root: ctx.cwd, autoCompact, ...(backend === undefined ? {} : { backend, key: storageKey(ctx, path) }) });
  const actor = actorOf(ctx, place);
  return {
    ...store,
    read: async () => scopedView(await store.read(), actor),
    history: async (since = 0) => (await store.read().then((s) => scopedView(s, actor))).audit.filter((e) => e.version > since),
    summaries: async () => scopedView(await store.read(), actor).audit_summaries ?? [],
  };
}

/** The project's registry file (JSON or YAML), if it has one; two of them is an input error. */
export function projectRegistry(ctx: Context): string | undefined {
  const found = PROJECT_REGISTRIES.map((rel) => resolve(ctx.cwd, rel)).filter((p) => existsSync(p));
  if (found.length > 1) throw new CliError(`the project has ${found.map((p) => displayPath(ctx, p)).join(' and ')}: keep one action-type registry (or pick one with --registry)`);
  return found[0];
}

/** The registry file in use: --registry, else the project's protocols/action_types.{json,yaml,yml}, else the bundled one. */
export function registryPath(ctx: Context, place: Pick<GoalsLocation, 'registry'>): string | undefined {
  if (place.registry !== undefined) return resolve(ctx.cwd, place.registry);
  const project = projectRegistry(ctx);
  if (project !== undefined) return project;
  const bundled = assetPath('protocols', 'action_types.json');
  return existsSync(bundled) ? bundled : undefined;
}

export async function loadRegistryFor(ctx: Context, place: Pick<GoalsLocation, 'registry'>): Promise<Registry> {
  const path = registryPath(ctx, place);
  // Running from sources (tests) there is no bundled copy: the built-in nine types are the same file.
  return path === undefined ? defaultRegistry() : readRegistryFile(path);
}

/**
 * The registry file a decision (a mutation) is judged against: its digest is compared with the one a
 * user approved, in the goals state; none for the bundled or built-in registry, which live outside
 * the project. The agent may not bring its own with --registry.
 */
export function registryFileOf(ctx: Context, place: GoalsLocation, registry: Registry): RegistryFile | undefined {
  if (place.registry !== undefined && actorOf(ctx, place).role === 'agent') {
    const chosen = resolve(ctx.cwd, place.registry);
    const project = projectRegistry(ctx) ?? resolve(ctx.cwd, PROJECT_REGISTRIES[0]);
    // Owner rules come from the registry: the agent is judged by the project's, not one it brings.
    if (chosen !== project) {
      throw new CliError(`--registry is refused for the agent's decisions: owner rules come from the project's registry (${displayPath(ctx, project)}) as a user last merged it`, {
        code: 'untrusted-registry',
        exitCode: EXIT_PROBLEMS,
        file: displayPath(ctx, chosen),
      });
    }
  }
  const text = (registry as { text?: unknown }).text;
  if (registry.path === undefined || typeof text !== 'string' || registry.path === assetPath('protocols', 'action_types.json')) return undefined;
  return { path: displayPath(ctx, registry.path), digest: registryDigest(text) };
}

/**
 * Who is acting. A command line can claim anything, so a harness pins its agents down through the
 * environment it gives them: with RATCHET_ACTOR=agent, `--as user` is refused, and the owner rules
 * (the agent cannot complete a user's item, nor confirm, review or merge) hold for real. A person's
 * own shell has no RATCHET_ACTOR, or RATCHET_ACTOR=user.
 */
export function actorOf(ctx: Context, place: GoalsLocation): Actor {
  const pinned = pinnedActor(ctx);
  if (pinned === 'agent' && place.as === 'user') requireUser(ctx, '--as user (an agent cannot act as the user)');
  const role = place.as ?? pinned ?? 'agent';
  const actor: Actor = { role, ...actorScope(ctx, place) };
  if (place.who !== undefined) actor.name = place.who;
  return actor;
}

export function intOption(value: unknown, name: string, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' ? numberFrom(value) : Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw new CliError(`${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  return n;
}

export function numberOption(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' ? numberFrom(value) : Number(value);
  if (!Number.isFinite(n)) throw new CliError(`${name} must be a number, got ${JSON.stringify(value)}`);
  return n;
}

/** Library refusals are exit 1 (the rule held); malformed input is exit 2, with the file and place. */
const REFUSALS = new Set(['conflict', 'owner-violation', 'invalid-transition', 'confirmation-required', 'completion-guard', 'deprecated-type', 'proposal-state', 'turn-mismatch', 'plan-state', 'scratch-state', 'untrusted-registry', 'scope-violation']);

/** A JSON input file (a turn commit, a proposal), kept to place errors at line:col. */
export interface JsonInput {
  value: unknown;
  /** As shown to the user. */
  file: string;
  locate: (pointer: string) => { line: number; column: number } | undefined;
}

type Placed = { pointer: string; message: string; line?: number | undefined; column?: number | undefined };

/** `file:line:col: message (at pointer)` lines for every problem but the first (which the error itself reports). */
function extraLines(file: string | undefined, issues: readonly Placed[]): string[] {
  return issues.map((i) => `${file ?? '<input>'}${i.line !== undefined ? `:${i.line}:${i.column ?? 1}` : ''}: ${i.message}${i.pointer ? ` (at ${i.pointer})` : ''}`);
}

/**
 * Library refusals are exit 1 (the rule held); malformed input is exit 2. Errors about a file, or
 * about a place in a JSON input (`input`), name the file and line:col, every problem on its own line.
 */
export async function mapErrors<T>(ctx: Context, fn: () => Promise<T>, input?: JsonInput): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof RegistryError) {
      const file = err.path === undefined ? undefined : displayPath(ctx, err.path);
      const [first, ...rest] = err.issues;
      const message = [`${first?.message ?? err.reason}${first?.pointer ? ` (at ${first.pointer})` : ''}`, ...extraLines(file, rest)].join('\n');
      throw new CliError(message, { exitCode: EXIT_USAGE, code: err.code, file, line: first?.line, column: first?.column });
    }
    if (err instanceof GoalsError) {
      const exitCode = REFUSALS.has(err.code) ? EXIT_PROBLEMS : EXIT_USAGE;
      if (input !== undefined && err.path === undefined && (err.pointer !== undefined || err.issues.length > 0)) {
        const issues: Placed[] = (err.issues.length > 0 ? err.issues : [{ pointer: err.pointer!, message: err.reason }]).map((i) => ({ ...i, ...input.locate(i.pointer) }));
        const [first, ...rest] = issues;
        throw new CliError([err.reason, ...extraLines(input.file, rest)].join('\n'), { exitCode, code: err.code, file: input.file, line: first!.line, column: first!.column });
      }
      throw new CliError(err.reason, { exitCode, code: err.code, file: err.path === undefined ? undefined : displayPath(ctx, err.path) });
    }
    throw err;
  }
}

/** Read a JSON argument file ("-" for stdin) through the store's guarded parser (file:line:col on errors). */
export async function readJsonArg(ctx: Context, file: string): Promise<JsonInput> {
  if (file === '-') {
    const text = await ctx.io.readStdin();
    return { value: parseJson(text, { path: '<stdin>' }), file: '<stdin>', locate: (pointer) => locate(text, pointer) };
  }
  const read = await readJsonFile(resolve(ctx.cwd, file), { maxBytes: 16 * 1024 * 1024 });
  return { value: read.value, file: displayPath(ctx, read.path), locate: (pointer) => read.locate(pointer) };
}
