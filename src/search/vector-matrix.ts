import type Database from 'better-sqlite3'
import { filterClause, unexpired } from './filters.js'
import { readMeta } from './meta.js'
import { PhraseMatchCache } from './phrase-matches.js'
import { statement } from './statements.js'
import type { HeldDocuments } from './text-evidence.js'
import type { DocumentHead, SearchFilters } from './types.js'
import { VectorTable } from './vector-table.js'

// An exact vector search below the partitions' threshold reads every vector. Through SQLite that
// is every blob, decoded and compared by sqlite-vec, on every search (5 ms of a 1,000-memory
// server search, most of its CPU). Kept in memory per connection, the vectors are compared in
// place and only what changed is read again: the connection's own writes and other processes'
// commits both change the version checked before each search, and the index's change log
// (doc_changes, see schema.ts) names the rows they touched. Measurements: issue 27's note.

/** Which documents the filters allow, read once per filter and brought up to date row by row as the index changes. */
interface Allowed {
  /** Every document allowed, with or without a vector, and its expiry (Infinity for none). */
  rows: Map<number, number>
  /** The positions in the table of those with a vector, and their expiries. */
  positions: Int32Array
  /** Each position's expiry (Infinity for none): the one part of the filters that changes with the clock. */
  expiresAt: Float64Array
  expiring: boolean
  /** Rows changed since the reading, read again before it is next used. */
  stale: Set<number>
}

/** Past this many different filters (consumers, kinds) a matrix starts its list of allowed rows over. */
const mostAllowed = 32
/** Past this many rows changed at once, reading everything again costs less than row by row. */
const mostChangedRows = 2048

export interface VectorMatrix extends HeldDocuments {
  /** Every document's head by rowid, with or without a vector. */
  heads: Map<number, DocumentHead>
  /**
   * The `limit` documents the filters allow nearest to the query (see VectorTable.nearest), and
   * the query's dot products with the first `first` vectors by rowid, whatever the filters: the
   * sample vectorCalibration draws, from the same pass over the vectors.
   */
  nearest(
    query: Float32Array,
    filters: SearchFilters | undefined,
    limit: number,
    first: number,
  ): { scored: { rowid: number; score: number }[]; firstDots: number[] }
}

interface Kept extends VectorMatrix {
  version: string
  model: string | undefined
  /** The last change of the index's change log this matrix reflects; undefined without a log. */
  changeSeq: number | undefined
  /** Brings the matrix up to these rows' current state; false when it must be built again. */
  follow(changed: readonly number[]): boolean
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

/** The change log's last entry, undefined for an index without one (made by an older mk, read-only). */
function lastChange(db: Database.Database): number | undefined {
  try {
    return (statement(db, 'SELECT seq FROM sqlite_sequence WHERE name = ?', 'pluck').get('doc_changes') as number | undefined) ?? 0
  } catch {
    return undefined
  }
}

/** The rows changed after `since`, or undefined when the log no longer reaches back that far (or too many changed). */
function changedSince(db: Database.Database, since: number): { rows: number[]; last: number } | undefined {
  const first = statement(db, 'SELECT min(seq) FROM doc_changes', 'pluck').get() as number | null
  if (first !== null && first > since + 1) return undefined
  const changes = statement(db, 'SELECT seq, doc FROM doc_changes WHERE seq > ? ORDER BY seq LIMIT ?', 'raw').all(since, mostChangedRows + 1) as [
    number,
    number,
  ][]
  if (changes.length > mostChangedRows) return undefined
  return { rows: [...new Set(changes.map(([, doc]) => doc))], last: changes.at(-1)?.[0] ?? since }
}

/** Every document's head and vector, brought up to date with the index before it is used. */
export function vectorMatrix(db: Database.Database): VectorMatrix {
  const [changes, dataVersion] = statement(db, 'SELECT total_changes(), (SELECT data_version FROM pragma_data_version())', 'raw').get() as [number, number]
  const version = `${changes}:${dataVersion}`
  const existing = kept.get(db)
  if (existing?.version === version) return existing
  const model = readMeta(db, 'model_id')
  // Read before the rows: a change committed in between is read again next time, never missed.
  const seq = lastChange(db)
  if (existing !== undefined && existing.model === model && existing.changeSeq !== undefined && seq !== undefined) {
    const changed = changedSince(db, existing.changeSeq)
    if (changed !== undefined && existing.follow(changed.rows)) {
      existing.version = version
      existing.changeSeq = changed.last
      return existing
    }
  }
  const matrix = readMatrix(db, version, model, seq)
  kept.set(db, matrix)
  return matrix
}

/** A document's row id, head and vector (null: none yet), as the matrix reads them. */
type HeadRow = [rowid: number, id: string, layer: string, source: string | null, dedupKey: string]
type MatrixRow = [...HeadRow, embedding: Buffer | null]
const headOf = ([, id, layer, source, dedupKey]: HeadRow | MatrixRow): DocumentHead => ({ id, layer, source: source ?? undefined, dedupKey })
const asVector = (blob: Buffer): Float32Array => new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4)

/** Every document's head and vector. */
function readMatrix(db: Database.Database, version: string, model: string | undefined, changeSeq: number | undefined): Kept {
  const heads = new Map<number, DocumentHead>()
  const listed = statement(db, 'SELECT d.rowid, d.id, d.layer, d.source, d.dedup_key FROM docs d ORDER BY d.rowid', 'raw').all() as HeadRow[]
  for (const row of listed) heads.set(row[0], headOf(row))
  // Vectors one row at a time, copied into the table as they come: read whole, their blobs (20 MB
  // at 10,000 memories) stayed in the process's memory beside the table after they were freed.
  const vectors = statement(db, 'SELECT v.rowid, v.embedding FROM vectors v JOIN docs d ON d.rowid = v.rowid ORDER BY v.rowid', 'raw')
  const rows = function* (): Generator<{ rowid: number; vector: Float32Array }> {
    for (const [rowid, embedding] of vectors.iterate() as IterableIterator<[number, Buffer]>) yield { rowid, vector: asVector(embedding) }
  }
  // In rowid order: the calibration samples the first, and ties rank by rowid.
  const table = VectorTable.of(rows(), listed.length)
  const allowed = new Map<string, Allowed>()
  const phrases = new PhraseMatchCache()

  const allowedRows = (where: { sql: string; params: unknown[] }, rowids?: readonly number[]): [number, number | null][] =>
    rowids === undefined
      ? (statement(db, `SELECT d.rowid, d.expires_at FROM docs d WHERE ${where.sql}`, 'raw').all(...where.params) as [number, number | null][])
      : (statement(db, `SELECT d.rowid, d.expires_at FROM docs d WHERE d.rowid IN (SELECT value FROM json_each(?)) AND ${where.sql}`, 'raw').all(
          JSON.stringify(rowids),
          ...where.params,
        ) as [number, number | null][])

  /** A reading of these allowed rows: the positions and expiries of those the table holds. */
  const reading = (rows: Map<number, number>): Allowed => {
    const positions: number[] = []
    const expiries: number[] = []
    for (const [rowid, expires] of rows) {
      const position = table.positionOf(rowid)
      if (position === undefined) continue
      positions.push(position)
      expiries.push(expires)
    }
    return {
      rows,
      positions: Int32Array.from(positions),
      expiresAt: Float64Array.from(expiries),
      expiring: expiries.some(Number.isFinite),
      stale: new Set(),
    }
  }
  const rowsOf = (read: readonly [number, number | null][], into = new Map<number, number>()): Map<number, number> => {
    for (const [rowid, expires] of read) into.set(rowid, expires ?? Infinity)
    return into
  }

  const allowedBy = (filters: SearchFilters | undefined): Allowed => {
    // The clock is left out of the statement, so one reading serves every search until the index changes.
    const where = filterClause({ ...filters, includeExpired: true })
    const key = `${where.sql}\u0000${JSON.stringify(where.params)}`
    const known = allowed.get(key)
    if (known !== undefined && known.stale.size === 0) return known
    let fresh: Allowed
    if (known === undefined) {
      fresh = reading(rowsOf(allowedRows(where)))
      if (allowed.size >= mostAllowed) allowed.clear()
    } else {
      // Only the changed rows are read again; the others keep their expiry.
      for (const rowid of known.stale) known.rows.delete(rowid)
      fresh = reading(rowsOf(allowedRows(where, [...known.stale]), known.rows))
    }
    allowed.set(key, fresh)
    return fresh
  }

  return {
    version,
    model,
    changeSeq,
    heads,
    phrases,
    nearest(query, filters, limit, first) {
      const { positions, expiresAt, expiring } = allowedBy(filters)
      const now = filters?.now ?? Date.now()
      const allowedNow = !expiring || filters?.includeExpired === true ? positions : positions.filter((_, n) => unexpired(expiresAt[n] as number, now))
      const found = table.nearestAndFirst(query, limit, allowedNow, first)
      return { scored: found.nearest, firstDots: found.firstDots }
    },
    allows(filters) {
      const { rows } = allowedBy(filters)
      const now = filters?.now ?? Date.now()
      const includeExpired = filters?.includeExpired === true
      return (rowid) => {
        const expires = rows.get(rowid)
        return expires !== undefined && (includeExpired || unexpired(expires, now))
      }
    },
    follow(changed) {
      if (changed.length === 0) return true
      // Any changed document changes every phrase's BM25 (the index's size, its average length).
      phrases.clear()
      const current = statement(
        db,
        'SELECT d.rowid, d.id, d.layer, d.source, d.dedup_key, v.embedding FROM docs d LEFT JOIN vectors v ON v.rowid = d.rowid WHERE d.rowid IN (SELECT value FROM json_each(?))',
        'raw',
      ).all(JSON.stringify(changed)) as MatrixRow[]
      const withVector = current.flatMap(([rowid, , , , , embedding]) => (embedding === null ? [] : [{ rowid, vector: asVector(embedding) }]))
      const held = new Set(withVector.map((row) => row.rowid))
      // Removed from the index, or waiting for a vector for new text.
      const remove = changed.filter((rowid) => !held.has(rowid))
      const outcome = table.apply({ set: withVector, remove })
      if (!outcome.applied) return false
      for (const rowid of changed) heads.delete(rowid)
      for (const row of current) heads.set(row[0], headOf(row))
      // Positions that moved invalidate every reading; otherwise only the changed rows are read again.
      if (outcome.moved) allowed.clear()
      else for (const reading of allowed.values()) for (const rowid of changed) reading.stale.add(rowid)
      return true
    },
  }
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
