import { MkError } from '../../errors.js'
import { createScanner, type FileScan, type FileScanner, type ScanPlan, type ScanRequest } from './file-scan.js'
import type { CheckInput } from '../input/input.js'
import type { ScanMemory, ScanOutcome as CachedOutcome } from '../cache/scan-cache.js'
import { scanDiskFile, unreadableReason, type DiskScanResult } from './disk-scan.js'
import { scanThreadSettings, startScanThreads, type ScanThreadSettings } from './scan-threads.js'

interface ScanOutcome {
  /** Scans of the text files, by path, in request order. */
  scans: Map<string, FileScan>
  /** The files not scanned, and why. */
  unscanned: Map<string, 'binary' | 'too-large'>
  /** Chunks of files other threads scanned (0 when the check scanned on its own thread). */
  chunksByThreads: number
  /** With a cache: the identity each file's outcome holds for (none for a file too recently changed to trust). */
  identities: Map<string, string>
}

function readFailure(path: string, reason: string): MkError {
  return new MkError('INVALID_INPUT', `cannot read ${path} (${reason}); the check cannot be trusted without it`, {
    details: { file: path, hint: 'fix its permissions, or exclude it with check.ignore in .mkrc' },
  })
}

async function readAndScan(input: CheckInput, request: ScanRequest, scan: FileScanner): Promise<DiskScanResult> {
  let content
  try {
    content = await input.read(request.path)
  } catch (error) {
    return { unreadable: unreadableReason(error) }
  }
  return content.kind === 'text' ? scan(request, content.text) : content.kind
}

/**
 * Read and scan each requested file; a file's text is dropped as soon as it
 * is scanned. With a cache, a file whose content identity (see
 * CheckInput.identity) it knows is not read at all. Files on disk are shared
 * with scan threads when there are enough of them to repay starting threads
 * (`threading` overrides MK_CHECK_THREADS and MK_CHECK_THREADS_FROM).
 */
export async function scanFiles(
  input: CheckInput,
  requests: readonly ScanRequest[],
  plan: ScanPlan,
  cache?: ScanMemory,
  threading: ScanThreadSettings = scanThreadSettings(),
): Promise<ScanOutcome> {
  const scan = createScanner(plan)
  // Stat signatures are taken as files on disk are read, and only for a cache to store them under.
  const disk = input.disk === undefined ? undefined : { root: input.disk.root, statTime: cache === undefined ? undefined : input.disk.statTime }
  const unknown = cache === undefined ? requests.length : requests.reduce((count, request) => (cache.knows(request.path) ? count : count + 1), 0)
  const helpers = disk !== undefined && unknown >= threading.fromFiles ? startScanThreads(disk, plan, scan, threading.threads) : undefined
  try {
    const outcomes = new Array<CachedOutcome | undefined>(requests.length)
    const identities = new Array<string | undefined>(requests.length)
    const toRead: number[] = []
    requests.forEach((request, position) => {
      // A path the cache does not know is read whatever its identity: files on disk give theirs as they are read.
      const identity = cache === undefined || (disk?.statTime !== undefined && !cache.knows(request.path)) ? undefined : input.identity?.(request.path)
      const cached = identity === undefined ? undefined : cache?.get(request, identity)
      identities[position] = identity
      if (cached === undefined) toRead.push(position)
      else outcomes[position] = cached
    })
    const threaded = helpers === undefined ? undefined : await helpers.scan(toRead.map((position) => requests[position] as ScanRequest))
    for (const [index, position] of toRead.entries()) {
      const request = requests[position] as ScanRequest
      const { result, identity } =
        threaded?.results[index] ??
        (disk === undefined
          ? { result: await readAndScan(input, request, scan), identity: identities[position] }
          : scanDiskFile(disk.root, request, scan, disk.statTime))
      if (typeof result === 'object' && 'unreadable' in result) throw readFailure(request.path, result.unreadable)
      outcomes[position] = result
      identities[position] = identity
      if (identity !== undefined) cache?.set(request, identity, result)
    }
    cache?.save()
    const outcome: ScanOutcome = { scans: new Map(), unscanned: new Map(), chunksByThreads: threaded?.chunksByThreads ?? 0, identities: new Map() }
    requests.forEach((request, position) => {
      const identity = identities[position]
      if (identity !== undefined) outcome.identities.set(request.path, identity)
      const result = outcomes[position] as CachedOutcome
      if (typeof result === 'string') outcome.unscanned.set(request.path, result)
      else outcome.scans.set(result.path, result)
    })
    return outcome
  } finally {
    helpers?.close()
  }
}
