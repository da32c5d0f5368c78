import { MkError, isNodeError } from '../../errors.js'
import type { FileScan, FileScanner, ScanRequest } from './file-scan.js'
import type { CheckInput } from '../input/input.js'
import type { ScanCache } from '../cache/scan-cache.js'

interface ScanOutcome {
  /** Scans of the text files, by path, in request order. */
  scans: Map<string, FileScan>
  /** The files not scanned, and why. */
  unscanned: Map<string, 'binary' | 'too-large'>
}

function readFailure(path: string, error: unknown): MkError {
  const reason = isNodeError(error) ? (error.code ?? error.message) : (error as Error).message
  return new MkError('INVALID_INPUT', `cannot read ${path} (${reason}); the check cannot be trusted without it`, {
    details: { file: path, hint: 'fix its permissions, or exclude it with check.ignore in .mkrc' },
  })
}

/**
 * Read and scan each requested file in turn; a file's text is dropped as soon
 * as it is scanned. With a cache, a file whose content identity (see
 * CheckInput.identity) it knows is not read at all.
 */
export async function scanFiles(input: CheckInput, requests: readonly ScanRequest[], scan: FileScanner, cache?: ScanCache): Promise<ScanOutcome> {
  const outcome: ScanOutcome = { scans: new Map(), unscanned: new Map() }
  const count = (path: string, result: FileScan | 'binary' | 'too-large'): void => {
    if (typeof result === 'string') outcome.unscanned.set(path, result)
    else outcome.scans.set(result.path, result)
  }
  for (const request of requests) {
    const identity = cache === undefined ? undefined : input.identity?.(request.path)
    const cached = identity === undefined ? undefined : cache?.get(request, identity)
    if (cached !== undefined) {
      count(request.path, cached)
      continue
    }
    const content = await input.read(request.path).catch((error: unknown) => {
      throw readFailure(request.path, error)
    })
    const result = content.kind === 'text' ? scan(request, content.text) : content.kind === 'binary' ? 'binary' : 'too-large'
    if (identity !== undefined) cache?.set(request, identity, result)
    count(request.path, result)
  }
  cache?.save()
  return outcome
}
