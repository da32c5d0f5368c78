import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { Worker, type ResourceLimits } from 'node:worker_threads'
import { MkError } from '../../errors.js'
import { packageRoot } from '../../package-root.js'
import type { EmbedReply, EmbedRequest } from './bundled-worker.js'

/** Embeds batches on worker threads, one model per worker, so that every core works on a bulk embedding. */
export interface WorkerPool {
  /** One result per batch, in the order of the batches; each idle worker takes the next batch waiting, of this call or another. */
  embedBatches(batches: readonly string[][]): Promise<Float32Array[][]>
  close(): Promise<void>
}

/** The compiled worker: tsc's output ships in the package (dist/src); the bundle cannot start a worker from itself. */
function workerFile(): string | undefined {
  const file = join(packageRoot(), 'dist', 'src', 'search', 'embedding', 'bundled-worker.js')
  return existsSync(file) ? file : undefined
}

/** How many workers a bulk embedding uses: one per core, at most four (each holds a model of its own). */
export function workerCount(): number {
  return Math.min(4, availableParallelism())
}

/** A pool of `size` workers (with these limits on each one's V8 heap), or undefined where no compiled worker exists (sources run by a test runner): then the caller embeds in its own thread. */
export function createWorkerPool(size: number, resourceLimits?: ResourceLimits): WorkerPool | undefined {
  const file = workerFile()
  if (file === undefined || size < 1) return undefined
  const workers = Array.from({ length: size }, () => {
    const worker = new Worker(file, { resourceLimits })
    // A pool left open must not keep a finished command running.
    worker.unref()
    return worker
  })
  let nextId = 0

  function run(worker: Worker, texts: string[]): Promise<Float32Array[]> {
    const id = nextId++
    return new Promise((resolve, reject) => {
      const stopListening = (): void => {
        worker.off('message', onMessage)
        worker.off('error', onError)
        worker.off('exit', onExit)
      }
      const onMessage = (reply: EmbedReply): void => {
        if (reply.id !== id) return
        stopListening()
        if ('error' in reply) reject(new MkError('PROVIDER_ERROR', `the embedding worker failed: ${reply.error}`, { retryable: false }))
        else resolve(reply.vectors)
      }
      const onError = (error: Error): void => {
        stopListening()
        reject(new MkError('PROVIDER_ERROR', `the embedding worker stopped: ${error.message}`, { cause: error, retryable: false }))
      }
      const onExit = (code: number): void => {
        stopListening()
        reject(new MkError('PROVIDER_ERROR', `the embedding worker exited (code ${code}) before it answered`, { retryable: true }))
      }
      worker.on('message', onMessage)
      worker.on('error', onError)
      worker.on('exit', onExit)
      worker.postMessage({ id, texts } satisfies EmbedRequest)
    })
  }

  // One queue for every call: a worker that finishes takes the next batch of whichever call is
  // waiting, so a caller that asks again before its last answer (embedPending) never leaves one idle.
  const queue: { texts: string[]; settle: (result: Promise<Float32Array[]>) => void }[] = []
  const idle = [...workers]
  const startWaitingBatches = (): void => {
    for (let worker = idle.pop(); worker !== undefined; worker = idle.pop()) {
      const job = queue.shift()
      if (job === undefined) {
        idle.push(worker)
        return
      }
      const result = run(worker, job.texts)
      job.settle(result)
      void result
        .catch(() => undefined)
        .finally(() => {
          idle.push(worker)
          startWaitingBatches()
        })
    }
  }

  return {
    embedBatches(batches) {
      const results = batches.map((texts) => new Promise<Float32Array[]>((settle) => queue.push({ texts, settle })))
      startWaitingBatches()
      return Promise.all(results)
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()))
    },
  }
}
