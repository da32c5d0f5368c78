import type Database from 'better-sqlite3'
import { filterClause, hasNarrowingFilter } from './filters.js'
import { fuse, type Scored } from './fusion.js'
import { textEvidence, type TextEvidence } from './text-evidence.js'
import type { DocumentHead, SearchFilters, SearchHit, SearchRequest } from './types.js'
import { backgroundSize, vectorCalibration } from './vector-evidence.js'
import { hasPartitions, nearestVectors } from './vector-partitions.js'
import { statement } from './statements.js'
import { matrixForSearch, type VectorMatrix } from './vector-matrix.js'
import type { Embed } from './vector-store.js'

/** How many candidates each list contributes to fusion, at least. */
const minCandidates = 100
/** The most candidates a vector search asks for. */
const maxKnn = 4096

/** Where a ranking's candidates come from: full-text and calibrated vector evidence, and the heads of the rows fused. */
export interface CandidateSource {
  text(text: string, filters: SearchFilters | undefined, limit: number): TextEvidence[] | Promise<TextEvidence[]>
  vector(text: string, filters: SearchFilters | undefined, limit: number): Promise<Scored[]>
  heads(rows: readonly { rowid: number }[]): Map<number, DocumentHead> | Promise<Map<number, DocumentHead>>
}

/** Rank documents for a request whose mode is the one it really runs in (see SearchIndex.effectiveMode). */
export function rank(db: Database.Database, embed: Embed | undefined, request: SearchRequest): Promise<SearchHit[]> {
  const matrix = heldVectors(db, embed, request.mode)
  return rankFrom(
    {
      text: (text, filters, limit) => textEvidence(db, text, filters, limit, matrix),
      vector: (text, filters, limit) => vectorEvidence(db, embed, text, filters, limit, matrix),
      heads: (rows) => headsOfRows(db, rows, matrix),
    },
    request,
  )
}

/** The vectors held in memory for this call, when it compares vectors without partitions and the connection has searched before. */
function heldVectors(db: Database.Database, embed: Embed | undefined, mode: SearchRequest['mode']): VectorMatrix | undefined {
  return embed === undefined || mode === 'fulltext' || hasPartitions(db) ? undefined : matrixForSearch(db)
}

/** The one fusion of every store's index: the same evidence ranks the same, whichever engine found it. */
export async function rankFrom(source: CandidateSource, request: SearchRequest): Promise<SearchHit[]> {
  const mode = request.mode
  const candidates = Math.max(request.limit, minCandidates)
  // Together: a database store waits on both at once (two connections). The vectors first: their
  // question goes to the embedding thread before the text's statements take this one.
  const vectors = mode === 'fulltext' ? [] : source.vector(request.text, request.filters, candidates)
  const text = (async () => (mode === 'vector' ? [] : source.text(request.text, request.filters, candidates)))()
  const [textList, vectorList] = await Promise.all([text, vectors])
  const textWeight = mode === 'fulltext' ? 1 : mode === 'vector' ? 0 : (request.textWeight ?? 0.8)
  const fused = fuse(textList, vectorList, textWeight).slice(0, request.limit)
  const headOf = new Map<number, DocumentHead>()
  for (const { rowid, head } of textList) if (head !== undefined) headOf.set(rowid, head)
  const unread = fused.filter((hit) => !headOf.has(hit.rowid))
  if (unread.length > 0) for (const [rowid, head] of await source.heads(unread)) headOf.set(rowid, head)
  // Plain object literals: a thousand hits built by spreading cost milliseconds a search.
  return fused.map((hit) => {
    const { id, layer, source, dedupKey } = headOf.get(hit.rowid) as DocumentHead
    const scores: SearchHit['scores'] = {}
    if (hit.text !== undefined) scores.text = hit.text
    if (hit.vector !== undefined) scores.vector = hit.vector
    return { id, layer, source, dedupKey, score: hit.score, confidence: hit.confidence, scores }
  })
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
  const matrix = heldVectors(db, embed, 'vector')
  const { scored } = await vectorCandidates(db, embed, text, filters, limit, matrix)
  const candidates = scored.filter((candidate) => candidate.score >= minSimilarity)
  const headOf = headsOfRows(db, candidates, matrix)
  return candidates.map((candidate) => ({
    ...(headOf.get(candidate.rowid) as DocumentHead),
    score: candidate.score,
    confidence: candidate.score,
    scores: { vector: candidate.score },
  }))
}

/**
 * What a hit says of its document (id, layer, source, dedup key) by rowid, in one statement: a
 * search ranks up to a thousand, and callers group and page them without reading whole documents.
 */
function headsOfRows(db: Database.Database, rows: readonly { rowid: number }[], matrix: VectorMatrix | undefined): Map<number, DocumentHead> {
  // The matrix knows the head of every document it was read with; a row written since is read below.
  const known = new Map<number, DocumentHead>()
  const unknown: { rowid: number }[] = []
  for (const row of rows) {
    const head = matrix?.heads.get(row.rowid)
    if (head === undefined) unknown.push(row)
    else known.set(row.rowid, head)
  }
  if (unknown.length === 0) return known
  const heads = statement(db, 'SELECT rowid, id, layer, source, dedup_key FROM docs WHERE rowid IN (SELECT value FROM json_each(?))', 'raw').all(
    JSON.stringify(unknown.map((row) => row.rowid)),
  ) as [number, string, string, string | null, string][]
  for (const [rowid, id, layer, source, dedupKey] of heads) known.set(rowid, { id, layer, source: source ?? undefined, dedupKey })
  return known
}

/** Which of these documents the filters allow, in one statement. */
function allowedRows(db: Database.Database, rows: readonly { rowid: number }[], where: { sql: string; params: unknown[] }): Set<number> {
  const allowed = statement(db, `SELECT d.rowid FROM docs d WHERE d.rowid IN (SELECT value FROM json_each(?)) AND ${where.sql}`, 'pluck').all(
    JSON.stringify(rows.map((row) => row.rowid)),
    ...where.params,
  ) as number[]
  return new Set(allowed)
}

async function vectorCandidates(
  db: Database.Database,
  embed: Embed | undefined,
  text: string,
  filters: SearchFilters | undefined,
  limit: number,
  matrix: VectorMatrix | undefined,
): Promise<{ query: Float32Array | undefined; scored: Scored[]; firstDots?: number[] }> {
  if (embed === undefined || text.trim() === '') return { query: undefined, scored: [] }
  const [query] = await embed([text], 'query')
  if (query === undefined) return { query: undefined, scored: [] }
  const where = filterClause(filters)
  // The exact ranking of the documents the filters allow, filtered inside the one statement; equal
  // distances in rowid order, as the scan of the whole vector table returned them.
  const exact = (): Scored[] =>
    statement(
      db,
      `SELECT d.rowid AS rowid, 1 - vec_distance_cosine(v.embedding, ?) AS score FROM docs d JOIN vectors v ON v.rowid = d.rowid
       WHERE ${where.sql} ORDER BY score DESC, d.rowid LIMIT ?`,
    ).all(query, ...where.params, limit) as Scored[]
  // Without partitions every vector is compared anyway: in memory, against the documents the
  // filters allow, or in the one statement for a connection's first search.
  if (matrix !== undefined) return { query, ...matrix.nearest(query, filters, limit, backgroundSize) }
  if (!hasPartitions(db)) return { query, scored: exact() }
  const k = Math.min(maxKnn, hasNarrowingFilter(filters) ? limit * 4 : limit)
  const nearest = nearestVectors(db, query, k)
  const allowed = allowedRows(db, nearest, where)
  const kept = nearest.filter((row) => allowed.has(row.rowid))
  if (kept.length >= limit || nearest.length < k) {
    return { query, scored: kept.slice(0, limit).map((row) => ({ rowid: row.rowid, score: 1 - row.distance })) }
  }
  // The filters are narrow: rank exactly the documents they allow.
  return { query, scored: exact() }
}

async function vectorEvidence(
  db: Database.Database,
  embed: Embed | undefined,
  text: string,
  filters: SearchFilters | undefined,
  limit: number,
  matrix: VectorMatrix | undefined,
): Promise<Scored[]> {
  const nearest = await vectorCandidates(db, embed, text, filters, limit, matrix)
  if (nearest.query === undefined) return []
  if (embed === undefined) return []
  const calibrate = await vectorCalibration(db, embed, nearest.query, nearest.firstDots)
  return nearest.scored.map(({ rowid, score }) => ({ rowid, score: calibrate(score) }))
}
