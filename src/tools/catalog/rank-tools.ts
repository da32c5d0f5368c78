import { stem, words } from '../../words.js'

/** What the ranking reads of a tool. */
export interface RankedTool {
  name: string
  title: string
  description: string
}

export interface ToolMatch<T extends RankedTool> {
  tool: T
  score: number
}

/** How much a query word counts in each field: a word of the name says most about what the tool does. */
const fieldWeights = { name: 3, title: 2, description: 1 } as const

function termsOf(text: string): Set<string> {
  return new Set(words(text.replaceAll('_', ' ')).map(stem))
}

/**
 * The tools whose name, title or description hold the query's words, best first. Each query word
 * counts with the weight of the best field it is found in, times how rare it is among the tools
 * (a word every tool has, like "memory", ranks little). Ties go by name, so the order is stable.
 */
export function rankTools<T extends RankedTool>(tools: readonly T[], query: string): ToolMatch<T>[] {
  const queryTerms = [...termsOf(query)]
  if (queryTerms.length === 0) return []
  const fields = tools.map((tool) => ({ tool, name: termsOf(tool.name), title: termsOf(tool.title), description: termsOf(tool.description) }))
  const rarity = new Map(
    queryTerms.map((term) => {
      const holders = fields.filter((field) => field.name.has(term) || field.title.has(term) || field.description.has(term)).length
      return [term, Math.log(1 + tools.length / Math.max(holders, 1))]
    }),
  )
  const wholeName = query.trim().toLowerCase()
  return fields
    .map((field) => {
      const score = queryTerms.reduce((sum, term) => {
        const weight = field.name.has(term)
          ? fieldWeights.name
          : field.title.has(term)
            ? fieldWeights.title
            : field.description.has(term)
              ? fieldWeights.description
              : 0
        return sum + weight * (rarity.get(term) ?? 0)
      }, 0)
      // The exact name of a tool finds that tool first.
      return { tool: field.tool, score: field.tool.name === wholeName ? score + 100 : score }
    })
    .filter((match) => match.score > 0)
    .sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name))
}
