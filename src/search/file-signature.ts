import { stat } from 'node:fs'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { statSignature } from '../fs/stat-signature.js'

/** A memory file's stat data as src/fs/stat-signature.ts writes it: what changes whenever the file is written. */
export type FileSignature = string

/** Stats in flight at once: enough to keep libuv's threads busy, bounded for a folder of 100,000 files. */
const statsInFlight = 256

/**
 * The signatures of `names` in `dir`, taken after `nowNs`: undefined for a file changed within
 * the racy window (read it, do not record it); a file that vanished is left out. Callbacks, a
 * window of them in flight: at 100,000 files the promise API costs twice as much.
 */
export function statFiles(dir: string, names: readonly string[], nowNs: bigint): Promise<Map<string, FileSignature | undefined>> {
  const results = new Map<string, FileSignature | undefined>()
  return new Promise((resolve) => {
    let next = 0
    let pending = names.length
    if (pending === 0) resolve(results)
    const statNext = (): void => {
      const name = names[next++]
      if (name === undefined) return
      stat(join(dir, name), { bigint: true }, (error, info) => {
        if (error === null) results.set(name, statSignature(info, nowNs))
        if (--pending === 0) resolve(results)
        else statNext()
      })
    }
    for (let started = 0; started < statsInFlight; started++) statNext()
  })
}

export function recordedSignatures(db: Database.Database, source: string): Map<string, FileSignature> {
  const rows = db.prepare('SELECT name, signature FROM file_signatures WHERE source = ?').raw().all(source) as [string, string][]
  return new Map(rows)
}

/** Keep the signatures given, forget those mapped to undefined (read again next time). */
export function recordSignatures(db: Database.Database, source: string, entries: Iterable<[string, FileSignature | undefined]>): void {
  const changes = [...entries]
  if (changes.length === 0) return
  const upsert = db.prepare(
    'INSERT INTO file_signatures (source, name, signature) VALUES (?, ?, ?) ON CONFLICT (source, name) DO UPDATE SET signature = excluded.signature',
  )
  const forget = db.prepare('DELETE FROM file_signatures WHERE source = ? AND name = ?')
  db.transaction(() => {
    for (const [name, signature] of changes) {
      if (signature === undefined) forget.run(source, name)
      else upsert.run(source, name, signature)
    }
  }).immediate()
}
