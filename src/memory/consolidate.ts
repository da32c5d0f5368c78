import { isStopWord } from '../search/query-text.js'
import { stem, words } from '../words.js'

/** Embedding cosine at or above which two memories may restate each other (bundled model: restatements 0.67–0.87, unrelated pairs under 0.55). */
export const minCosine = 0.65
/** Share of content words two restatements have in common (Jaccard): "GitHub Actions" and "GitLab CI" score 0.84 by cosine but share too few words. */
export const minWordOverlap = 0.5

const negations =
  /\b(not|no|never|no longer|don't|doesn't|isn't|aren't|wasn't|won't|can't|cannot|without|stopped|anymore|instead of|deprecated|removed|disabled)\b/gi

/** Word pairs where one memory saying the first and another the second disagree. */
const opposites: readonly [RegExp, RegExp][] = [
  [/\balways\b/i, /\bnever\b/i],
  [/\benabled?\b/i, /\bdisabled?\b/i],
  [/\ballow(s|ed)?\b/i, /\b(deny|denies|denied|forbid(s|den)?)\b/i],
  [/\btrue\b/i, /\bfalse\b/i],
  [/\bbefore\b/i, /\bafter\b/i],
  [/\bincrease[sd]?\b/i, /\bdecrease[sd]?\b/i],
  [/\b(use|uses|using)\b/i, /\b(avoid|avoids|avoiding)\b/i],
  [/\bstart(s|ed)?\b/i, /\bstop(s|ped)?\b/i],
]

/** The stemmed content words of a memory, numbers included. */
export function contentWords(text: string): Set<string> {
  return new Set(
    words(text.replace(negations, ' '))
      .flatMap((word) => word.split(/[.'_-]+/))
      .filter((word) => word !== '' && !isStopWord(word))
      .map(stem),
  )
}

export function wordOverlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const shared = [...a].filter((word) => b.has(word)).length
  const union = new Set([...a, ...b]).size
  return union === 0 ? 0 : shared / union
}

/** A number that names which one rather than how much: "note 2", "step 3", "issue #12". */
const labelNumbers =
  /\b(?:note|notes|step|part|phase|item|point|chapter|section|page|issue|ticket|task|question|example|case|lesson|option|scenario|round|sprint|day|week)\s*#?\d+\b|#\d+\b/gi

/** The numbers a memory states as values; the numbers of its labels are left out. */
const numbersIn = (text: string): string[] => [...new Set(text.replace(labelNumbers, ' ').match(/\d+(?:\.\d+)*/g) ?? [])].sort()

/**
 * Why two similar memories cannot be merged, if they cannot: one negates what the other says
 * ("we use X" / "we no longer use X"), they use opposite words ("always" / "never"), or they give
 * different numbers for the same thing ("TTL is 5 minutes" / "TTL is 50 minutes"); the number of
 * a label ("Release note 1:" / "Release note 2:") is not a value.
 */
export function contradiction(a: string, b: string): string | undefined {
  if ((a.match(negations)?.length ?? 0) % 2 !== (b.match(negations)?.length ?? 0) % 2) return 'one negates what the other says'
  for (const [first, second] of opposites) {
    if ((first.test(a) && !first.test(b) && second.test(b)) || (second.test(a) && !second.test(b) && first.test(b))) {
      return `opposite words (${first.source.replace(/\\b|\(.*$/g, '')} / ${second.source.replace(/\\b|\(.*$/g, '')})`
    }
  }
  const numbersA = numbersIn(a)
  const numbersB = numbersIn(b)
  if (numbersA.length > 0 && numbersB.length > 0 && numbersA.join(' ') !== numbersB.join(' ')) return 'different numbers'
  return undefined
}

export interface ConsolidationCandidate {
  id: string
  content: string
  vector: Float32Array
  /** Uses recorded for it: the most used memory of a cluster is kept as canonical. */
  activations: number
  created: string
}

export interface Cluster {
  canonical: string
  aliases: string[]
}

export interface ContradictoryCandidate {
  a: string
  b: string
  cosine: number
  reason: string
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0
  let normA = 0
  let normB = 0
  for (let index = 0; index < a.length; index++) {
    const x = a[index] ?? 0
    const y = b[index] ?? 0
    dot += x * y
    normA += x * x
    normB += y * y
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB)
}

/**
 * Clusters of memories that restate each other (close by meaning and sharing most content words),
 * never joining two that contradict: those are reported, and joined only with allowContradictory.
 * The canonical memory of a cluster is the most used one, then the oldest.
 */
export function planConsolidation(
  candidates: readonly ConsolidationCandidate[],
  options: { allowContradictory: boolean },
): { clusters: Cluster[]; contradictory: ContradictoryCandidate[] } {
  const parent = candidates.map((_, index) => index)
  const root = (index: number): number => {
    let current = index
    while (parent[current] !== current) current = parent[current] ?? current
    return current
  }
  const wordsOf = candidates.map((candidate) => contentWords(candidate.content))
  const contradictory: ContradictoryCandidate[] = []
  for (let i = 0; i < candidates.length; i++) {
    for (let j = i + 1; j < candidates.length; j++) {
      const a = candidates[i]
      const b = candidates[j]
      if (a === undefined || b === undefined) continue
      const similarity = cosine(a.vector, b.vector)
      if (similarity < minCosine || wordOverlap(wordsOf[i] ?? new Set(), wordsOf[j] ?? new Set()) < minWordOverlap) continue
      const reason = contradiction(a.content, b.content)
      if (reason !== undefined) {
        contradictory.push({ a: a.id, b: b.id, cosine: Math.round(similarity * 1000) / 1000, reason })
        if (!options.allowContradictory) continue
      }
      parent[root(j)] = root(i)
    }
  }
  const groups = new Map<number, ConsolidationCandidate[]>()
  candidates.forEach((candidate, index) => groups.set(root(index), [...(groups.get(root(index)) ?? []), candidate]))
  const clusters = [...groups.values()]
    .filter((group) => group.length > 1)
    .map((group) => {
      const [canonical, ...aliases] = [...group].sort((x, y) => y.activations - x.activations || x.created.localeCompare(y.created) || x.id.localeCompare(y.id))
      return { canonical: canonical?.id ?? '', aliases: aliases.map((alias) => alias.id) }
    })
  return { clusters, contradictory }
}
