import type { PoolClient } from 'pg'
import { backgroundSentences } from '../../search/background-corpus.js'
import { searchableText, type StoredDocument } from '../../search/documents.js'
import type { DocumentIndex } from '../../search/document-index.js'
import type { EmbeddingProvider } from '../../search/embedding/provider.js'
import type { Scored } from '../../search/fusion.js'
import { queryGroups, type QueryGroup } from '../../search/query-groups.js'
import { rankFrom } from '../../search/ranking.js'
import { queryPhrases, scoreTextEvidence, type TextEvidence } from '../../search/text-evidence.js'
import type { DocumentHead, IndexStats, SearchFilters, SearchHit, SearchMode, SearchRequest } from '../../search/types.js'
import { calibrationFrom, smallStore } from '../../search/vector-evidence.js'
import { maxEmbeddedChars } from '../../search/vector-store.js'
import type { ListOptions } from '../../search/documents.js'
import { announceChange, asWords, textConfig } from './documents.js'
import { filterCondition } from './filters.js'
import { newestSchema } from './migrations.js'
import type { PreparedRead } from './connection.js'
import { preparedRead, type TenantScope } from './place.js'
import { indexedDimensions, searchSettings, vectorLiteral, vectorPath, type VectorPath } from './pgvector.js'
import { asBytes, asVector, type HeldVectors, type ReplicaVectors, type ScopeCorpus } from './vectors.js'

interface DocumentRow {
  id: string
  kind: StoredDocument['kind']
  layer: string
  title: string | null
  content: string
  tags: string[]
  source: string | null
  path: string | null
  updated_at: string
  expires_at: string | null
  type: string | null
  status: string | null
  meta: string | null
}

const documentColumns = 'd.id, d.kind, d.layer, d.title, d.content, d.tags, d.source, d.path, d.updated_at, d.expires_at, d.type, d.status, d.meta'

const documentsById = preparedRead(`SELECT ${documentColumns} FROM mk_documents d WHERE d.scope = $1 AND d.id = ANY($2::text[])`)

interface HeadRow {
  n: string
  id: string
  layer: string
  source: string | null
  dedup_key: string
}

function fromRow(row: DocumentRow): StoredDocument {
  return {
    id: row.id,
    kind: row.kind,
    layer: row.layer,
    title: row.title ?? undefined,
    content: row.content,
    tags: row.tags,
    source: row.source ?? undefined,
    path: row.path ?? undefined,
    updatedAt: Number(row.updated_at),
    expiresAt: row.expires_at === null ? undefined : Number(row.expires_at),
    type: row.type ?? undefined,
    status: row.status ?? undefined,
    meta: row.meta ?? undefined,
  }
}

/** FTS5's BM25 term weight (k1 1.2, b 0.75) of a document's word, from mk_document_terms `t` and the word's idf in `k`. */
const termWeight = (avglen: string): string => `k.idf * t.tf * 2.2 / (t.tf + 1.2 * (0.25 + 0.75 * t.length / ${avglen}))`

/**
 * The kept words of one lexeme, read through the primary key whatever the table's statistics say:
 * as a plain join, a table not yet analysed (just loaded, just migrated) was read whole per lexeme.
 */
const holdersOf = (lexeme: string): string =>
  `(SELECT t.n, t.tf, t.length, t.positions FROM mk_document_terms t WHERE t.scope = $1 AND t.lexeme = ${lexeme} OFFSET 0)`

/** The parameters of the text evidence's part of a search statement, by number. */
interface TextParams {
  /** int[]: the list of each phrase (two per query group: its full phrases, then its partial ones). */
  lists: string
  /** text[]: the phrases, as words. */
  phrases: string
  /** text: every phrase's words (BM25 is summed over them). */
  words: string
  /** text: the query's own words. */
  own: string
  /** float8: the scope's documents and mean length, as this replica holds them. */
  docs: string
  avglen: string
  limit: string
}

/**
 * The text evidence, as the SQLite index's, in common table expressions:
 * `holders`: how many documents of the scope hold any phrase of each query group, from the words
 * kept per document alone (a phrase of one word, the documents holding it; a longer one, those
 * where its words stand at the phrase's distances from one place, as `tsv @@ phraseto_tsquery`);
 * `candidates`: documents holding any phrase that the filters allow, best BM25 first (FTS5's, idf
 * floored at 1e-6, over every phrase's words), with the BM25 of the query's own words and which
 * lists of phrases each holds. BM25 is summed over the words kept per document; the documents are
 * then read in that order, one by one through the primary key, until `limit` pass the phrases and
 * the filters. The scope's size is this replica's (a write another replica made a moment ago may
 * not be counted yet): a word never counts as held by more documents than the scope has.
 */
const textEvidenceTables = (p: TextParams, where: string): string => `p AS MATERIALIZED (
    SELECT u.list / 2 AS g, u.ord, w.lexeme, w.at, count(*) OVER (PARTITION BY u.ord) AS words
    FROM unnest(${p.lists}::int[], ${p.phrases}::text[]) WITH ORDINALITY AS u(list, p, ord),
    LATERAL (SELECT e.lexeme, at FROM unnest(to_tsvector('${textConfig}', u.p)) e, unnest(e.positions) at) w
  ), holders AS (
    SELECT h.g, count(DISTINCT h.n)::float8 AS holders FROM (
      SELECT p.g, t.n FROM p CROSS JOIN LATERAL ${holdersOf('p.lexeme')} t WHERE p.words = 1
      UNION ALL
      SELECT p.g, t.n FROM p CROSS JOIN LATERAL ${holdersOf('p.lexeme')} t, unnest(t.positions) x
      WHERE p.words > 1 GROUP BY p.g, p.ord, t.n, x - p.at HAVING count(*) = max(p.words)
    ) h GROUP BY h.g
  ), lists AS MATERIALIZED (
    SELECT l.list, string_agg('(' || l.q::text || ')', ' | ')::tsquery AS q
    FROM (SELECT list, phraseto_tsquery('${textConfig}', p) AS q FROM unnest(${p.lists}::int[], ${p.phrases}::text[]) AS u(list, p)) l
    WHERE l.q::text <> '' GROUP BY l.list
  ), matching AS MATERIALIZED (SELECT string_agg('(' || q::text || ')', ' | ')::tsquery AS q FROM lists),
  terms AS MATERIALIZED (
    SELECT u.lexeme, greatest(1e-6, ln((greatest(${p.docs}::float8, h.holders) - h.holders + 0.5) / (h.holders + 0.5))) AS idf,
      u.lexeme = ANY (tsvector_to_array(to_tsvector('${textConfig}', ${p.own}::text))) AS own
    FROM unnest(tsvector_to_array(to_tsvector('${textConfig}', ${p.words}::text))) u(lexeme),
    LATERAL (SELECT count(*)::float8 AS holders FROM mk_document_terms t WHERE t.scope = $1 AND t.lexeme = u.lexeme) h
  ), scored AS (
    SELECT t.n, sum(${termWeight(`${p.avglen}::float8`)}) AS bm25, coalesce(sum(${termWeight(`${p.avglen}::float8`)}) FILTER (WHERE k.own), 0) AS own
    FROM terms k CROSS JOIN LATERAL ${holdersOf('k.lexeme')} t GROUP BY t.n
  ), candidates AS (
    SELECT s.n, s.own, d.id, d.layer, d.source, d.dedup_key, d.lists, row_number() OVER (ORDER BY s.bm25 DESC, s.n) AS place
    FROM (SELECT scored.n, scored.bm25, scored.own FROM scored ORDER BY scored.bm25 DESC, scored.n) s
    CROSS JOIN LATERAL (
      SELECT d.id, d.layer, d.source, d.dedup_key, ARRAY(SELECT l.list FROM lists l WHERE d.tsv @@ l.q) AS lists FROM mk_documents d
      WHERE d.scope = $1 AND d.n = s.n AND d.tsv @@ (SELECT matching.q FROM matching) AND ${where} LIMIT 1
    ) d
    ORDER BY s.bm25 DESC, s.n LIMIT ${p.limit}
  )`

/**
 * One row of a search statement: a query group's holders (`g`), a text candidate (`c`), or a vector
 * candidate the filters allow (`v`; with pgvector, its cosine in `score`).
 */
interface EvidenceRow {
  part: 'g' | 'c' | 'v'
  n: string | null
  g: number | null
  holders: number | null
  own: number | null
  place: string | null
  id: string | null
  layer: string | null
  source: string | null
  dedup_key: string | null
  lists: number[] | null
  score: number | null
}

/** The columns of every row of a search statement, named and typed by a first part that holds no row. */
const evidenceColumns =
  'SELECT NULL::text AS part, NULL::bigint AS n, NULL::int AS g, NULL::float8 AS holders, NULL::float8 AS own, NULL::bigint AS place, ' +
  'NULL::text AS id, NULL::text AS layer, NULL::text AS source, NULL::text AS dedup_key, NULL::int[] AS lists, NULL::float8 AS score WHERE false'

/**
 * The vector evidence pgvector finds, as the replica's exact scan would: the `limit` nearest
 * documents the filters (and row-level security) allow, by the HNSW index, with their cosine;
 * should the index scan come back short (filters refusing most of what it visits, past
 * `hnsw.max_scan_tuples`, or pgvector older than 0.8), every allowed document ranked exactly, in
 * the same statement (a one-time filter: not read otherwise). The calibration sample is not read
 * here: the replica holds it (ReplicaVectors.sample), read again only after a write to the scope.
 */
function pgvectorTables(p: { query: string; limit: string }, where: string): string {
  const distance = `d.vec <=> ${p.query}::vector`
  const head = 'd.n, d.id, d.layer, d.source, d.dedup_key'
  return `nearest AS MATERIALIZED (
      SELECT ${head}, ${distance} AS distance FROM mk_documents d
      WHERE d.scope = $1 AND d.vec IS NOT NULL AND ${where} ORDER BY ${distance} LIMIT ${p.limit}
    ), exact AS MATERIALIZED (
      SELECT ${head}, ${distance} AS distance FROM mk_documents d
      WHERE (SELECT count(*) FROM nearest) < ${p.limit} AND d.scope = $1 AND d.vec IS NOT NULL AND ${where}
      ORDER BY (${distance}) + 0, d.n LIMIT ${p.limit}
    )`
}

/**
 * A search's questions to the database as ONE statement (one round trip, one transaction): the
 * text evidence when the query has words, and the first `limit` of the nearest held vectors (in
 * their order) that the filters allow, with their heads, when there are some; or, with pgvector
 * (`inDatabase`), the nearest vectors the database finds. Prepared once per connection for each shape of filters.
 */
function searchStatement(
  scope: string,
  text: { lists: number[]; phrases: string[]; words: string; own: string; docs: number; avglen: number; limit: number } | undefined,
  nearest: { rowids: readonly number[]; limit: number } | undefined,
  filters: SearchFilters | undefined,
  inDatabase?: { query: string; limit: number },
): { statement: PreparedRead; values: unknown[] } {
  const values: unknown[] = [scope]
  const param = (value: unknown): string => {
    values.push(value)
    return `$${values.length}`
  }
  const tables: string[] = []
  const parts = [evidenceColumns]
  const textParams =
    text === undefined
      ? undefined
      : {
          lists: param(text.lists),
          phrases: param(text.phrases),
          words: param(text.words),
          own: param(text.own),
          docs: param(text.docs),
          avglen: param(text.avglen),
          limit: param(text.limit),
        }
  const vectorParams = nearest === undefined ? undefined : { rowids: param([...nearest.rowids]), limit: param(nearest.limit) }
  const pgvectorParams = inDatabase === undefined ? undefined : { query: param(inDatabase.query), limit: param(inDatabase.limit) }
  const where = filterCondition(filters, values)
  if (textParams !== undefined) {
    tables.push(textEvidenceTables(textParams, where))
    parts.push("SELECT 'g', NULL, holders.g, holders.holders, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM holders")
    parts.push("SELECT 'c', c.n, NULL, NULL, c.own, c.place, c.id, c.layer, c.source, c.dedup_key, c.lists, NULL FROM candidates c")
  }
  if (vectorParams !== undefined) {
    tables.push(`allowed AS (
      SELECT d.n, d.id, d.layer, d.source, d.dedup_key FROM unnest(${vectorParams.rowids}::bigint[]) WITH ORDINALITY AS a(n, ord)
      CROSS JOIN LATERAL (SELECT d.n, d.id, d.layer, d.source, d.dedup_key FROM mk_documents d WHERE d.scope = $1 AND d.n = a.n AND ${where}) d
      ORDER BY a.ord LIMIT ${vectorParams.limit}
    )`)
    parts.push("SELECT 'v', a.n, NULL, NULL, NULL, NULL, a.id, a.layer, a.source, a.dedup_key, NULL, NULL FROM allowed a")
  }
  if (pgvectorParams !== undefined) {
    tables.push(pgvectorTables(pgvectorParams, where))
    const found = 'NULL, NULL, NULL, NULL, v.id, v.layer, v.source, v.dedup_key, NULL, 1 - v.distance'
    parts.push(`SELECT 'v', v.n, ${found} FROM nearest v WHERE (SELECT count(*) FROM nearest) >= ${pgvectorParams.limit}`)
    parts.push(`SELECT 'v', v.n, ${found} FROM exact v`)
  }
  return { statement: preparedRead(`WITH ${tables.join(', ')}\n${parts.join('\nUNION ALL ')}`), values }
}

const headStatement = (where: string): PreparedRead =>
  preparedRead(`SELECT d.n, d.id, d.layer, d.source, d.dedup_key FROM mk_documents d WHERE d.scope = $1 AND ${where}`)

const headOf = (row: { id: string | null; layer: string | null; source: string | null; dedup_key: string | null }): DocumentHead => ({
  id: row.id ?? '',
  layer: row.layer ?? '',
  source: row.source ?? undefined,
  dedupKey: row.dedup_key ?? '',
})

/** What one search learned from the database: the text evidence, and the nearest vectors the filters allow (calibrated), with every head read. */
interface Evidence {
  text: TextEvidence[]
  vector: Scored[]
  heads: Map<number, DocumentHead>
}

/** The text part of a search statement's values: one list per group and kind (full, partial) holds the phrases, and the candidates say which lists they hold. */
function textQueryOf(groups: readonly QueryGroup[], corpus: ScopeCorpus, limit: number) {
  if (groups.length === 0) return undefined
  const { phrases, ownWords } = queryPhrases(groups)
  const lists = groups.flatMap((group) => [group.full, group.partial])
  return {
    lists: lists.flatMap((list, position) => list.map(() => position)),
    phrases: lists.flat().map(asWords),
    words: asWords(phrases.join(' ')),
    own: asWords(ownWords.join(' ')),
    docs: corpus.docs,
    avglen: corpus.avglen,
    limit,
  }
}

/** The text evidence of a search statement's rows, scored as the SQLite index's (scoreTextEvidence). */
function textEvidenceOf(groups: readonly QueryGroup[], docs: number, rows: readonly EvidenceRow[]): TextEvidence[] {
  const holders = new Map(rows.flatMap((row) => (row.part === 'g' && row.g !== null ? [[row.g, row.holders ?? 0] as const] : [])))
  const candidates = rows.filter((row) => row.part === 'c').sort((a, b) => Number(a.place) - Number(b.place))
  const holding = (list: number): Set<number> => new Set(candidates.filter((row) => (row.lists ?? []).includes(list)).map((row) => Number(row.n)))
  const held = groups.map((_, position) => ({ full: holding(2 * position), partial: holding(2 * position + 1), holders: holders.get(position) ?? 0 }))
  const ownBm25 = new Map(candidates.map((row) => [Number(row.n), row.own ?? 0]))
  // A replica's count of the scope may lag a write another replica just made: never fewer documents than hold a group.
  const documents = Math.max(docs, ...holders.values())
  return scoreTextEvidence(
    groups,
    held,
    documents,
    candidates.map((row) => ({ rowid: Number(row.n), head: headOf(row) })),
    ownBm25,
  )
}

/** Vectors of the background sentences, per model, embedded once per replica. */
const backgroundByModel = new Map<string, Promise<Float32Array[]>>()

/** One scope's documents in PostgreSQL, ranked by the engine's own fusion and calibration (src/search/ranking.ts). */
export class PostgresDocumentIndex implements DocumentIndex {
  embedderWarm = false

  constructor(
    private readonly place: TenantScope,
    private readonly vectors: ReplicaVectors,
    private readonly embedder: EmbeddingProvider | undefined,
  ) {}

  private embed(texts: readonly string[], kind: 'query' | 'document'): Promise<Float32Array[]> {
    if (this.embedder === undefined) return Promise.resolve([])
    return this.embedder.embed(texts, kind).then((vectors) => {
      this.embedderWarm = true
      return vectors
    })
  }

  get canSearchVectors(): boolean {
    return this.embedder !== undefined
  }

  effectiveMode(mode: SearchMode): SearchMode {
    return this.canSearchVectors ? mode : 'fulltext'
  }

  get embeddingModel(): { modelId: string; dimensions: number } | undefined {
    return this.embedder === undefined ? undefined : { modelId: this.embedder.modelId, dimensions: this.embedder.dimensions }
  }

  /**
   * Ranked by the engine's one fusion (rankFrom), from what ONE statement returns: the text
   * evidence and the heads of the nearest held vectors the filters allow, in one round trip. The
   * scope's vectors and size are this replica's, read again only after a write (LISTEN/NOTIFY).
   */
  search(request: SearchRequest): Promise<SearchHit[]> {
    const mode = this.effectiveMode(request.mode)
    let gathered: Promise<Evidence> | undefined
    // rankFrom asks for text and vector evidence at once, with the same text, filters and limit: one gathering answers both.
    const gather = (text: string, filters: SearchFilters | undefined, limit: number): Promise<Evidence> =>
      (gathered ??= this.evidence(mode, request.queryVector, text, filters, limit))
    return rankFrom(
      {
        text: async (text, filters, limit) => (await gather(text, filters, limit)).text,
        vector: async (text, filters, limit) => (await gather(text, filters, limit)).vector,
        heads: async (rows) => {
          const known = gathered === undefined ? new Map<number, DocumentHead>() : (await gathered).heads
          const unknown = rows.filter((row) => !known.has(row.rowid))
          return unknown.length === 0 ? known : new Map([...known, ...(await this.heads(unknown))])
        },
      },
      { ...request, mode },
    )
  }

  async nearDuplicates(text: string, filters: SearchFilters, minSimilarity: number, limit = 5): Promise<SearchHit[]> {
    const [query] = text.trim() === '' ? [] : await this.embed([text], 'query')
    if (query === undefined) return []
    const pgvector = await this.pgvector()
    if (pgvector !== undefined) {
      const found = await this.nearestInDatabase(pgvector, query, undefined, filters, limit)
      return found.scored
        .filter((candidate) => candidate.score >= minSimilarity)
        .flatMap((candidate) => {
          const head = found.heads.get(candidate.rowid)
          return head === undefined ? [] : [{ ...head, score: candidate.score, confidence: candidate.score, scores: { vector: candidate.score } }]
        })
    }
    const held = await this.vectors.of(this.place)
    const nearest = this.nearestHeld(held, query, limit)
    const allowed =
      nearest.length === 0
        ? new Map<number, DocumentHead>()
        : await this.allowedHeads(
            filters,
            nearest.map((row) => row.rowid),
          )
    const { scored, heads } = await this.keptOrAll(held, query, filters, limit, nearest, allowed)
    return scored
      .filter((candidate) => candidate.score >= minSimilarity)
      .flatMap((candidate) => {
        const head = heads.get(candidate.rowid)
        return head === undefined ? [] : [{ ...head, score: candidate.score, confidence: candidate.score, scores: { vector: candidate.score } }]
      })
  }

  /** The evidence of one search: the query embedded, held vectors ranked in memory, then one statement for the rest. */
  private async evidence(
    mode: SearchMode,
    queryVector: Float32Array | undefined,
    text: string,
    filters: SearchFilters | undefined,
    limit: number,
  ): Promise<Evidence> {
    const groups = mode === 'vector' ? [] : queryGroups(text)
    const wantsVectors = mode !== 'fulltext' && this.embedder !== undefined
    const pgvector = wantsVectors ? await this.pgvector() : undefined
    const [queries, held, corpus] = await Promise.all([
      !wantsVectors ? [] : queryVector !== undefined ? [queryVector] : text.trim() === '' ? [] : this.embed([text], 'query'),
      wantsVectors && pgvector === undefined ? this.vectors.of(this.place) : undefined,
      groups.length > 0 ? this.vectors.corpus(this.place) : undefined,
    ])
    const [query] = queries
    if (pgvector !== undefined && query !== undefined) return this.evidenceInDatabase(pgvector, query, groups, corpus, filters, limit)
    const nearest = query === undefined || held === undefined ? [] : this.nearestHeld(held, query, limit)
    const textQuery = corpus === undefined ? undefined : textQueryOf(groups, corpus, limit)
    const rows =
      textQuery === undefined && nearest.length === 0
        ? []
        : await (async () => {
            const { statement, values } = searchStatement(
              this.place.scope,
              textQuery,
              nearest.length === 0 ? undefined : { rowids: nearest.map((row) => row.rowid), limit },
              filters,
            )
            return this.place.read<EvidenceRow>(statement, values)
          })()
    const heads = new Map<number, DocumentHead>()
    const allowed = new Map<number, DocumentHead>()
    for (const row of rows) {
      if (row.part === 'c') heads.set(Number(row.n), headOf(row))
      if (row.part === 'v') allowed.set(Number(row.n), headOf(row))
    }
    const textList = textQuery === undefined ? [] : textEvidenceOf(groups, textQuery.docs, rows)
    if (query === undefined || held === undefined) return { text: textList, vector: [], heads }
    const kept = await this.keptOrAll(held, query, filters, limit, nearest, allowed)
    for (const [rowid, head] of kept.heads) heads.set(rowid, head)
    const calibrate = calibrationFrom(query, await this.calibrationSample())
    return { text: textList, vector: kept.scored.map(({ rowid, score }) => ({ rowid, score: calibrate(score) })), heads }
  }

  /**
   * The pgvector path when this database has it and this scope's model is the one it indexes;
   * otherwise (no extension, another model's dimensions) vectors are searched in replica memory.
   */
  private async pgvector(): Promise<Extract<VectorPath, { kind: 'pgvector' }> | undefined> {
    if (this.embedder?.dimensions !== indexedDimensions) return undefined
    const path = await vectorPath(await this.place.pool())
    return path.kind === 'pgvector' ? path : undefined
  }

  /** A search's evidence with pgvector: text evidence and the nearest vectors in ONE statement; this replica holds no vector. */
  private async evidenceInDatabase(
    path: Extract<VectorPath, { kind: 'pgvector' }>,
    query: Float32Array,
    groups: readonly QueryGroup[],
    corpus: ScopeCorpus | undefined,
    filters: SearchFilters | undefined,
    limit: number,
  ): Promise<Evidence> {
    const textQuery = corpus === undefined ? undefined : textQueryOf(groups, corpus, limit)
    const [found, sample] = await Promise.all([this.nearestInDatabase(path, query, textQuery, filters, limit), this.calibrationSample()])
    const textList = textQuery === undefined ? [] : textEvidenceOf(groups, textQuery.docs, found.rows)
    const calibrate = calibrationFrom(query, sample)
    return { text: textList, vector: found.scored.map(({ rowid, score }) => ({ rowid, score: calibrate(score) })), heads: found.heads }
  }

  /**
   * What pgvector finds for a query (with the text evidence's rows when asked): the nearest
   * vectors the filters allow by cosine, equal scores in storage order as the replica's scan
   * ranks them, their heads and the text candidates' heads.
   */
  private async nearestInDatabase(
    path: Extract<VectorPath, { kind: 'pgvector' }>,
    query: Float32Array,
    textQuery: ReturnType<typeof textQueryOf>,
    filters: SearchFilters | undefined,
    limit: number,
  ): Promise<{ rows: EvidenceRow[]; scored: Scored[]; heads: Map<number, DocumentHead> }> {
    const { statement, values } = searchStatement(this.place.scope, textQuery, undefined, filters, { query: vectorLiteral(query), limit })
    const rows = await this.place.read<EvidenceRow>(statement, values, searchSettings(path, limit))
    const heads = new Map<number, DocumentHead>()
    const scored: Scored[] = []
    for (const row of rows) {
      if (row.part === 'c' || row.part === 'v') heads.set(Number(row.n), headOf(row))
      // The replica's scan rounds each cosine to float32 (VectorTable): so are these, so equal vectors tie alike.
      if (row.part === 'v') scored.push({ rowid: Number(row.n), score: Math.fround(row.score ?? 0) })
    }
    scored.sort((a, b) => b.score - a.score || a.rowid - b.rowid)
    return { rows, scored: scored.slice(0, limit), heads }
  }

  /** The nearest few held vectors by cosine, equal scores in storage order: the filters are asked of these (limit × 4) first. */
  private nearestHeld(held: HeldVectors, query: Float32Array, limit: number): Scored[] {
    return held.table.nearest(query, Math.min(held.table.size, limit * 4))
  }

  /**
   * The exact ranking by cosine of the held vectors the filters allow: the nearest few the filters
   * kept (`allowed`: the first `limit` of them) when they are enough (or are every vector); else,
   * when the filters refused too many of them, of every document they allow (one more read).
   */
  private async keptOrAll(
    held: HeldVectors,
    query: Float32Array,
    filters: SearchFilters | undefined,
    limit: number,
    nearest: readonly Scored[],
    allowed: Map<number, DocumentHead>,
  ): Promise<{ scored: Scored[]; heads: Map<number, DocumentHead> }> {
    const kept = nearest.filter((row) => allowed.has(row.rowid))
    if (kept.length >= limit || nearest.length === held.table.size) return { scored: kept.slice(0, limit), heads: allowed }
    const every = await this.allowedHeads(filters, undefined)
    const positions = [...every.keys()].flatMap((rowid) => {
      const position = held.table.positionOf(rowid)
      return position === undefined ? [] : [position]
    })
    return { scored: held.table.nearest(query, limit, Int32Array.from(positions).sort()), heads: every }
  }

  /** The heads of the documents among these (or of every document with a vector) that the filters allow, in one round trip. */
  private async allowedHeads(filters: SearchFilters | undefined, among: readonly number[] | undefined): Promise<Map<number, DocumentHead>> {
    const values: unknown[] = [this.place.scope]
    if (among !== undefined) values.push([...among])
    const only = among === undefined ? 'd.embedding IS NOT NULL' : 'd.n = ANY($2::bigint[])'
    const where = filterCondition(filters, values)
    const rows = await this.place.read<HeadRow>(headStatement(`${only} AND ${where}`), values)
    return new Map(rows.map((row) => [Number(row.n), headOf(row)]))
  }

  /** The scope's first vectors in storage order, with the background sentences when there are few (as vectorCalibration samples). */
  private async calibrationSample(): Promise<Float32Array[]> {
    const sample = await this.vectors.sample(this.place)
    if (sample.length >= smallStore) return sample
    return [...sample, ...(await this.backgroundVectors())]
  }

  /** The background sentences' vectors for this model, embedded once per replica. */
  private backgroundVectors(): Promise<Float32Array[]> {
    if (this.embedder === undefined) return Promise.resolve([])
    const model = this.embedder.modelId
    let background = backgroundByModel.get(model)
    if (background === undefined) {
      background = this.embed([...backgroundSentences], 'document')
      backgroundByModel.set(model, background)
      background.catch(() => backgroundByModel.delete(model))
    }
    return background
  }

  private async heads(rows: readonly { rowid: number }[]): Promise<Map<number, DocumentHead>> {
    const found = await this.place.read<HeadRow>(headStatement('d.n = ANY($2::bigint[])'), [this.place.scope, rows.map((row) => row.rowid)])
    return new Map(found.map((row) => [Number(row.n), headOf(row)]))
  }

  async getMany(ids: readonly string[]): Promise<StoredDocument[]> {
    if (ids.length === 0) return []
    const rows = await this.place.read<DocumentRow>(documentsById, [this.place.scope, [...ids]])
    const byId = new Map(rows.map((row) => [row.id, fromRow(row)]))
    return ids.flatMap((id) => {
      const doc = byId.get(id)
      return doc === undefined ? [] : [doc]
    })
  }

  async list(filters: SearchFilters & ListOptions = {}): Promise<StoredDocument[]> {
    const params: unknown[] = [this.place.scope]
    const where = filterCondition(filters, params)
    const order = filters.order === 'any' ? '' : 'ORDER BY d.updated_at DESC, d.id DESC'
    const limit = filters.limit === undefined ? '' : `LIMIT ${String(Math.max(0, Math.floor(filters.limit)))}`
    const rows = await this.place.run((client) =>
      client.query<DocumentRow>(`SELECT ${documentColumns} FROM mk_documents d WHERE d.scope = $1 AND ${where} ${order} ${limit}`, params),
    )
    return rows.rows.map(fromRow)
  }

  async stats(): Promise<IndexStats> {
    const row = await this.place.run(async (client) => {
      const counts = await client.query<Record<'documents' | 'memories' | 'knowledge' | 'directives' | 'pending' | 'bytes', string>>(
        `SELECT count(*) AS documents, count(*) FILTER (WHERE kind = 'memory') AS memories, count(*) FILTER (WHERE kind = 'knowledge') AS knowledge,
           count(*) FILTER (WHERE kind = 'directive') AS directives, count(*) FILTER (WHERE embedding IS NULL) AS pending,
           coalesce(sum(pg_column_size(d.*)), 0) AS bytes
         FROM mk_documents d WHERE scope = $1`,
        [this.place.scope],
      )
      return counts.rows[0]
    })
    return {
      documents: Number(row?.documents ?? 0),
      memories: Number(row?.memories ?? 0),
      knowledge: Number(row?.knowledge ?? 0),
      directives: Number(row?.directives ?? 0),
      pending: this.embedder === undefined ? 0 : Number(row?.pending ?? 0),
      modelId: this.embedder?.modelId,
      dimensions: this.embedder?.dimensions,
      schemaVersion: newestSchema,
      sizeBytes: Number(row?.bytes ?? 0),
    }
  }

  async state(key: string): Promise<string | undefined> {
    return this.place.run(async (client) => readState(client, this.place.scope, key))
  }

  /** Documents waiting for a vector, as this replica holds the count (read again after any write to the scope). */
  async pendingCount(): Promise<number> {
    if (this.embedder === undefined) return 0
    return (await this.vectors.corpus(this.place)).pending
  }

  /** Embed documents without a vector, a batch per transaction, and tell every replica. Returns how many were embedded. */
  async embedPending(onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<number> {
    if (this.embedder === undefined) return 0
    const total = await this.pendingCount()
    let done = 0
    for (;;) {
      signal?.throwIfAborted()
      const batch = await this.place.run((client) =>
        client.query<{ id: string; title: string | null; content: string; tags: string[] }>(
          'SELECT id, title, content, tags FROM mk_documents WHERE scope = $1 AND embedding IS NULL ORDER BY n LIMIT 64',
          [this.place.scope],
        ),
      )
      if (batch.rows.length === 0) return done
      const vectors = await this.embed(
        batch.rows.map((row) => searchableText({ title: row.title ?? undefined, content: row.content, tags: row.tags }).slice(0, maxEmbeddedChars)),
        'document',
      )
      await this.place.run(async (client) => {
        for (const [position, row] of batch.rows.entries()) {
          const vector = vectors[position]
          if (vector !== undefined)
            await client.query('UPDATE mk_documents SET embedding = $3 WHERE scope = $1 AND id = $2', [this.place.scope, row.id, asBytes(vector)])
        }
        await announceChange(client, this.place.scope)
      })
      this.vectors.forget(this.place)
      done += batch.rows.length
      onProgress?.(Math.min(done, total), total)
    }
  }

  async vectorsOf(ids: readonly string[]): Promise<{ id: string; vector: Float32Array }[]> {
    const rows = await this.place.run((client) =>
      client.query<{ id: string; embedding: Buffer }>(
        'SELECT id, embedding FROM mk_documents WHERE scope = $1 AND id = ANY($2::text[]) AND embedding IS NOT NULL',
        [this.place.scope, [...ids]],
      ),
    )
    return rows.rows.map((row) => ({ id: row.id, vector: asVector(row.embedding) }))
  }

  async documentVectors(filters: SearchFilters): Promise<{ id: string; vector: Float32Array }[]> {
    const params: unknown[] = [this.place.scope]
    const where = filterCondition(filters, params)
    const rows = await this.place.run((client) =>
      client.query<{ id: string; embedding: Buffer }>(
        `SELECT d.id, d.embedding FROM mk_documents d WHERE d.scope = $1 AND d.embedding IS NOT NULL AND ${where}`,
        params,
      ),
    )
    return rows.rows.map((row) => ({ id: row.id, vector: asVector(row.embedding) }))
  }
}

export async function readState(client: PoolClient, scope: string, key: string): Promise<string | undefined> {
  const rows = await client.query<{ value: string }>('SELECT value FROM mk_index_state WHERE scope = $1 AND key = $2', [scope, key])
  return rows.rows[0]?.value
}

export async function writeState(client: PoolClient, scope: string, key: string, value: string): Promise<void> {
  await client.query(
    'INSERT INTO mk_index_state (scope, key, value) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, scope, key) DO UPDATE SET value = excluded.value',
    [scope, key, value],
  )
}
