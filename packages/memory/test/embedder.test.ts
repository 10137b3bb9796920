import { describe, expect, test } from 'vitest';
import { cachedEmbedder, DEFAULT_EMBEDDING_MODEL, loadTransformersEmbedder, MemoryError, MemoryIndex, type FeatureExtractor, type TransformersModule } from '../src/index.js';
import { emptyMemory, failure, NOW } from './support.js';

/** A toy model: [mentions a database, mentions styling], as a transformers tensor would hold it. */
const toyExtract: FeatureExtractor = (texts) => Promise.resolve({ tolist: () => texts.map((t) => [/mongo|database|db/i.test(t) ? 1 : 0, /css|style/i.test(t) ? 1 : 0.01]) });

function fakeModule(calls: { pipeline: unknown[][]; extract: string[][] }, fail?: Error): TransformersModule {
  const extract: FeatureExtractor = (texts, options) => {
    calls.extract.push(texts);
    expect(options).toEqual({ pooling: 'mean', normalize: true });
    return toyExtract(texts, options);
  };
  return {
    env: { allowRemoteModels: true, allowLocalModels: false, localModelPath: '/models/', cacheDir: null },
    pipeline: (...args) => {
      calls.pipeline.push(args);
      return fail === undefined ? Promise.resolve(extract) : Promise.reject(fail);
    },
  };
}

describe('the transformer embedder (a test double for the model; never a download)', () => {
  test('loads from local files only, with the configured model directory, and feeds hybrid recall', async () => {
    const calls = { pipeline: [] as unknown[][], extract: [] as string[][] };
    const mod = fakeModule(calls);
    const embedder = await loadTransformersEmbedder({ modelDir: '/srv/models', cacheDir: '/home/u/.cache/hf', importModule: () => Promise.resolve(mod) });
    expect(mod.env).toMatchObject({ allowRemoteModels: false, allowLocalModels: true, localModelPath: '/srv/models', cacheDir: '/home/u/.cache/hf' });
    expect(calls.pipeline).toEqual([['feature-extraction', DEFAULT_EMBEDDING_MODEL, { local_files_only: true, cache_dir: '/home/u/.cache/hf' }]]);

    const data = emptyMemory();
    data.failures.push(failure('mongo-down', 'MongoNetworkError: connect ECONNREFUSED'));
    data.failures.push(failure('css-purge', 'stylesheet classes vanish after purge'));
    const index = new MemoryIndex(data);
    const r = await index.queryWith(embedder, 'the database is unreachable', { now: NOW });
    expect(r.failures.map((h) => h.name)).toEqual(['mongo-down']);
    // Entries are embedded once: a second query embeds only the new topic.
    await index.queryWith(embedder, 'another question about the db', { now: NOW });
    expect(calls.extract.map((batch) => batch.length)).toEqual([3, 1]);
  });

  test('not installed: a clear error naming how to install it (the package is not in this repository)', async () => {
    const err = await loadTransformersEmbedder().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MemoryError);
    expect(err).toMatchObject({ code: 'embedder-unavailable' });
    expect((err as Error).message).toContain('npm install @huggingface/transformers');
  });

  test('model files missing: the error says where it looked and that downloads are off', async () => {
    const calls = { pipeline: [] as unknown[][], extract: [] as string[][] };
    const err = await loadTransformersEmbedder({ modelDir: '/nowhere/models', importModule: () => Promise.resolve(fakeModule(calls, new Error('file not found: config.json'))) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'embedder-unavailable' });
    expect((err as Error).message).toMatch(/\/nowhere\/models.*downloads are off.*config\.json/);
  });

  test('a model that returns garbage is an error, not a silent zero; the LRU evicts the oldest text', async () => {
    const bad = cachedEmbedder(() => Promise.resolve({ tolist: () => [[Number.NaN]] }));
    await expect(bad.embed(['x'])).rejects.toMatchObject({ code: 'embedder-unavailable' });
    const seen: string[] = [];
    const small = cachedEmbedder((texts) => {
      seen.push(...texts);
      return Promise.resolve({ tolist: () => texts.map(() => [1]) });
    }, 2);
    await small.embed(['a', 'b']);
    await small.embed(['a', 'c']); // b is now the least recently used and is evicted
    await small.embed(['a', 'b']);
    expect(seen).toEqual(['a', 'b', 'c', 'b']);
  });
});
