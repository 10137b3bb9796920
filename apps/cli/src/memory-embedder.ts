/**
 * Which semantic signal memory recall uses, from ratchet.config.json (section `memory`): the
 * built-in one (nothing to load) or the transformer embedder, loaded only when configured (its
 * package is optional and heavy; no other command imports it).
 */
import { isAbsolute, resolve } from 'node:path';
import { loadTransformersEmbedder, MemoryError, type Embedder } from '@ratchet/memory';
import { CliError } from './errors.js';
import { CONFIG_FILE, ConfigError, loadMemoryConfig } from './hook/config.js';

/** The configured embedder, or undefined for the built-in signal. Config and load problems are input errors (exit 2) naming the file. */
export async function configuredEmbedder(root: string): Promise<Embedder | undefined> {
  let config;
  try {
    config = loadMemoryConfig(root);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.reason, { code: 'bad-config', file: err.file, ...(err.line === undefined ? {} : { line: err.line, column: err.column ?? 1 }) });
    throw err;
  }
  if (config.embedder === 'builtin') return undefined;
  const at = (dir: string | undefined): string | undefined => (dir === undefined ? undefined : isAbsolute(dir) ? dir : resolve(root, dir));
  try {
    return await loadTransformersEmbedder({ model: config.model, modelDir: at(config.modelDir), cacheDir: at(config.cacheDir) });
  } catch (err) {
    if (err instanceof MemoryError) throw new CliError(err.reason, { code: err.code, file: CONFIG_FILE });
    throw err;
  }
}
