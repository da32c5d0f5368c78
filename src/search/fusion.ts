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
  const parts = new Map<number, { text?: number; vector?: number }>()
  for (const { rowid, score } of text) parts.set(rowid, { text: score })
  for (const { rowid, score } of vector) parts.set(rowid, { ...parts.get(rowid), vector: score })
  const fused: Fused[] = []
  for (const [rowid, part] of parts) {
    const score = textWeight * (part.text ?? 0) + (1 - textWeight) * (part.vector ?? 0)
    fused.push({ rowid, score, confidence: 0, text: part.text, vector: part.vector })
  }
  fused.sort((a, b) => b.score - a.score || a.rowid - b.rowid)
  calibrate(fused.map((hit) => hit.score)).forEach((confidence, position) => {
    ;(fused[position] as Fused).confidence = confidence
  })
  return fused
}
