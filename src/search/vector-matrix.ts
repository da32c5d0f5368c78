import type Database from 'better-sqlite3'
import { filterClause, unexpired } from './filters.js'
import { readMeta } from './meta.js'
import { statement } from './statements.js'
import type { DocumentHead, SearchFilters } from './types.js'
import { VectorTable } from './vector-table.js'

// An exact vector search below the partitions' threshold reads every vector. Through SQLite that
// is every blob, decoded and compared by sqlite-vec, on every search (5 ms of a 1,000-memory
// server search, most of its CPU). Kept in memory per connection, the vectors are compared in
// place and only what changed is read again: the connection's own writes and other processes'
// commits both change the version checked before each search. Measurements: issue 27's note.

/** Which documents the filters allow, read once per index version and filter: the statement scanned every document on every search. */
interface Allowed {
  positions: Int32Array
  /** Each position's expiry (Infinity for none): the one part of the filters that changes with the clock. */
  expiresAt: Float64Array
  expiring: boolean
}

/** Past this many different filters (consumers, kinds) a matrix starts its list of allowed rows over. */
const mostAllowed = 32

export interface VectorMatrix {
  /** Every document's head by rowid, with or without a vector. */
  heads: Map<number, DocumentHead>
  /** The first vectors by rowid, as the calibration's background samples them. */
  firstVectors(count: number): Float32Array[]
  /** The `limit` documents the filters allow nearest to the query (see VectorTable.nearest). */
  nearest(query: Float32Array, filters: SearchFilters | undefined, limit: number): { rowid: number; score: number }[]
}

interface Kept extends VectorMatrix {
  version: string
  model: string | undefined
  contentHashes: Map<number, string>
  table: VectorTable
}

const kept = new WeakMap<Database.Database, Kept>()
const searchedOnce = new WeakSet<Database.Database>()

/**
 * The matrix for a search on this connection, or undefined for its first one: a process that
 * searches once (a CLI command) ranks the vectors in SQL instead of reading every one into memory
 * first (a third of a cold search at 10,000 memories); a connection that searches again holds
 * them from then on.
 */
export function matrixForSearch(db: Database.Database): VectorMatrix | undefined {
  if (kept.has(db) || searchedOnce.has(db)) return vectorMatrix(db)
  searchedOnce.add(db)
  return undefined
}

/** Every document's head and vector, brought up to date with the index before it is used. */
export function vectorMatrix(db: Database.Database): VectorMatrix {
  const [changes, dataVersion] = statement(db, 'SELECT total_changes(), (SELECT data_version FROM pragma_data_version())', 'raw').get() as [number, number]
  const version = `${changes}:${dataVersion}`
  const existing = kept.get(db)
  if (existing?.version === version) return existing
  const model = readMeta(db, 'model_id')
  const previous = existing !== undefined && existing.model === model ? existing : undefined
  const heads = new Map<number, DocumentHead>()
  const contentHashes = new Map<number, string>()
  const vectors = new Map<number, { vector: Float32Array; norm?: number }>()
  const unread: number[] = []
  const listed = statement(
    db,
    'SELECT d.rowid, d.id, d.layer, d.source, d.dedup_key, d.content_hash, v.rowid IS NOT NULL FROM docs d LEFT JOIN vectors v ON v.rowid = d.rowid ORDER BY d.rowid',
    'raw',
  ).all() as [number, string, string, string | null, string, string, number][]
  for (const [rowid, id, layer, source, dedupKey, contentHash, hasVector] of listed) {
    heads.set(rowid, { id, layer, source: source ?? undefined, dedupKey })
    contentHashes.set(rowid, contentHash)
    if (hasVector !== 1) continue
    const position = previous?.table.positionOf(rowid)
    if (previous !== undefined && position !== undefined && previous.contentHashes.get(rowid) === contentHash)
      vectors.set(rowid, { vector: previous.table.vector(position), norm: previous.table.norm(position) })
    else unread.push(rowid)
  }
  if (unread.length > 0) {
    const read = statement(db, 'SELECT rowid, embedding FROM vectors WHERE rowid IN (SELECT value FROM json_each(?))', 'raw').all(JSON.stringify(unread)) as [
      number,
      Buffer,
    ][]
    for (const [rowid, blob] of read) vectors.set(rowid, { vector: new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4) })
  }
  // In rowid order, as the listing was: the calibration samples the first, and ties rank by rowid.
  const table = VectorTable.of([...vectors].sort(([a], [b]) => a - b).map(([rowid, held]) => ({ rowid, ...held })))
  const allowed = new Map<string, Allowed>()
  const allowedBy = (filters: SearchFilters | undefined): Allowed => {
    // The clock is left out of the statement, so one reading serves every search until the index changes.
    const where = filterClause({ ...filters, includeExpired: true })
    const key = `${where.sql}\u0000${JSON.stringify(where.params)}`
    const known = allowed.get(key)
    if (known !== undefined) return known
    const rows = statement(db, `SELECT d.rowid, d.expires_at FROM docs d WHERE ${where.sql}`, 'raw').all(...where.params) as [number, number | null][]
    const positions: number[] = []
    const expiresAt: number[] = []
    for (const [rowid, expires] of rows) {
      const position = table.positionOf(rowid)
      if (position === undefined) continue
      positions.push(position)
      expiresAt.push(expires ?? Infinity)
    }
    if (allowed.size >= mostAllowed) allowed.clear()
    const reading = { positions: Int32Array.from(positions), expiresAt: Float64Array.from(expiresAt), expiring: expiresAt.some(Number.isFinite) }
    allowed.set(key, reading)
    return reading
  }
  const matrix: Kept = {
    version,
    model,
    heads,
    contentHashes,
    table,
    firstVectors: (count) => Array.from({ length: Math.min(count, table.size) }, (_, position) => table.vector(position)),
    nearest(query, filters, limit) {
      const { positions, expiresAt, expiring } = allowedBy(filters)
      if (!expiring || filters?.includeExpired === true) return table.nearest(query, limit, positions)
      const now = filters?.now ?? Date.now()
      return table.nearest(
        query,
        limit,
        positions.filter((_, n) => unexpired(expiresAt[n] as number, now)),
      )
    },
  }
  kept.set(db, matrix)
  return matrix
}

/** A stored vector with its length, as a PostgreSQL replica holds them in memory. */
export interface HeldVector {
  rowid: number
  vector: Float32Array
  norm: number
}

/**
 * The `limit` vectors nearest to the query by cosine similarity, most similar first; equal
 * similarities in rowid order, as the SQL scan returned them. The one in-memory vector ranking:
 * the SQLite index's matrix and a PostgreSQL replica's vectors both rank through a VectorTable.
 */
export function nearestByCosine(rows: Iterable<HeldVector>, query: Float32Array, limit: number): { rowid: number; score: number }[] {
  return VectorTable.of(rows).nearest(query, limit)
}
