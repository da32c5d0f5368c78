import type Database from 'better-sqlite3'
import { readMeta, writeMeta } from './meta.js'
import { statement } from './statements.js'

// Vector search over a large store scans a few partitions instead of every vector (an inverted
// file, IVF): k-means centroids are trained on the stored vectors, each vector is kept with its
// nearest centroid's list number, and a query ranks exactly the vectors of the lists nearest to
// it. Everything here is derived from the vectors and rebuilt when the store has doubled.
// Measurements and the choice: knowledge/adr/adr-0018-vector-search-at-scale.md.

/** Below this many vectors an exact scan is as fast as partitions, and exact. */
export const partitionFrom = 20_000
/** Lists probed per query, out of `listCount`: the share of the store a query reads. */
const probeShare = 1 / 8
/** Vectors k-means learns from: enough for stable centroids, quick to train. */
const trainingSample = 12_000
const trainingRounds = 6

const asVector = (blob: Buffer): Float32Array => new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4)

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number)
  return sum
}

function normalise(vector: Float32Array): Float32Array {
  const length = Math.sqrt(dot(vector, vector))
  if (length > 0) for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / length
  return vector
}

/** About the square root of the store, halved: 158 lists at 100,000 vectors. */
export function listCount(vectors: number): number {
  return Math.max(32, Math.round(Math.sqrt(vectors) / 2))
}

export function nearestList(centroids: readonly Float32Array[], vector: Float32Array): number {
  let best = 0
  let bestScore = -Infinity
  centroids.forEach((centroid, list) => {
    const score = dot(centroid, vector)
    if (score > bestScore) {
      bestScore = score
      best = list
    }
  })
  return best
}

/** `count` distinct positions below `size`, drawn by a fixed pseudo-random sequence: the same store trains the same centroids. */
function startingPositions(size: number, count: number): number[] {
  const chosen = new Set<number>()
  let state = 12345
  while (chosen.size < Math.min(count, size)) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    chosen.add(state % size)
  }
  return [...chosen]
}

/** Spherical k-means (cosine) from starting vectors drawn from the sample. */
export function trainCentroids(sample: readonly Float32Array[], lists: number): Float32Array[] {
  const dimensions = sample[0]?.length ?? 0
  let centroids: Float32Array[] = startingPositions(sample.length, lists).map((position) => Float32Array.from(sample[position] as Float32Array))
  for (let round = 0; round < trainingRounds; round++) {
    const sums = Array.from({ length: lists }, () => new Float32Array(dimensions))
    const sizes = new Array<number>(lists).fill(0)
    for (const vector of sample) {
      const list = nearestList(centroids, vector)
      const sum = sums[list] as Float32Array
      for (let i = 0; i < dimensions; i++) sum[i] = (sum[i] as number) + (vector[i] as number)
      sizes[list] = (sizes[list] ?? 0) + 1
    }
    // An empty list keeps its centroid rather than becoming a zero vector.
    centroids = sums.map((sum, list) => ((sizes[list] ?? 0) === 0 ? (centroids[list] as Float32Array) : normalise(sum)))
  }
  return centroids
}

export function readCentroids(db: Database.Database): Float32Array[] {
  return (statement(db, 'SELECT centroid FROM vector_centroids ORDER BY list', 'pluck').all() as Buffer[]).map(asVector)
}

/** Whether partitions were trained: until then a vector search scans every vector. */
export function hasPartitions(db: Database.Database): boolean {
  return statement(db, 'SELECT EXISTS (SELECT 1 FROM vector_centroids)', 'pluck').get() === 1
}

/**
 * Train partitions when the store has reached `from` vectors without them, or has
 * doubled since they were trained, and put every vector in its list. Returns whether it trained.
 */
export function maintainPartitions(db: Database.Database, from = partitionFrom): boolean {
  const count = db.prepare('SELECT count(*) FROM vectors').pluck().get() as number
  const trainedAt = Number(readMeta(db, 'partitions_trained_at') ?? 0)
  if (count < from || (trainedAt > 0 && count < trainedAt * 2)) return false
  const step = Math.max(1, Math.floor(count / trainingSample))
  const sample = (db.prepare('SELECT embedding FROM vectors WHERE rowid % ? = 0').pluck().all(step) as Buffer[]).map((blob) =>
    Float32Array.from(asVector(blob)),
  )
  const centroids = trainCentroids(sample, listCount(count))
  const assign = db.prepare('UPDATE vectors SET list = ? WHERE rowid = ?')
  const insertCentroid = db.prepare('INSERT INTO vector_centroids (list, centroid) VALUES (?, ?)')
  const rows = db.prepare('SELECT rowid, embedding FROM vectors').raw().all() as [number, Buffer][]
  db.transaction(() => {
    db.exec('DELETE FROM vector_centroids')
    centroids.forEach((centroid, list) => insertCentroid.run(list, Buffer.from(centroid.buffer, centroid.byteOffset, centroid.byteLength)))
    for (const [rowid, blob] of rows) assign.run(nearestList(centroids, asVector(blob)), rowid)
    writeMeta(db, 'partitions_trained_at', String(count))
  }).immediate()
  return true
}

export interface Nearest {
  rowid: number
  distance: number
}

/**
 * The `k` stored vectors nearest to the query by cosine distance: exactly until partitions are
 * trained (at `partitionFrom` vectors), then exactly within the lists nearest to the query
 * (and the vectors added since training that have no list yet). `exact` always scans everything.
 */
export function nearestVectors(db: Database.Database, query: Float32Array, k: number, how: 'indexed' | 'exact' = 'indexed'): Nearest[] {
  const centroids = how === 'exact' ? [] : readCentroids(db)
  if (centroids.length === 0) {
    return statement(db, 'SELECT rowid, vec_distance_cosine(embedding, ?) AS distance FROM vectors ORDER BY distance LIMIT ?').all(query, k) as Nearest[]
  }
  const probes = centroids
    .map((centroid, list) => ({ list, score: dot(centroid, query) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, Math.max(1, Math.ceil(centroids.length * probeShare)))
    .map((probe) => probe.list)
  return db
    .prepare(
      `SELECT rowid, vec_distance_cosine(embedding, ?) AS distance FROM vectors
       WHERE list IN (${probes.join(', ')}) OR list IS NULL ORDER BY distance LIMIT ?`,
    )
    .all(query, k) as Nearest[]
}
