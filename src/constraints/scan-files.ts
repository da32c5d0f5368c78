import { MkError, isNodeError } from '../errors.js'
import type { FileScan, FileScanner, ScanRequest } from './file-scan.js'
import type { FileContent } from './input.js'

export interface ScanOutcome {
  /** Scans of the text files, by request index. */
  scans: Map<number, FileScan>
  binary: number
  tooLarge: number
}

export function emptyOutcome(): ScanOutcome {
  return { scans: new Map(), binary: 0, tooLarge: 0 }
}

/** Requests are handed out in runs of this many, so two threads finish close together. */
export const chunkSize = 32

/**
 * Claims the next run of requests from a counter shared by every thread that
 * scans (an Int32Array over a SharedArrayBuffer): each run goes to exactly one.
 */
export function claimChunk(counter: Int32Array, total: number): { start: number; end: number } | undefined {
  const start = Atomics.add(counter, 0, chunkSize)
  return start >= total ? undefined : { start, end: Math.min(total, start + chunkSize) }
}

export function readFailure(path: string, error: unknown): MkError {
  const reason = isNodeError(error) ? (error.code ?? error.message) : (error as Error).message
  return new MkError('INVALID_INPUT', `cannot read ${path} (${reason}); the check cannot be trusted without it`, {
    details: { file: path, hint: 'fix its permissions, or exclude it with check.ignore in .mkrc' },
  })
}

/** Read and scan one request into the outcome; the text is dropped as soon as it is scanned. */
export function scanInto(outcome: ScanOutcome, index: number, request: ScanRequest, content: FileContent, scan: FileScanner): void {
  if (content.kind === 'text') outcome.scans.set(index, scan(request, content.text))
  else if (content.kind === 'binary') outcome.binary++
  else outcome.tooLarge++
}

/** Scan every request claimed from the counter, reading each file synchronously. */
export function scanClaimed(requests: readonly ScanRequest[], counter: Int32Array, read: (path: string) => FileContent, scan: FileScanner, outcome: ScanOutcome): void {
  for (let chunk = claimChunk(counter, requests.length); chunk !== undefined; chunk = claimChunk(counter, requests.length)) {
    for (let index = chunk.start; index < chunk.end; index++) {
      const request = requests[index] as ScanRequest
      let content: FileContent
      try {
        content = read(request.path)
      } catch (error) {
        throw readFailure(request.path, error)
      }
      scanInto(outcome, index, request, content, scan)
    }
  }
}
