/**
 * The plan registry, `knowledge_core/plan_registry.json`: logical name -> project-relative plan
 * path, a versioned document written only through @ratchet/store (locked, atomic, validated).
 * The seed's legacy flat map (`{"deep-research": "plans/deep_research.txt"}`, no schemaVersion)
 * is read as version 1 and rewritten in the new shape by the next update.
 * Import through `@ratchet/plan-lint/registry`. It does not load zod (a hand-written validator,
 * registry-data.ts): `plan lint` and `run done` read the registry on every call.
 */
import { relative, resolve, sep } from 'node:path';
import { NotFoundError, OutsideRootError, ValidationError, defineDocument, openDocument, readJsonFileSync, readTextFile, toJsonPointer, withLock, writeFileAtomic, resolveInsideRoot, type DocumentOptions } from '@ratchet/store';
import { PLAN_NAME, PLAN_REGISTRY_SCHEMA_URL, planRegistryValidator, type PlanRegistryData } from './registry-data.js';

export const PLAN_REGISTRY_PATH = 'knowledge_core/plan_registry.json';
export const PLAN_REGISTRY_VERSION = 1;
export { PLAN_NAME, PLAN_REGISTRY_SCHEMA_URL };

export type PlanRegistryErrorCode = 'invalid-name' | 'duplicate-name' | 'unknown-name' | 'outside-root' | 'plan-not-found' | 'not-a-file';

export class PlanRegistryError extends Error {
  readonly code: PlanRegistryErrorCode;
  readonly planName: string;
  constructor(code: PlanRegistryErrorCode, planName: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PlanRegistryError';
    this.code = code;
    this.planName = planName;
  }
}

export const planRegistryDocument = defineDocument<PlanRegistryData>({
  schema: planRegistryValidator,
  version: PLAN_REGISTRY_VERSION,
  $schema: PLAN_REGISTRY_SCHEMA_URL,
  initial: { plans: {} },
});

export interface RegisterOptions {
  /** Replace an existing entry of the same name. */
  force?: boolean;
  store?: DocumentOptions;
}

export interface RegisteredPlan {
  name: string;
  path: string;
}

/** Register `planPath` (relative to `root`, or absolute inside it) under `name`. Returns the stored entry. */
export async function registerPlan(registryPath: string, root: string, name: string, planPath: string, options: RegisterOptions = {}): Promise<RegisteredPlan> {
  checkName(name);
  const absRoot = resolve(root);
  let abs: string;
  try {
    // Lexically inside is not enough: a symbolic link (the plan, or a directory on its way) may lead out.
    abs = resolveInsideRoot(absRoot, planPath, { allowAbsolute: true });
  } catch (err) {
    if (err instanceof OutsideRootError) throw new PlanRegistryError('outside-root', name, `${planPath}: plans must be files inside the project root: the path ${err.reason}`, { cause: err });
    throw err;
  }
  try {
    await readTextFile(abs);
  } catch (err) {
    if (err instanceof NotFoundError) throw new PlanRegistryError('plan-not-found', name, `${planPath}: no such plan file`, { cause: err });
    if (err instanceof Error && (err as { code?: string }).code === 'not-a-file') throw new PlanRegistryError('not-a-file', name, `${planPath}: not a file`, { cause: err });
    throw err;
  }
  const rel = relative(absRoot, abs);
  const path = rel.split(sep).join('/');
  const file = resolve(absRoot, registryPath);
  await upgradeLegacy(file);
  await openDocument(file, planRegistryDocument, options.store).update((draft) => {
    if (Object.hasOwn(draft.plans, name) && options.force !== true) {
      throw new PlanRegistryError('duplicate-name', name, `a plan named ${JSON.stringify(name)} is already registered (${draft.plans[name]}); pass force to replace it`);
    }
    draft.plans[name] = path;
    draft.plans = sortedRecord(draft.plans);
  });
  return { name, path };
}

/** Remove `name`; returns the path it pointed to. */
export async function deregisterPlan(registryPath: string, root: string, name: string, options: { store?: DocumentOptions } = {}): Promise<RegisteredPlan> {
  checkName(name);
  const file = resolve(root, registryPath);
  await upgradeLegacy(file);
  let removed = '';
  await openDocument(file, planRegistryDocument, options.store).update((draft) => {
    if (!Object.hasOwn(draft.plans, name)) throw new PlanRegistryError('unknown-name', name, `no plan named ${JSON.stringify(name)} is registered`);
    removed = draft.plans[name]!;
    const { [name]: _gone, ...rest } = draft.plans;
    draft.plans = rest;
  });
  return { name, path: removed };
}

/** Every registered plan, sorted by name. A missing registry is empty. */
export async function listPlans(registryPath: string, root: string): Promise<RegisteredPlan[]> {
  const plans = await readRegistry(registryPath, root);
  return Object.keys(plans)
    .sort()
    .map((name) => ({ name, path: plans[name]! }));
}

/**
 * The registry as the plain map lintPlan takes (`registry` option). The reads are synchronous
 * underneath: `plan lint` and `run done` read the registry on every call in a project that has one,
 * and the promise-based file handle costs more start-up than reading the small file.
 */
// eslint-disable-next-line @typescript-eslint/require-await -- async for callers; a throw becomes a rejection
export async function readRegistry(registryPath: string, root: string): Promise<Record<string, string>> {
  const file = resolve(root, registryPath);
  const data = readLegacy(file) ?? openDocument(file, planRegistryDocument).readSync();
  return { ...data.plans };
}

function checkName(name: string): void {
  if (!PLAN_NAME.test(name)) throw new PlanRegistryError('invalid-name', name, `invalid plan name ${JSON.stringify(name)}: names match ${PLAN_NAME.source} (and are not constructor/prototype)`);
}

/** A legacy flat map converted and validated, or undefined when the file is absent or already versioned. */
function readLegacy(file: string): PlanRegistryData | undefined {
  let doc;
  try {
    doc = readJsonFileSync(file);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
  const value = doc.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.hasOwn(value, 'schemaVersion')) return undefined;
  const result = planRegistryValidator.safeParse({ plans: value });
  if (!result.success) {
    // Issues are about {plans: <the file>}: drop the leading "plans" so pointers point into the file.
    const issues = result.error.issues.map((i) => {
      const pointer = toJsonPointer(i.path.slice(1));
      const at = doc.locate(pointer);
      return { pointer, message: `${i.message} (legacy plan registry)`, ...(at ? { line: at.line, column: at.column } : {}) };
    });
    throw new ValidationError(file, issues, 'file');
  }
  return result.data;
}

/** Rewrite a legacy registry as version 1, under the store's lock, so the update can proceed. */
async function upgradeLegacy(file: string): Promise<void> {
  if (readLegacy(file) === undefined) return;
  await withLock(file, async () => {
    const data = readLegacy(file);
    if (data === undefined) return;
    const doc = { $schema: PLAN_REGISTRY_SCHEMA_URL, schemaVersion: PLAN_REGISTRY_VERSION, plans: sortedRecord(data.plans) };
    await writeFileAtomic(file, `${JSON.stringify(doc, null, 2)}\n`);
  });
}

function sortedRecord(record: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key]!;
  return out;
}
