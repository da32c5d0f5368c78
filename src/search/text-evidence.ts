import type Database from 'better-sqlite3'
import { filterClause } from './filters.js'
import { holds, readPhraseMatches, summedBm25, type PhraseMatchCache, type PhraseMatches } from './phrase-matches.js'
import { queryGroups, type QueryGroup } from './query-groups.js'
import { statement } from './statements.js'
import type { DocumentHead, SearchFilters } from './types.js'
import { largest } from './vector-table.js'

export interface TextEvidence {
  rowid: number
  /** How much of the query the document holds, in [0, 1] (see textEvidence). */
  score: number
  /**
   * Read with the candidate row, so that ranking needs no second look-up for it; undefined when
   * the caller holds the heads (a long-lived connection's vector matrix) and the row is not there.
   */
  head: DocumentHead | undefined
}

/**
 * What a long-lived connection holds of every document (see vector-matrix.ts): its head, and which
 * documents filters allow, so that a search filters and ranks its full-text matches without
 * reading the documents' rows.
 */
export interface HeldDocuments {
  heads: ReadonlyMap<number, DocumentHead>
  allows(filters: SearchFilters | undefined): (rowid: number) => boolean
  /** The matches of the phrases searched for since the documents last changed. */
  phrases: PhraseMatchCache
}

/** FTS5's BM25 idf, floored as FTS5 floors it. */
function idf(documents: number, containing: number): number {
  return Math.max(1e-6, Math.log((documents - containing + 0.5) / (containing + 0.5)))
}

const quoted = (phrase: string): string => `"${phrase}"`
const isOwnWord = (group: QueryGroup): boolean => group.full.length === 1 && group.partial.length === 0

/**
 * Full-text evidence on an absolute scale: the same score means the same thing for every query.
 * Min-max scaling made the best word match of every query 1.0, so a lone match on an incidental
 * word ("system", "leave") outranked a clear match by meaning. Each query group (a word, or a
 * category the query names with its products) weighs its specificity (idf). A document scores
 * half by the share of that weight it holds, and half by a BM25 reading of the same: the BM25 of
 * the query's own words, plus the weight of each category it holds, over the sum of the weights
 * (what a document holding every word once at average length scores), capped at 1. Products
 * count by weight, not BM25, or "which database" would favour the rarest database named.
 */
export function textEvidence(db: Database.Database, text: string, filters: SearchFilters | undefined, limit: number, held?: HeldDocuments): TextEvidence[] {
  const groups = queryGroups(text)
  if (groups.length === 0) return []
  if (held !== undefined) return heldTextEvidence(db, groups, held, filters, limit)
  const matching = statement(db, 'SELECT rowid FROM docs_fts WHERE docs_fts MATCH ?', 'pluck')
  const holdersOf = (phrases: readonly string[]): Set<number> =>
    phrases.length === 0 ? new Set() : new Set(matching.all(phrases.map(quoted).join(' OR ')) as number[])
  const documents = statement(db, 'SELECT count(*) FROM docs', 'pluck').get() as number
  const holding = groups.map((group) => {
    const [full, partial] = [holdersOf(group.full), holdersOf(group.partial)]
    return { full, partial, holders: new Set([...full, ...partial]).size }
  })
  const { phrases: allPhrases, ownWords: ownPhrases } = queryPhrases(groups)
  const phrases = allPhrases.map(quoted).join(' OR ')
  const rows = matchedRows(db, phrases, filters, limit)
  const ownWords = ownPhrases.map(quoted).join(' OR ')
  // BM25 depends on the query and the whole index, not on which rows are read: when the query is
  // its own words alone (no category, no synonym) the candidates' BM25 is already the one wanted.
  const ownBm25 = ownWords === phrases ? new Map(rows.map(({ rowid, bm25 }) => [rowid, bm25])) : new Map(ownWords === '' ? [] : bm25OfMatches(db, ownWords))
  return scoreTextEvidence(groups, holding, documents, rows, ownBm25)
}

/**
 * textEvidence for a connection that holds every document's head, the filters' allowed rows and
 * the matches of the phrases it searched for: each phrase is read once until the documents change,
 * the query's BM25 is added up from its phrases' parts, and the allowed matches are ranked here,
 * neither joining the documents' rows nor sorting in SQL: at 10,000 memories 1.1-1.6 ms instead
 * of 5-6 (ADR 0025). It finds exactly what the statements find.
 */
function heldTextEvidence(
  db: Database.Database,
  groups: readonly QueryGroup[],
  held: HeldDocuments,
  filters: SearchFilters | undefined,
  limit: number,
): TextEvidence[] {
  const matchesOf = (phrase: string): PhraseMatches => held.phrases.matchesOf(phrase, (asked) => readPhraseMatches(db, asked))
  const holding = groups.map((group): GroupHolders => {
    const [full, partial] = [group.full.map(matchesOf), group.partial.map(matchesOf)]
    return { full: heldByAny(full), partial: heldByAny(partial), holders: holderCount([...full, ...partial]) }
  })
  const { phrases, ownWords } = queryPhrases(groups)
  const bm25 = summedBm25(phrases.map(matchesOf))
  const rows = bestAllowed(bm25, held, filters, limit)
  const ownIsWhole = ownWords.length === phrases.length && ownWords.every((word, n) => word === phrases[n])
  return scoreTextEvidence(groups, holding, held.heads.size, rows, ownIsWhole ? bm25 : summedBm25(ownWords.map(matchesOf)))
}

const heldByAny = (phrases: readonly PhraseMatches[]): RowSet => ({ has: (rowid) => phrases.some((matches) => holds(matches, rowid)) })

/** How many documents hold at least one of these phrases. */
function holderCount(phrases: readonly PhraseMatches[]): number {
  if (phrases.length === 1) return phrases[0]?.rowids.length ?? 0
  const holders = new Set<number>()
  for (const { rowids } of phrases) for (const rowid of rowids) holders.add(rowid)
  return holders.size
}

/** The `limit` matches the filters allow with the highest BM25, equal BM25 in row id order (as SQLite's sort keeps them). */
function bestAllowed(bm25: ReadonlyMap<number, number>, held: HeldDocuments, filters: SearchFilters | undefined, limit: number): Match[] {
  const allows = held.allows(filters)
  const rowids: number[] = []
  const scores: number[] = []
  for (const [rowid, score] of bm25) {
    if (!allows(rowid)) continue
    rowids.push(rowid)
    scores.push(score)
  }
  const cutoff = limit >= scores.length ? -Infinity : largest(Float64Array.from(scores), limit)
  const order: number[] = []
  for (let n = 0; n < scores.length; n++) if ((scores[n] as number) >= cutoff) order.push(n)
  order.sort((a, b) => (scores[b] as number) - (scores[a] as number) || (rowids[a] as number) - (rowids[b] as number))
  return order.slice(0, Math.max(0, limit)).map((n) => {
    const rowid = rowids[n] as number
    return { rowid, bm25: scores[n] as number, head: held.heads.get(rowid) }
  })
}

type Match = { rowid: number; bm25: number; head: DocumentHead | undefined }

/** Every document matching an FTS5 query, with its BM25 (higher is better), in row id order. */
function bm25OfMatches(db: Database.Database, query: string): [number, number][] {
  return statement(db, 'SELECT rowid, -bm25(docs_fts) FROM docs_fts WHERE docs_fts MATCH ?', 'raw').all(query) as [number, number][]
}

/** The `limit` documents the filters allow that match best by BM25, with their heads, in one statement. */
function matchedRows(db: Database.Database, phrases: string, filters: SearchFilters | undefined, limit: number): Match[] {
  const where = filterClause(filters)
  const rows = statement(
    db,
    `SELECT d.rowid, -bm25(docs_fts), d.id, d.layer, d.source, d.dedup_key FROM docs_fts JOIN docs d ON d.rowid = docs_fts.rowid
     WHERE docs_fts MATCH ? AND ${where.sql} ORDER BY bm25(docs_fts) LIMIT ?`,
    'raw',
  ).all(phrases, ...where.params, limit) as [number, number, string, string, string | null, string][]
  return rows.map(([rowid, bm25, id, layer, source, dedupKey]) => ({ rowid, bm25, head: { id, layer, source: source ?? undefined, dedupKey } }))
}

/** The phrases a query's groups match (each once), and those that are the query's own words. */
export function queryPhrases(groups: readonly QueryGroup[]): { phrases: string[]; ownWords: string[] } {
  return {
    phrases: [...new Set(groups.flatMap((group) => [...group.full, ...group.partial]))],
    ownWords: groups.filter(isOwnWord).map((group) => group.full[0] ?? ''),
  }
}

/**
 * Which documents hold one query group: among the candidates at least, those holding a full phrase
 * and those holding a partial one, and how many documents of the whole index hold either.
 */
export interface GroupHolders {
  full: RowSet
  partial: RowSet
  holders: number
}

/** Which rows a set holds; all scoring asks of it. */
export interface RowSet {
  has(rowid: number): boolean
}

/**
 * The scoring of textEvidence, whichever engine found the candidates: `held` says which documents
 * hold each group's full and partial phrases (in the order of `groups`), `documents` how many the
 * index holds, `ownBm25` the BM25 of the query's own words per candidate.
 */
export function scoreTextEvidence(
  groups: readonly QueryGroup[],
  held: readonly GroupHolders[],
  documents: number,
  candidates: readonly { rowid: number; head: DocumentHead | undefined }[],
  ownBm25: ReadonlyMap<number, number>,
): TextEvidence[] {
  const evidence = groups.map((group, position) => {
    const { full, partial, holders } = held[position] ?? { full: new Set<number>(), partial: new Set<number>(), holders: 0 }
    // A word no document holds weighs as a word one document holds: in a small store its idf would
    // otherwise outweigh every word that matched, and it says little about the ones that did.
    const weight = idf(documents, Math.max(1, holders))
    return { own: isOwnWord(group), weight, held: (rowid: number) => (full.has(rowid) ? 1 : partial.has(rowid) ? 0.5 : 0) * weight }
  })
  const total = evidence.reduce((sum, group) => sum + group.weight, 0)
  return candidates.map(({ rowid, head }) => {
    const share = evidence.reduce((sum, group) => sum + group.held(rowid), 0)
    const categories = evidence.reduce((sum, group) => sum + (group.own ? 0 : group.held(rowid)), 0)
    return {
      rowid,
      score: 0.5 * (share / total) + 0.5 * Math.min(1, ((ownBm25.get(rowid) ?? 0) + categories) / total),
      head,
    }
  })
}
