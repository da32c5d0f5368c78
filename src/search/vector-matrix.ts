import type Database from 'better-sqlite3'
import { readMeta } from './meta.js'
import { statement } from './statements.js'
import type { DocumentHead } from './types.js'

// An exact vector search below the partitions' threshold reads every vector. Through SQLite that
// is every blob, decoded and compared by sqlite-vec, on every search (5 ms of a 1,000-memory
// server search, most of its CPU). Kept in memory per connection, the vectors are compared in
// place and only what changed is read again: the connection's own writes and other processes'
// commits both change the version checked before each search. Measurements: issue 27's note.

interface Row {
  head: DocumentHead
  contentHash: string
  vector: Float32Array | undefined
  /** The vector's length, so that a dot product gives the cosine. */
  norm: number
}

export interface VectorMatrix {
  rows: Map<number, Row>
  /** The first vectors by rowid, as the calibration's background samples them. */
  firstVectors(count: number): Float32Array[]
}

interface Kept extends VectorMatrix {
  version: string
  model: string | undefined
}

const kept = new WeakMap<Database.Database, Kept>()

/** Four running sums: twice as fast in V8 as one, over 384 dimensions. */
function dot(a: Float32Array, b: Float64Array | Float32Array): number {
  let s0 = 0
  let s1 = 0
  let s2 = 0
  let s3 = 0
  const whole = a.length - (a.length % 4)
  let i = 0
  for (; i < whole; i += 4) {
    s0 += (a[i] as number) * (b[i] as number)
    s1 += (a[i + 1] as number) * (b[i + 1] as number)
    s2 += (a[i + 2] as number) * (b[i + 2] as number)
    s3 += (a[i + 3] as number) * (b[i + 3] as number)
  }
  for (; i < a.length; i++) s0 += (a[i] as number) * (b[i] as number)
  return s0 + s1 + s2 + s3
}

export const lengthOf = (vector: Float32Array): number => Math.sqrt(dot(vector, vector))

/** Every document's head and vector, brought up to date with the index before it is used. */
export function vectorMatrix(db: Database.Database): VectorMatrix {
  const [changes, dataVersion] = statement(db, 'SELECT total_changes(), (SELECT data_version FROM pragma_data_version())', 'raw').get() as [number, number]
  const version = `${changes}:${dataVersion}`
  const existing = kept.get(db)
  if (existing?.version === version) return existing
  const model = readMeta(db, 'model_id')
  const previous = existing !== undefined && existing.model === model ? existing.rows : new Map<number, Row>()
  const rows = new Map<number, Row>()
  const unread: number[] = []
  const listed = statement(
    db,
    'SELECT d.rowid, d.id, d.layer, d.source, d.dedup_key, d.content_hash, v.rowid IS NOT NULL FROM docs d LEFT JOIN vectors v ON v.rowid = d.rowid',
    'raw',
  ).all() as [number, string, string, string | null, string, string, number][]
  for (const [rowid, id, layer, source, dedupKey, contentHash, hasVector] of listed) {
    const before = previous.get(rowid)
    const head = { id, layer, source: source ?? undefined, dedupKey }
    if (before !== undefined && before.contentHash === contentHash && (before.vector !== undefined) === (hasVector === 1)) {
      rows.set(rowid, { ...before, head })
      continue
    }
    rows.set(rowid, { head, contentHash, vector: undefined, norm: 0 })
    if (hasVector === 1) unread.push(rowid)
  }
  if (unread.length > 0) {
    const read = statement(db, 'SELECT rowid, embedding FROM vectors WHERE rowid IN (SELECT value FROM json_each(?))', 'raw').all(JSON.stringify(unread)) as [
      number,
      Buffer,
    ][]
    for (const [rowid, blob] of read) {
      const row = rows.get(rowid) as Row
      // A copy: the blob's memory belongs to the statement's row.
      const vector = Float32Array.from(new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4))
      rows.set(rowid, { ...row, vector, norm: lengthOf(vector) })
    }
  }
  let first: Float32Array[] | undefined
  const matrix: Kept = {
    version,
    model,
    rows,
    firstVectors(count) {
      first ??= [...rows.entries()]
        .filter(([, row]) => row.vector !== undefined)
        .sort(([a], [b]) => a - b)
        .map(([, row]) => row.vector as Float32Array)
      return first.slice(0, count)
    },
  }
  kept.set(db, matrix)
  return matrix
}

/** A stored vector with its length, as both stores hold them in memory. */
export interface HeldVector {
  rowid: number
  vector: Float32Array
  norm: number
}

/**
 * The `limit` vectors nearest to the query by cosine similarity, most similar first; equal
 * similarities in rowid order, as the SQL scan returned them. The one in-memory vector ranking:
 * the SQLite index's matrix and a PostgreSQL replica's vectors both rank through it.
 */
export function nearestByCosine(rows: Iterable<HeldVector>, query: Float32Array, limit: number): { rowid: number; score: number }[] {
  if (limit <= 0) return []
  const query64 = Float64Array.from(query)
  const queryNorm = lengthOf(query)
  const rowids: number[] = []
  const scores: number[] = []
  for (const { rowid, vector, norm } of rows) {
    const lengths = norm * queryNorm
    rowids.push(rowid)
    scores.push(lengths === 0 ? 0 : Math.fround(dot(vector, query64) / lengths))
  }
  // Only what can make the first `limit` is sorted: at 10,000 documents and a limit of 1,000, a
  // comparator sort of every score was a third of the ranking.
  const cutoff = limit >= scores.length ? -Infinity : (Float64Array.from(scores).sort()[scores.length - limit] as number)
  const order: number[] = []
  for (let position = 0; position < scores.length; position++) if ((scores[position] as number) >= cutoff) order.push(position)
  order.sort((a, b) => (scores[b] as number) - (scores[a] as number) || (rowids[a] as number) - (rowids[b] as number))
  return order.slice(0, limit).map((position) => ({ rowid: rowids[position] as number, score: scores[position] as number }))
}

/** The `limit` documents among `allowed` nearest to the query (see nearestByCosine). */
export function nearestInMatrix(matrix: VectorMatrix, query: Float32Array, allowed: readonly number[], limit: number): { rowid: number; score: number }[] {
  const held: HeldVector[] = []
  for (const rowid of allowed) {
    const row = matrix.rows.get(rowid)
    if (row?.vector !== undefined) held.push({ rowid, vector: row.vector, norm: row.norm })
  }
  return nearestByCosine(held, query, limit)
}
