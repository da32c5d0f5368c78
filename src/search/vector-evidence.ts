import type Database from 'better-sqlite3'

/** How many stored vectors stand for "any document" when a query's typical similarity is estimated. */
const backgroundSize = 256
/** A similarity this many standard deviations above the typical one counts as full evidence. */
const fullEvidenceDeviations = 6

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += (a[i] ?? 0) * (b[i] ?? 0)
  return sum
}

/**
 * Turns a cosine similarity into evidence in [0, 1] on the same scale for every query: how far
 * it stands above this query's similarity to documents in general. Raw similarities of one
 * encoder have no common floor (unrelated texts reach 0.6 for some queries and 0.1 for others),
 * and min-max scaling made the nearest document of a nonsense query 1.0. The background is the
 * first vectors of the index by rowid, so the same query on the same index scores the same.
 */
export function vectorCalibration(db: Database.Database, query: Float32Array): (cosine: number) => number {
  const sample = db.prepare('SELECT embedding FROM vectors ORDER BY rowid LIMIT ?').pluck().all(backgroundSize) as Buffer[]
  if (sample.length < 2) return (cosine) => Math.max(0, Math.min(1, cosine))
  const similarities = sample.map((blob) => dot(query, new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4)))
  const mean = similarities.reduce((sum, value) => sum + value, 0) / similarities.length
  const variance = similarities.reduce((sum, value) => sum + (value - mean) ** 2, 0) / similarities.length
  const deviation = Math.max(Math.sqrt(variance), 1e-3)
  return (cosine) => Math.max(0, Math.min(1, (cosine - mean) / deviation / fullEvidenceDeviations))
}
