import { basename, dirname, join } from 'node:path'
import { MkError } from '../errors.js'

export function isCorruptionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT_VTAB'
}

/** A damaged page found in use: say what to do instead of SQLite's "database disk image is malformed". */
export function explainCorruption(error: unknown, path: string): unknown {
  if (!isCorruptionError(error)) return error
  return new MkError('INTERNAL_ERROR', `the search index ${join(basename(dirname(path)), basename(path))} is corrupt (${(error as Error).message})`, {
    details: { hint: 'run mk index rebuild: the index is rebuilt from the memory and knowledge files, which are untouched' },
  })
}
