import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { classifyContent, maxFileBytes, type FileContent } from './input.js'

/** One buffer for every read: the text decoded from it is a copy, and reads are synchronous. */
let scratch: Buffer | undefined

/** Read a workspace file, skipping files over the size limit without reading them (one open, one fstat, one read). */
export function readWorkspaceFile(root: string, path: string): FileContent {
  const descriptor = openSync(join(root, path), 'r')
  try {
    const { size } = fstatSync(descriptor)
    if (size > maxFileBytes) return { kind: 'too-large' }
    scratch ??= Buffer.allocUnsafe(maxFileBytes)
    const bytes = scratch
    let read = 0
    for (let count = -1; read < size && count !== 0; read += count) count = readSync(descriptor, bytes, read, size - read, null)
    return classifyContent(bytes.subarray(0, read))
  } finally {
    closeSync(descriptor)
  }
}
