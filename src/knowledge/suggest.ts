function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution))
    }
    previous = current
  }
  return previous[b.length] ?? 0
}

/** The known ids closest to an unknown one: ids containing it first, then by edit distance. */
export function nearestIds(wanted: string, known: readonly string[], count = 3): string[] {
  const needle = wanted.toLowerCase()
  return known
    .map((id) => {
      const lower = id.toLowerCase()
      const contains = lower.includes(needle) || needle.includes(lower)
      return { id, rank: contains ? 0 : 1, distance: editDistance(needle, lower) }
    })
    .filter((candidate) => candidate.rank === 0 || candidate.distance <= Math.max(3, Math.floor(needle.length / 2)))
    .sort((a, b) => a.rank - b.rank || a.distance - b.distance || a.id.localeCompare(b.id))
    .slice(0, count)
    .map((candidate) => candidate.id)
}

/**
 * The known ids a prefix stands for: every id starting with it, or, when
 * several do, the one where the prefix ends at a word boundary
 * (`adr-0002` is `adr-0002-use-kafka`, not also `adr-00021-...`).
 */
export function idsWithPrefix(prefix: string, known: readonly string[]): string[] {
  const starting = known.filter((id) => id.startsWith(prefix))
  if (starting.length <= 1) return starting
  const atBoundary = starting.filter((id) => /^[-_.]/.test(id.slice(prefix.length)))
  return atBoundary.length === 1 ? atBoundary : starting
}
