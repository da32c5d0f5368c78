import { MkError, isNodeError } from '../../errors.js'
import type { FileScan, FileScanner, ScanRequest } from './file-scan.js'
import type { CheckInput } from '../input/input.js'

interface ScanOutcome {
  /** Scans of the text files, by path, in request order. */
  scans: Map<string, FileScan>
  binary: number
  tooLarge: number
}

function readFailure(path: string, error: unknown): MkError {
  const reason = isNodeError(error) ? (error.code ?? error.message) : (error as Error).message
  return new MkError('INVALID_INPUT', `cannot read ${path} (${reason}); the check cannot be trusted without it`, {
    details: { file: path, hint: 'fix its permissions, or exclude it with check.ignore in .mkrc' },
  })
}

/** Read and scan each requested file in turn; a file's text is dropped as soon as it is scanned. */
export async function scanFiles(input: CheckInput, requests: readonly ScanRequest[], scan: FileScanner): Promise<ScanOutcome> {
  const outcome: ScanOutcome = { scans: new Map(), binary: 0, tooLarge: 0 }
  for (const request of requests) {
    const content = await input.read(request.path).catch((error: unknown) => {
      throw readFailure(request.path, error)
    })
    if (content.kind === 'text') outcome.scans.set(request.path, scan(request, content.text))
    else if (content.kind === 'binary') outcome.binary++
    else outcome.tooLarge++
  }
  return outcome
}
