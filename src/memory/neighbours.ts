import { contentWords, contradiction, minWordOverlap, wordOverlap } from './consolidate.js'

export interface Neighbour {
  memoryId: string
  content: string
  /** Embedding cosine, when a model was at hand. */
  cosine?: number | undefined
}

/**
 * What a new memory is to the memories already near it: `similar` restates it (half its content
 * words or more in common, or an embedding cosine at or above the near-duplicate line), `contradicts`
 * looks like it but disagrees (negation, opposite words, different numbers). Never merged here:
 * consolidation decides that.
 */
export function classifyNeighbours(
  content: string,
  neighbours: readonly Neighbour[],
  minCosine: number,
): { similar: (Neighbour & { score: number })[]; contradicts: (Neighbour & { reason: string })[] } {
  const own = contentWords(content)
  const similar: (Neighbour & { score: number })[] = []
  const contradicts: (Neighbour & { reason: string })[] = []
  for (const neighbour of neighbours) {
    const overlap = wordOverlap(own, contentWords(neighbour.content))
    if (overlap < minWordOverlap && (neighbour.cosine ?? 0) < minCosine) continue
    const reason = contradiction(content, neighbour.content)
    if (reason !== undefined) contradicts.push({ ...neighbour, reason })
    else similar.push({ ...neighbour, score: Math.round(Math.max(overlap, neighbour.cosine ?? 0) * 1000) / 1000 })
  }
  return { similar, contradicts }
}
