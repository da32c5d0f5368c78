import { closeSync, openSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { classifyContent, maxFileBytes, type FileContent } from './input.js'

/** One buffer for every read, one byte longer than the limit: a file that fills it is too large. */
let scratch: Buffer | undefined

/**
 * Read a workspace file with one open and reads into a reused buffer, never
 * past the size limit; no stat (that cost more than the read, measured on
 * 2,000 files), and a file over the limit is known by filling the buffer.
 */
export function readWorkspaceFile(root: string, path: string): FileContent {
  scratch ??= Buffer.allocUnsafe(maxFileBytes + 1)
  const buffer = scratch
  const descriptor = openSync(join(root, path), 'r')
  let length = 0
  try {
    for (let count = -1; length < buffer.length && count !== 0; length += count) count = readSync(descriptor, buffer, length, buffer.length - length, null)
  } finally {
    closeSync(descriptor)
  }
  return classifyContent(buffer.subarray(0, length))
}
