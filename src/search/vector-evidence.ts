import type Database from 'better-sqlite3'
import { backgroundSentences } from './background-corpus.js'
import { statement } from './statements.js'
import type { Embed } from './vector-store.js'

/** How many stored vectors stand for "any document" when a query's typical similarity is estimated. */
export const backgroundSize = 256
/** Below this many stored vectors the sample says little, and the background sentences join it. */
export const smallStore = 64
/** A similarity this many standard deviations above the typical one counts as full evidence. */
const fullEvidenceDeviations = 6

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += (a[i] ?? 0) * (b[i] ?? 0)
  return sum
}

const asVector = (blob: Buffer): Float32Array => new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4)

/** The background sentences' vectors for this index's model, embedded on first need and kept in the index. */
async function backgroundVectors(db: Database.Database, embed: Embed): Promise<Float32Array[]> {
  db.exec('CREATE TABLE IF NOT EXISTS background_vectors (n INTEGER PRIMARY KEY, embedding BLOB NOT NULL)')
  const stored = db.prepare('SELECT embedding FROM background_vectors ORDER BY n').pluck().all() as Buffer[]
  if (stored.length === backgroundSentences.length) return stored.map(asVector)
  const vectors = await embed([...backgroundSentences], 'document')
  const insert = db.prepare('INSERT OR REPLACE INTO background_vectors (n, embedding) VALUES (?, ?)')
  db.transaction(() => vectors.forEach((vector, n) => insert.run(n, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)))).immediate()
  return vectors
}

/**
 * Turns a cosine similarity into evidence in [0, 1] on the same scale for every query: how far
 * it stands above this query's similarity to documents in general. Raw similarities of one
 * encoder have no common floor (unrelated texts reach 0.6 for some queries and 0.1 for others),
 * and min-max scaling made the nearest document of a nonsense query 1.0. The background is the
 * first vectors of the index by rowid, so the same query on the same index scores the same; a
 * small store adds a fixed set of sentences about nothing in particular. `firstDots` are the
 * query's dot products with those first vectors, for a caller that compared them already (the
 * in-memory matrix compares every vector in one pass).
 */
export async function vectorCalibration(
  db: Database.Database,
  embed: Embed,
  query: Float32Array,
  firstDots?: readonly number[],
): Promise<(cosine: number) => number> {
  const similarities =
    firstDots ??
    (statement(db, 'SELECT embedding FROM vectors ORDER BY rowid LIMIT ?', 'pluck').all(backgroundSize) as Buffer[]).map((blob) => dot(query, asVector(blob)))
  if (similarities.length >= smallStore) return calibrationOfSimilarities(similarities)
  return calibrationOfSimilarities([...similarities, ...(await backgroundVectors(db, embed)).map((vector) => dot(query, vector))])
}

/** The calibration of vectorCalibration, from the sample a store drew (its first `backgroundSize` vectors, the background sentences' added below `smallStore`). */
export function calibrationFrom(query: Float32Array, sample: readonly Float32Array[]): (cosine: number) => number {
  return calibrationOfSimilarities(sample.map((vector) => dot(query, vector)))
}

/** The same calibration from the query's similarities to the sample, for a store whose database computes them (pgvector). */
function calibrationOfSimilarities(similarities: readonly number[]): (cosine: number) => number {
  const mean = similarities.reduce((sum, value) => sum + value, 0) / similarities.length
  const variance = similarities.reduce((sum, value) => sum + (value - mean) ** 2, 0) / similarities.length
  const deviation = Math.max(Math.sqrt(variance), 1e-3)
  return (cosine) => Math.max(0, Math.min(1, (cosine - mean) / deviation / fullEvidenceDeviations))
}
