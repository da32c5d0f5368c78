import { isNodeError } from '../../errors.js'
import { readWorkspaceFile } from '../input/workspace-file.js'
import type { FileScan, FileScanner, ScanRequest } from './file-scan.js'

/** A file on disk read and scanned, or why it was not: a value, so it can cross from a scan thread. */
export type DiskScanResult = FileScan | 'binary' | 'too-large' | { unreadable: string }

/** A result and the stat signature of the file it came from, when one was asked for and can be trusted. */
export interface DiskScan {
  result: DiskScanResult
  identity: string | undefined
}

/** Why a file could not be read, as the check reports it: the system's error code when there is one. */
export function unreadableReason(error: unknown): string {
  return isNodeError(error) ? (error.code ?? error.message) : (error as Error).message
}

/** Read one workspace file and scan it; the check's own thread and its scan threads do the same. */
export function scanDiskFile(root: string, request: ScanRequest, scan: FileScanner, statTime?: bigint): DiskScan {
  let file
  try {
    file = readWorkspaceFile(root, request.path, statTime)
  } catch (error) {
    return { result: { unreadable: unreadableReason(error) }, identity: undefined }
  }
  const { content, identity } = file
  return { result: content.kind === 'text' ? scan(request, content.text) : content.kind, identity }
}
