import { stat, type BigIntStats } from 'node:fs'
import { join } from 'node:path'
import type Database from 'better-sqlite3'

/**
 * A file's stat data, as git's index keeps it: size, modification and change times in
 * nanoseconds, and inode. A rewrite changes the size or a time; an editor's rename-into-place
 * changes the inode; restoring the old mtime (touch -d) changes the change time, which no
 * user-level call can set back.
 */
export type FileSignature = string

/**
 * File systems stamp times with a coarse clock (a second or two on some): a file changed this
 * close to the moment it was looked at may change again with the same stamp. Such a file is
 * "racily clean" (git's term): its signature is not kept, so the next update reads it again.
 */
const racyWindowNs = 2_000_000_000n

/** Stats in flight at once: enough to keep libuv's threads busy, bounded for a folder of 100,000 files. */
const statsInFlight = 256

export interface StatResult {
  signature: FileSignature
  /** False when a time is within the racy window of `since`: the signature may not tell a later edit apart. */
  settled: boolean
}

function signatureOf(info: BigIntStats, sinceNs: bigint): StatResult {
  const newest = info.mtimeNs > info.ctimeNs ? info.mtimeNs : info.ctimeNs
  return { signature: `${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}`, settled: newest < sinceNs - racyWindowNs }
}

/**
 * The signatures of `names` in `dir`, taken after `sinceNs` (wall clock, ns); a file that vanished
 * is left out. Callbacks, a window of them in flight: at 100,000 files the promise API costs twice as much.
 */
export function statFiles(dir: string, names: readonly string[], sinceNs: bigint): Promise<Map<string, StatResult>> {
  const results = new Map<string, StatResult>()
  return new Promise((resolve) => {
    let next = 0
    let pending = names.length
    if (pending === 0) resolve(results)
    const statNext = (): void => {
      const name = names[next++]
      if (name === undefined) return
      stat(join(dir, name), { bigint: true }, (error, info) => {
        if (error === null) results.set(name, signatureOf(info, sinceNs))
        if (--pending === 0) resolve(results)
        else statNext()
      })
    }
    for (let started = 0; started < statsInFlight; started++) statNext()
  })
}

/** Now, in nanoseconds of the wall clock that stamps files. */
export function wallClockNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n
}

export function recordedSignatures(db: Database.Database, source: string): Map<string, FileSignature> {
  const rows = db.prepare('SELECT name, signature FROM file_signatures WHERE source = ?').raw().all(source) as [string, string][]
  return new Map(rows)
}

/** Keep the signatures given, forget those mapped to undefined (read again next time). */
export function recordSignatures(db: Database.Database, source: string, entries: Iterable<[string, FileSignature | undefined]>): void {
  const upsert = db.prepare(
    'INSERT INTO file_signatures (source, name, signature) VALUES (?, ?, ?) ON CONFLICT (source, name) DO UPDATE SET signature = excluded.signature',
  )
  const forget = db.prepare('DELETE FROM file_signatures WHERE source = ? AND name = ?')
  db.transaction(() => {
    for (const [name, signature] of entries) {
      if (signature === undefined) forget.run(source, name)
      else upsert.run(source, name, signature)
    }
  }).immediate()
}
