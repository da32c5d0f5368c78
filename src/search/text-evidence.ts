import type Database from 'better-sqlite3'
import { filterClause } from './filters.js'
import { queryGroups } from './query-groups.js'
import type { SearchFilters } from './types.js'

export interface TextEvidence {
  rowid: number
  /** How much of the query the document holds, in [0, 1] (see textEvidence). */
  score: number
}

/** FTS5's BM25 idf, floored as FTS5 floors it. */
function idf(documents: number, containing: number): number {
  return Math.max(1e-6, Math.log((documents - containing + 0.5) / (containing + 0.5)))
}

const quoted = (phrase: string): string => `"${phrase}"`

/**
 * Full-text evidence on an absolute scale: the same score means the same thing for every query.
 * Min-max scaling made the best word match of every query 1.0, so a lone match on an incidental
 * word ("use", "system") outranked a clear match by meaning. Here each query group (a word, or
 * a category the query names with its products) counts by its specificity (idf), and a document
 * scores half by the share of the query's specificity it holds and half by its BM25 over the
 * BM25 of a document holding each group once at average length (the sum of the idfs), capped at 1.
 */
export function textEvidence(db: Database.Database, text: string, filters: SearchFilters | undefined, limit: number): TextEvidence[] {
  const groups = queryGroups(text)
  if (groups.length === 0) return []
  const where = filterClause(filters)
  const matching = db.prepare('SELECT rowid FROM docs_fts WHERE docs_fts MATCH ?').pluck()
  const holdersOf = (phrases: readonly string[]): Set<number> =>
    phrases.length === 0 ? new Set() : new Set(matching.all(phrases.map(quoted).join(' OR ')) as number[])
  const documents = db.prepare('SELECT count(*) FROM docs').pluck().get() as number
  const held = groups.map((group) => ({ full: holdersOf(group.full), partial: holdersOf(group.partial) }))
  // A word no document holds weighs as a word one document holds: in a small store its idf would
  // otherwise outweigh every word that matched, and it says little about the ones that did.
  const weights = held.map(({ full, partial }) => idf(documents, Math.max(1, new Set([...full, ...partial]).size)))
  const total = weights.reduce((sum, weight) => sum + weight, 0)
  const phrases = [...new Set(groups.flatMap((group) => [...group.full, ...group.partial]))]
  const ranked = db
    .prepare(
      `SELECT d.rowid AS rowid, -bm25(docs_fts) AS bm25 FROM docs_fts JOIN docs d ON d.rowid = docs_fts.rowid
       WHERE docs_fts MATCH ? AND ${where.sql} ORDER BY bm25(docs_fts) LIMIT ?`,
    )
    .all(phrases.map(quoted).join(' OR '), ...where.params, limit) as { rowid: number; bm25: number }[]
  return ranked.map(({ rowid, bm25 }) => {
    const share = held.reduce((sum, { full, partial }, index) => sum + (weights[index] ?? 0) * (full.has(rowid) ? 1 : partial.has(rowid) ? 0.5 : 0), 0)
    return { rowid, score: 0.5 * (share / total) + 0.5 * Math.min(1, bm25 / total) }
  })
}
