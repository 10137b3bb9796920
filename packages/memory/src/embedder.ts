/**
 * The optional transformer embedder: sentence embeddings (all-MiniLM-L6-v2, as FTL used) from
 * `@huggingface/transformers`, as the semantic signal instead of the built-in one.
 *
 * The package is an optional peer dependency: it is imported dynamically, only when a project
 * configures this embedder, so nothing of it loads on any other path (and the CLI bundle does not
 * contain it). Models are never downloaded: remote models are switched off, and the model must be in
 * the local model directory or the user's transformers cache. Missing package or model files are a
 * MemoryError (`embedder-unavailable`) that says what to install or where the files were looked for.
 * `loadPipeline` lets tests (and hosts with their own runtime) inject the pipeline factory.
 */
import { MemoryError } from './errors.js';
import type { Embedder } from './query.js';

export const DEFAULT_EMBEDDING_MODEL = 'Xenova/all-MiniLM-L6-v2';
export const TRANSFORMERS_PACKAGE = '@huggingface/transformers';
/** Texts whose vectors are kept per embedder (FTL's LRU held 5,000): memory's entries are embedded once per process. */
export const EMBEDDING_CACHE_SIZE = 5000;

/** What a feature-extraction pipeline returns: a tensor with `tolist()` (one vector per text). */
export interface EmbeddingTensor {
  tolist(): unknown;
}
export type FeatureExtractor = (texts: string[], options: { pooling: 'mean'; normalize: boolean }) => Promise<EmbeddingTensor>;
export type PipelineFactory = (task: 'feature-extraction', model: string, options: { local_files_only: boolean; cache_dir?: string }) => Promise<FeatureExtractor>;

/** The part of `@huggingface/transformers` this uses. */
export interface TransformersModule {
  pipeline: PipelineFactory;
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string; cacheDir: string | null };
}

export interface TransformersEmbedderOptions {
  /** Model id (default Xenova/all-MiniLM-L6-v2), looked up under `modelDir` or in the cache. */
  model?: string | undefined;
  /** A directory holding `<model id>/` (config.json, tokenizer.json, onnx/model.onnx). */
  modelDir?: string | undefined;
  /** The transformers cache directory (default: the package's own, usually ~/.cache/huggingface or node_modules/.cache). */
  cacheDir?: string | undefined;
  /** Import the package (default: `import('@huggingface/transformers')`). Tests inject a double. */
  importModule?: () => Promise<TransformersModule>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The real import, by a specifier the bundler cannot see: an optional peer dependency stays out of the CLI bundle. */
async function importTransformers(): Promise<TransformersModule> {
  const specifier = TRANSFORMERS_PACKAGE;
  let mod: unknown;
  try {
    mod = await import(specifier);
  } catch (err) {
    const code = isObject(err) ? err.code : undefined;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new MemoryError(
        'embedder-unavailable',
        `the transformers embedder is configured (ratchet.config.json, memory.embedder) but ${TRANSFORMERS_PACKAGE} is not installed: run \`npm install ${TRANSFORMERS_PACKAGE}\` in the project, or set memory.embedder to "builtin"`,
      );
    }
    throw err;
  }
  if (!isObject(mod) || typeof mod.pipeline !== 'function' || !isObject(mod.env)) throw new MemoryError('embedder-unavailable', `${TRANSFORMERS_PACKAGE} does not export pipeline and env: an unsupported version?`);
  return mod as unknown as TransformersModule;
}

/**
 * Load the embedder: import the package, point it at local files only, build the pipeline. Throws
 * MemoryError `embedder-unavailable` naming the install command or the directories searched.
 */
export async function loadTransformersEmbedder(options: TransformersEmbedderOptions = {}): Promise<Embedder> {
  const model = options.model ?? DEFAULT_EMBEDDING_MODEL;
  const mod = await (options.importModule ?? importTransformers)();
  // Never a download: tests, CI and agents' shells must not fetch 90 MB behind the user's back.
  mod.env.allowRemoteModels = false;
  mod.env.allowLocalModels = true;
  if (options.modelDir !== undefined) mod.env.localModelPath = options.modelDir;
  if (options.cacheDir !== undefined) mod.env.cacheDir = options.cacheDir;
  let extract: FeatureExtractor;
  try {
    extract = await mod.pipeline('feature-extraction', model, { local_files_only: true, ...(options.cacheDir === undefined ? {} : { cache_dir: options.cacheDir }) });
  } catch (err) {
    const where = [options.modelDir ?? mod.env.localModelPath, options.cacheDir ?? mod.env.cacheDir].filter((d): d is string => typeof d === 'string' && d !== '');
    throw new MemoryError(
      'embedder-unavailable',
      `model ${model} could not be loaded from local files (looked in ${where.join(' and ') || 'the default directories'}; downloads are off): ${err instanceof Error ? err.message : String(err)}. Put the model in memory.modelDir (ratchet.config.json), e.g. with \`huggingface-cli download ${model} --local-dir <modelDir>/${model}\``,
    );
  }
  return cachedEmbedder(extract);
}

/** An Embedder over a feature extractor, with an LRU of vectors by text. */
export function cachedEmbedder(extract: FeatureExtractor, size = EMBEDDING_CACHE_SIZE): Embedder {
  const cache = new Map<string, number[]>();
  return {
    async embed(texts: readonly string[]): Promise<number[][]> {
      const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
      if (missing.length > 0) {
        const vectors = toVectors((await extract(missing, { pooling: 'mean', normalize: true })).tolist(), missing.length);
        missing.forEach((t, i) => cache.set(t, vectors[i]!));
      }
      const out = texts.map((t) => {
        const v = cache.get(t)!;
        // Refresh recency: a Map iterates in insertion order, so re-inserting moves it last.
        cache.delete(t);
        cache.set(t, v);
        return v;
      });
      while (cache.size > size) cache.delete(cache.keys().next().value!);
      return out;
    },
  };
}

function toVectors(list: unknown, expected: number): number[][] {
  if (!Array.isArray(list) || list.length !== expected || !list.every((v) => Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x)))) {
    throw new MemoryError('embedder-unavailable', `the embedding model returned something other than ${expected} vectors of numbers`);
  }
  return list as number[][];
}
