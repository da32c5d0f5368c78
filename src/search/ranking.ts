import type Database from 'better-sqlite3'
import { filterClause, hasNarrowingFilter } from './filters.js'
import { fuse, type Scored } from './fusion.js'
import { textEvidence } from './text-evidence.js'
import type { SearchFilters, SearchHit, SearchRequest } from './types.js'
import { vectorCalibration } from './vector-evidence.js'
import { nearestVectors } from './vector-partitions.js'
import type { Embed } from './vector-store.js'

/** How many candidates each list contributes to fusion, at least. */
const minCandidates = 100
/** The most candidates a vector search asks for. */
const maxKnn = 4096

/** Rank documents for a request whose mode is the one it really runs in (see SearchIndex.effectiveMode). */
export async function rank(db: Database.Database, embed: Embed | undefined, request: SearchRequest): Promise<SearchHit[]> {
  const mode = request.mode
  const candidates = Math.max(request.limit, minCandidates)
  const textList = mode === 'vector' ? [] : textEvidence(db, request.text, request.filters, candidates)
  const vectorList = mode === 'fulltext' ? [] : await vectorEvidence(db, embed, request.text, request.filters, candidates)
  const textWeight = mode === 'fulltext' ? 1 : mode === 'vector' ? 0 : (request.textWeight ?? 0.8)
  const fused = fuse(textList, vectorList, textWeight).slice(0, request.limit)
  const idOf = idsOfRows(db, fused)
  return fused.map((hit) => ({
    id: idOf.get(hit.rowid) as string,
    score: hit.score,
    scores: {
      ...(hit.text === undefined ? {} : { text: hit.text }),
      ...(hit.vector === undefined ? {} : { vector: hit.vector }),
    },
  }))
}

/** Documents whose vectors are within `minSimilarity` (cosine) of this text's, most similar first. Embeds the text. */
export async function nearDuplicates(
  db: Database.Database,
  embed: Embed | undefined,
  text: string,
  filters: SearchFilters,
  minSimilarity: number,
  limit: number,
): Promise<SearchHit[]> {
  const { scored } = await vectorCandidates(db, embed, text, filters, limit)
  const candidates = scored.filter((candidate) => candidate.score >= minSimilarity)
  const idOf = idsOfRows(db, candidates)
  return candidates.map((candidate) => ({ id: idOf.get(candidate.rowid) as string, score: candidate.score, scores: { vector: candidate.score } }))
}

/** The ids of these documents by rowid, in one statement: a search ranks up to a thousand, and a lookup each cost milliseconds. */
function idsOfRows(db: Database.Database, rows: readonly { rowid: number }[]): Map<number, string> {
  const pairs = db
    .prepare('SELECT rowid, id FROM docs WHERE rowid IN (SELECT value FROM json_each(?))')
    .raw()
    .all(JSON.stringify(rows.map((row) => row.rowid))) as [number, string][]
  return new Map(pairs)
}

/** Which of these documents the filters allow, in one statement. */
function allowedRows(db: Database.Database, rows: readonly { rowid: number }[], where: { sql: string; params: unknown[] }): Set<number> {
  const allowed = db
    .prepare(`SELECT d.rowid FROM docs d WHERE d.rowid IN (SELECT value FROM json_each(?)) AND ${where.sql}`)
    .pluck()
    .all(JSON.stringify(rows.map((row) => row.rowid)), ...where.params) as number[]
  return new Set(allowed)
}

async function vectorCandidates(
  db: Database.Database,
  embed: Embed | undefined,
  text: string,
  filters: SearchFilters | undefined,
  limit: number,
): Promise<{ query: Float32Array | undefined; scored: Scored[] }> {
  if (embed === undefined || text.trim() === '') return { query: undefined, scored: [] }
  const [query] = await embed([text], 'query')
  if (query === undefined) return { query: undefined, scored: [] }
  const where = filterClause(filters)
  const k = Math.min(maxKnn, hasNarrowingFilter(filters) ? limit * 4 : limit)
  const nearest = nearestVectors(db, query, k)
  const allowed = allowedRows(db, nearest, where)
  const kept = nearest.filter((row) => allowed.has(row.rowid))
  if (kept.length >= limit || nearest.length < k) {
    return { query, scored: kept.slice(0, limit).map((row) => ({ rowid: row.rowid, score: 1 - row.distance })) }
  }
  // The filters are narrow: rank exactly the documents they allow.
  const exact = db
    .prepare(
      `SELECT d.rowid AS rowid, 1 - vec_distance_cosine(v.embedding, ?) AS score FROM docs d JOIN vectors v ON v.rowid = d.rowid
       WHERE ${where.sql} ORDER BY score DESC LIMIT ?`,
    )
    .all(query, ...where.params, limit) as Scored[]
  return { query, scored: exact }
}

async function vectorEvidence(
  db: Database.Database,
  embed: Embed | undefined,
  text: string,
  filters: SearchFilters | undefined,
  limit: number,
): Promise<Scored[]> {
  const nearest = await vectorCandidates(db, embed, text, filters, limit)
  if (nearest.query === undefined) return []
  if (embed === undefined) return []
  const calibrate = await vectorCalibration(db, embed, nearest.query)
  return nearest.scored.map(({ rowid, score }) => ({ rowid, score: calibrate(score) }))
}
