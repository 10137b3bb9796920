/**
 * The registry a turn runs under. Seed 002: "Proposals ... never alter current-turn semantics", and
 * "the planner cannot activate new types mid-turn". A turn pins the action-type registry in use when
 * it starts: the registry document is kept, content-addressed, at
 * `.ratchet/registry-pins/<sha256>.json` (the action-types file format), and the turn's start record
 * names the digest. The turn's commit is judged against that registry, so a type merged (or changed,
 * or deprecated) while the turn runs takes effect from the next turn. A pin file is never rewritten;
 * one whose content no longer matches its name is refused.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError, readTextFile, writeFileAtomic } from '@ratchet/store';
import { GoalsError, InputError } from './errors.js';
import { registryDigest } from './goals-file.js';
import { serializeRegistry } from './proposals.js';
import { REGISTRY_MAX_BYTES, loadRegistry, parseRegistryText, type Registry } from './registry.js';

/** Where pinned registries are kept, relative to the project root. */
export const REGISTRY_PINS_DIR = '.ratchet/registry-pins';

const DIGEST = /^[0-9a-f]{64}$/;

export function registryPinPath(root: string, digest: string): string {
  if (!DIGEST.test(digest)) throw new InputError(`${JSON.stringify(digest)} is not a registry digest (64 hex characters)`);
  return join(root, REGISTRY_PINS_DIR, `${digest}.json`);
}

/** The text a registry is pinned as, and its digest (the pin's name). */
async function pinText(registry: Registry): Promise<{ text: string; digest: string }> {
  const text = await serializeRegistry(registry.document, 'json');
  return { text, digest: registryDigest(text) };
}

/** The digest `registry` is (or would be) pinned under, without writing anything. */
export async function pinDigest(registry: Registry): Promise<string> {
  return (await pinText(registry)).digest;
}

/** Keep `registry` as a pin (once per content) and return its digest, the name turns record. */
export async function pinRegistry(root: string, registry: Registry): Promise<string> {
  const { text, digest } = await pinText(registry);
  const path = registryPinPath(root, digest);
  try {
    if ((await readTextFile(path, { maxBytes: REGISTRY_MAX_BYTES })).text === text) return digest;
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
  await mkdir(join(root, REGISTRY_PINS_DIR), { recursive: true });
  await writeFileAtomic(path, text, { maxBytes: REGISTRY_MAX_BYTES });
  return digest;
}

/** The registry pinned under `digest`: read, checked against its name, validated and compiled. */
export async function readPinnedRegistry(root: string, digest: string): Promise<Registry> {
  const path = registryPinPath(root, digest);
  const { text } = await readTextFile(path, { maxBytes: REGISTRY_MAX_BYTES });
  if (registryDigest(text) !== digest) {
    throw new GoalsError('invalid-input', "the registry pinned for this turn was changed after it was pinned (its content no longer has the digest it is named by): the turn's commit cannot be judged against it; start a new turn", { path });
  }
  const parsed = await parseRegistryText(text, path, 'json');
  return loadRegistry(parsed.value, { path, locate: parsed.locate });
}
