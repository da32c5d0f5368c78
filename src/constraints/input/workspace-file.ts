import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { statSignature } from '../../fs/stat-signature.js'
import { classifyContent, maxFileBytes, type FileContent } from './input.js'

/** One buffer for every read, one byte longer than the limit: a file that fills it is too large. */
let scratch: Buffer | undefined

/** A file's content and, when asked for, its stat signature taken from the open file (src/fs/stat-signature.ts). */
export interface WorkspaceFile {
  content: FileContent
  /** Undefined when not asked for, or when the file changed too recently to be trusted. */
  identity: string | undefined
}

/**
 * Read a workspace file with one open and reads into a reused buffer, never
 * past the size limit; a file over the limit is known by filling the buffer.
 * With `statTime` (wall clock, ns) its stat signature is taken from the open
 * file: cheaper than a stat by path, and of the very file that was read.
 */
export function readWorkspaceFile(root: string, path: string, statTime?: bigint): WorkspaceFile {
  scratch ??= Buffer.allocUnsafe(maxFileBytes + 1)
  const buffer = scratch
  const descriptor = openSync(join(root, path), 'r')
  let length = 0
  let identity: string | undefined
  try {
    if (statTime !== undefined) identity = statSignature(fstatSync(descriptor, { bigint: true }), statTime)
    // A short read of a regular file is its end: no second call to learn that the next read gives 0 bytes.
    for (let wanted = buffer.length; length < buffer.length; wanted = buffer.length - length) {
      const count = readSync(descriptor, buffer, length, wanted, null)
      length += count
      if (count < wanted) break
    }
  } finally {
    closeSync(descriptor)
  }
  return { content: classifyContent(buffer.subarray(0, length)), identity }
}
