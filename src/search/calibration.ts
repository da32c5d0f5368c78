/**
 * Calibrated scores (ADR 0031): how likely a query is answered by what the index holds, on one scale
 * for every query, so that a threshold (the specification's default 0.7) keeps answers and drops
 * the best of nothing.
 *
 * The fused evidence of the best hit decides whether the query has an answer at all: on mk's team
 * set (team-dev), 8% of the questions whose best hit scored under 0.2 had an answer in the
 * memories, 54% between 0.2 and 0.3, 75% between 0.3 and 0.4, and all above 0.4. The anchors below
 * follow those shares, so a confidence of 0.7 is a best hit of about 0.3. Each hit then keeps that
 * confidence scaled by how close it comes to the best hit, mildly: a question that has an answer
 * keeps its further answers above the threshold (R@10), while the order within the query is the
 * fused order.
 */

/** The specification's default threshold (memory_search): a hit under it most likely does not answer. */
export const defaultThreshold = 0.7

/** Fused evidence of the best hit → confidence that the query has an answer, linear between anchors. */
const anchors: readonly (readonly [evidence: number, confidence: number])[] = [
  [0, 0],
  [0.2, 0.4],
  [0.3, 0.7],
  [0.4, 0.9],
  [0.6, 1],
]

/**
 * How much a hit's distance from the best hit lowers its confidence: (score / best) ** this. Mild, so
 * that the further answers of an answered question pass the threshold with it: under a confidence of
 * 0.9 a hit passes 0.7 down to 1/150 of the best one's evidence (with 0.1, down to 1/12).
 */
const standingExponent = 0.05

/** The confidence that a query whose best hit has this fused evidence has an answer in the index. */
export function answerConfidence(bestEvidence: number): number {
  for (let i = 1; i < anchors.length; i++) {
    const [lowEvidence, lowConfidence] = anchors[i - 1] as readonly [number, number]
    const [highEvidence, highConfidence] = anchors[i] as readonly [number, number]
    if (bestEvidence <= highEvidence) {
      const share = Math.max(0, bestEvidence - lowEvidence) / (highEvidence - lowEvidence)
      return lowConfidence + (highConfidence - lowConfidence) * share
    }
  }
  return 1
}

/**
 * The confidence of each hit of one query's ranking (best first, fused evidence in [0, 1]): the
 * query's answer confidence times (score / best score) ** standingExponent. Same order as the scores.
 */
export function calibrate(scores: readonly number[]): number[] {
  const best = scores[0] ?? 0
  if (best <= 0) return scores.map(() => 0)
  const confidence = answerConfidence(best)
  return scores.map((score) => confidence * Math.max(0, score / best) ** standingExponent)
}
