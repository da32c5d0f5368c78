import type { KnowledgeItem } from './model.js'

/** Weight of a query word found in each field: a title hit says more than a body hit. */
const fieldWeights = { title: 3, tags: 2, summary: 2, body: 1 } as const

function words(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}_-]+/u).filter((word) => word !== '')
}

/**
 * Score an item against a plain-text query: every query word must occur
 * (case-insensitive) in the title, tags, summary or body; 0 means no match.
 */
export function textMatchScore(item: KnowledgeItem, query: string): number {
  const terms = words(query)
  if (terms.length === 0) return 1
  const fields = {
    title: item.title.toLowerCase(),
    tags: item.tags.join(' ').toLowerCase(),
    summary: (item.summary ?? '').toLowerCase(),
    body: item.body.toLowerCase(),
  }
  let score = 0
  for (const term of terms) {
    let found = 0
    for (const [field, weight] of Object.entries(fieldWeights) as [keyof typeof fieldWeights, number][]) {
      if (fields[field].includes(term)) found += weight
    }
    if (found === 0) return 0
    score += found
  }
  return score
}
