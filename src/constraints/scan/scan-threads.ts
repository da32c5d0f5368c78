import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { Worker } from 'node:worker_threads'
import { MkError } from '../../errors.js'
import { packageRoot } from '../../package-root.js'
import { scanDiskFile, type DiskScan } from './disk-scan.js'
import { adoptScan, planSpec, type FileScanner, type ScanPlan, type ScanRequest } from './file-scan.js'
import type { CheckInput } from '../input/input.js'
import type { ScanThreadReply, ScanThreadRequest, ScanThreadSetup } from './scan-worker.js'

/**
 * Below this many files to read, a check scans on its own thread: a scan
 * thread costs more to start and to feed than it saves on fewer files here
 * (2 cores; `npm run bench -- check`, ADR 0022).
 */
const defaultFromFiles = 20_000

/** Files per message: small enough that the threads finish close together, large enough that messages cost little. */
const chunkSize = 128

/** The compiled worker: tsc's output ships in the package (dist/src); the bundle cannot start a worker from itself. */
function workerFile(): string | undefined {
  const file = join(packageRoot(), 'dist', 'src', 'constraints', 'scan', 'scan-worker.js')
  return existsSync(file) ? file : undefined
}

/** When a check scans on other threads too, and on how many besides its own. */
export interface ScanThreadSettings {
  threads: number
  /** The fewest files to read that are shared with the threads. */
  fromFiles: number
}

function wholeNumber(environment: NodeJS.ProcessEnv, variable: string, fallback: number, max: number | undefined, hint: string): number {
  const setting = environment[variable]
  if (setting === undefined || setting === '' || setting === 'auto') return fallback
  if (!/^\d+$/.test(setting) || (max !== undefined && Number(setting) > max)) {
    const range = max === undefined ? 'a whole number' : `a whole number from 0 to ${max}`
    throw new MkError('INVALID_INPUT', `${variable} must be ${range} or "auto", not "${setting}"`, { details: { variable, value: setting, hint } })
  }
  return Number(setting)
}

/**
 * MK_CHECK_THREADS: threads besides the check's own (0 turns them off; by
 * default one fewer than the cores, at most 3). MK_CHECK_THREADS_FROM: the
 * fewest files to read for which they are used (by default 20,000).
 */
export function scanThreadSettings(environment: NodeJS.ProcessEnv = process.env): ScanThreadSettings {
  return {
    threads: wholeNumber(
      environment,
      'MK_CHECK_THREADS',
      Math.min(3, availableParallelism() - 1),
      64,
      'unset it to use one thread fewer than the cores, or set 0 to scan on one thread',
    ),
    fromFiles: wholeNumber(environment, 'MK_CHECK_THREADS_FROM', defaultFromFiles, undefined, 'set a number of files, or unset it for the default of 20000'),
  }
}

/** Send one chunk to a scan thread; rejects when the thread fails or exits before it answers. */
function ask(worker: Worker, message: ScanThreadRequest, exited: ReadonlySet<Worker>): Promise<DiskScan[]> {
  return new Promise((resolve, reject) => {
    if (exited.has(worker)) {
      reject(new Error('the scan thread has exited'))
      return
    }
    const stopListening = (): void => {
      worker.off('message', onMessage)
      worker.off('error', onFailure)
      worker.off('exit', onFailure)
    }
    const onMessage = (reply: ScanThreadReply): void => {
      if (reply.id !== message.id) return
      stopListening()
      resolve(reply.results)
    }
    const onFailure = (reason: unknown): void => {
      stopListening()
      reject(reason instanceof Error ? reason : new Error(`the scan thread exited (code ${String(reason)})`))
    }
    worker.on('message', onMessage)
    worker.on('error', onFailure)
    worker.on('exit', onFailure)
    worker.postMessage(message)
  })
}

/** Threads that read and scan workspace files alongside the check's own thread. */
export interface ScanThreads {
  /**
   * Read and scan the files on this thread and the others, each taking the
   * next chunk when it finishes one; results in the order of the requests.
   * A thread that fails leaves its chunk, and the rest, to this one: the
   * answer never depends on the threads.
   */
  scan(requests: readonly ScanRequest[]): Promise<{ results: DiskScan[]; chunksByThreads: number }>
  close(): void
}

/**
 * Start `threads` scan threads for the files on disk; started before the
 * files to read are known, so that they load while the check looks its cache
 * up. Undefined when no compiled worker exists (sources run by a test runner).
 */
export function startScanThreads(disk: NonNullable<CheckInput['disk']>, plan: ScanPlan, scan: FileScanner, threads: number): ScanThreads | undefined {
  const { root, statTime } = disk
  const file = workerFile()
  if (file === undefined || threads < 1) return undefined
  const setup: ScanThreadSetup = { root, statTime, plan: planSpec(plan) }
  const workers = Array.from({ length: threads }, () => new Worker(file, { workerData: setup }))
  const exited = new Set<Worker>()
  for (const worker of workers) worker.once('exit', () => exited.add(worker))
  let nextId = 0
  return {
    async scan(requests) {
      const results = new Array<DiskScan>(requests.length)
      const chunks = Math.ceil(requests.length / chunkSize)
      let nextChunk = 0
      let chunksByThreads = 0
      const take = (): number | undefined => (nextChunk < chunks ? nextChunk++ : undefined)
      const scanHere = (chunk: number): void => {
        for (let index = chunk * chunkSize; index < Math.min(requests.length, (chunk + 1) * chunkSize); index++) {
          results[index] = scanDiskFile(root, requests[index] as ScanRequest, scan, statTime)
        }
      }
      // Two chunks in flight per thread: one waits in its queue while it scans the other, so it never idles while this thread is busy.
      const helped = [...workers, ...workers].map(async (worker) => {
        for (let chunk = take(); chunk !== undefined; chunk = take()) {
          const start = chunk * chunkSize
          let scanned: DiskScan[]
          try {
            scanned = await ask(worker, { id: nextId++, requests: requests.slice(start, start + chunkSize) }, exited)
          } catch {
            scanHere(chunk)
            return
          }
          scanned.forEach(({ result, identity }, offset) => {
            const request = requests[start + offset] as ScanRequest
            results[start + offset] = { result: typeof result === 'object' && 'patterns' in result ? adoptScan(result, request) : result, identity }
          })
          chunksByThreads++
        }
      })
      // Between chunks this thread yields, so that the others' answers are received and they are given the next chunk.
      for (let chunk = take(); chunk !== undefined; chunk = take()) {
        scanHere(chunk)
        await nextTurn()
      }
      await Promise.all(helped)
      return { results, chunksByThreads }
    },
    close() {
      for (const worker of workers) void worker.terminate()
    },
  }
}
