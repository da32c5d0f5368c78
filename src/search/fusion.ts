import { calibrate } from './calibration.js'

export interface Scored {
  rowid: number
  /** Evidence in [0, 1] on a scale shared by every query (see text-evidence.ts and vector-evidence.ts). */
  score: number
}

export interface Fused {
  rowid: number
  score: number
  /** How likely this hit answers the query, calibrated across queries (see calibration.ts). */
  confidence: number
  text: number | undefined
  vector: number | undefined
}

/**
 * Hybrid ranking: a weighted sum of the two kinds of evidence, each already on an absolute
 * scale, so a strong match by meaning can outrank a weak match by words and a query that
 * matches nothing well scores low (see the embedding model ADR for the measurements). Each
 * hit's confidence is calibrated on the whole ranking, before any limit cuts it.
 */
export function fuse(text: readonly Scored[], vector: readonly Scored[], textWeight: number): Fused[] {
  // Maps of numbers, not of objects made per hit: a search fuses up to a thousand of each.
  const textOf = new Map<number, number>()
  for (const { rowid, score } of text) textOf.set(rowid, score)
  const vectorOf = new Map<number, number>()
  for (const { rowid, score } of vector) vectorOf.set(rowid, score)
  const fused: Fused[] = []
  const add = (rowid: number): void => {
    const textScore = textOf.get(rowid)
    const vectorScore = vectorOf.get(rowid)
    const score = textWeight * (textScore ?? 0) + (1 - textWeight) * (vectorScore ?? 0)
    fused.push({ rowid, score, confidence: 0, text: textScore, vector: vectorScore })
  }
  for (const rowid of textOf.keys()) add(rowid)
  for (const rowid of vectorOf.keys()) if (!textOf.has(rowid)) add(rowid)
  fused.sort((a, b) => b.score - a.score || a.rowid - b.rowid)
  calibrate(fused.map((hit) => hit.score)).forEach((confidence, position) => {
    ;(fused[position] as Fused).confidence = confidence
  })
  return fused
}
