/**
 * nDCG@k as BEIR computes it (trec_eval): gain = relevance grade, discount
 * log2(rank + 1), normalised by the ideal ordering of the judged documents.
 */
export function ndcgAtK(ranked: readonly string[], grades: ReadonlyMap<string, number>, k: number): number {
  let dcg = 0
  ranked.slice(0, k).forEach((id, index) => {
    const grade = grades.get(id) ?? 0
    if (grade > 0) dcg += grade / Math.log2(index + 2)
  })
  const ideal = [...grades.values()]
    .filter((grade) => grade > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, grade, index) => sum + grade / Math.log2(index + 2), 0)
  return ideal === 0 ? 0 : dcg / ideal
}

/** Share of the relevant documents found in the top k; a question with nothing relevant counts 1 (the LoCoMo protocol). */
export function recallAtK(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  if (relevant.size === 0) return 1
  const found = new Set(ranked.slice(0, k).filter((id) => relevant.has(id)))
  return found.size / relevant.size
}

/** 1 / the rank of the first relevant document within the top k, else 0. */
export function reciprocalRankAtK(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  const position = ranked.slice(0, k).findIndex((id) => relevant.has(id))
  return position < 0 ? 0 : 1 / (position + 1)
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length
}

/** Nearest-rank percentile (p in 0..100) of unsorted values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[Math.min(rank, sorted.length) - 1] ?? 0
}
