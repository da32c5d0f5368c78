import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads'
import { MkError, type ErrorCode } from '../errors.js'
import { createScanner, type ScanRequest } from './file-scan.js'
import { emptyOutcome, scanClaimed, type ScanOutcome } from './scan-files.js'
import { readWorkspaceFile } from './workspace-file.js'

/**
 * A second thread that scans workspace files beside the main one: the machine
 * mk runs on in a pre-commit hook or CI has two cores or more, and reading and
 * scanning are most of a whole-tree check. This module is both the helper's
 * code (when loaded as the worker) and the way to start it.
 */

export interface ScanJob {
  root: string
  codePatterns: string[]
  dependencyFields: string[]
  requests: ScanRequest[]
  /** Int32 [next request, helper state]: requests are claimed from it by both threads. */
  shared: SharedArrayBuffer
}

type ScanReply = { ok: true; outcome: ScanOutcome } | { ok: false; code: ErrorCode | undefined; message: string; details: Record<string, unknown> | undefined }

const role = 'mk-constraint-scan'
const waiting = 0
const started = 1
const cancelled = 2

function runJob(job: ScanJob): ScanReply {
  const state = new Int32Array(job.shared, 4, 1)
  if (Atomics.compareExchange(state, 0, waiting, started) !== waiting) return { ok: true, outcome: emptyOutcome() }
  try {
    const outcome = emptyOutcome()
    const scan = createScanner({ codePatterns: job.codePatterns.map((pattern) => ({ pattern })), dependencyFields: job.dependencyFields })
    scanClaimed(job.requests, new Int32Array(job.shared, 0, 1), (path) => readWorkspaceFile(job.root, path), scan, outcome)
    return { ok: true, outcome }
  } catch (error) {
    return error instanceof MkError
      ? { ok: false, code: error.code, message: error.message, details: error.details }
      : { ok: false, code: undefined, message: (error as Error).message, details: undefined }
  }
}

if (!isMainThread && workerData === role) {
  parentPort?.once('message', (job: ScanJob) => parentPort?.postMessage(runJob(job)))
}

export interface ScanHelper {
  /** Hand the helper the job: from now on it claims requests as the main thread does. */
  begin(job: ScanJob): void
  /** What the helper scanned; nothing when it had not started by now (then it never will, and nobody waits for it). */
  finish(): Promise<ScanOutcome>
  /** Stop the thread, used or not. */
  stop(): Promise<void>
}

export function sharedState(): SharedArrayBuffer {
  return new SharedArrayBuffer(8)
}

/**
 * Start the helper thread now, so it loads while the main thread reads the
 * knowledge and walks the tree. Undefined when this module is not compiled
 * JavaScript (the TypeScript sources under test): a worker cannot load it.
 */
export function startScanHelper(): ScanHelper | undefined {
  if (!import.meta.url.endsWith('.js')) return undefined
  const worker = new Worker(new URL(import.meta.url), { workerData: role })
  const reply = new Promise<ScanOutcome>((resolve, reject) => {
    worker.once('message', (message: ScanReply) => {
      if (message.ok) resolve(message.outcome)
      else reject(message.code === undefined ? new Error(message.message) : new MkError(message.code, message.message, message.details === undefined ? {} : { details: message.details }))
    })
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new MkError('INTERNAL_ERROR', `the scanning thread stopped (exit code ${code}) before it answered`)))
  })
  // Whoever does not call finish() must not see an unhandled rejection when the thread is stopped.
  reply.catch(() => undefined)
  let shared: SharedArrayBuffer | undefined
  return {
    begin(job) {
      shared = job.shared
      worker.postMessage(job)
    },
    finish() {
      if (shared === undefined) return Promise.resolve(emptyOutcome())
      const neverStarted = Atomics.compareExchange(new Int32Array(shared, 4, 1), 0, waiting, cancelled) === waiting
      return neverStarted ? Promise.resolve(emptyOutcome()) : reply
    },
    async stop() {
      await worker.terminate()
    },
  }
}
