import type { PoolClient } from 'pg'
import { backgroundSentences } from '../../search/background-corpus.js'
import { searchableText, type StoredDocument } from '../../search/documents.js'
import type { DocumentIndex } from '../../search/document-index.js'
import type { EmbeddingProvider } from '../../search/embedding/provider.js'
import type { Scored } from '../../search/fusion.js'
import { queryGroups } from '../../search/query-groups.js'
import { rankFrom, type CandidateSource } from '../../search/ranking.js'
import { queryPhrases, scoreTextEvidence, type TextEvidence } from '../../search/text-evidence.js'
import type { DocumentHead, IndexStats, SearchFilters, SearchHit, SearchMode, SearchRequest } from '../../search/types.js'
import { backgroundSize, calibrationFrom, smallStore } from '../../search/vector-evidence.js'
import { nearestByCosine } from '../../search/vector-matrix.js'
import { maxEmbeddedChars } from '../../search/vector-store.js'
import type { ListOptions } from '../../search/documents.js'
import { asWords, textConfig } from './documents.js'
import { sha256Hex } from '../../hash.js'
import { filterCondition } from './filters.js'
import { newestSchema } from './migrations.js'
import type { TenantScope } from './place.js'
import { asBytes, asVector, type ReplicaVectors } from './vectors.js'

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

/** A statement prepared once per connection, named by its text. */
const named = (text: string): { name: string; text: string } => ({ name: `mk_${sha256Hex(text).slice(0, 24)}`, text })

/** FTS5's BM25 term weight (k1 1.2, b 0.75) of a document's word, from mk_document_terms `t` and the word's idf in `k`. */
const termWeight = (avglen: string): string => `k.idf * t.tf * 2.2 / (t.tf + 1.2 * (0.25 + 0.75 * t.length / ${avglen}))`

/**
 * The kept words of one lexeme, read through the primary key whatever the table's statistics say:
 * as a plain join, a table not yet analysed (just loaded, just migrated) was read whole per lexeme.
 */
const holdersOf = (lexeme: string): string =>
  `(SELECT t.n, t.tf, t.length, t.positions FROM mk_document_terms t WHERE t.scope = $1 AND t.lexeme = ${lexeme} OFFSET 0)`

/**
 * How many documents of the scope hold any phrase of each query group, from the words kept per
 * document alone: a phrase of one word, the documents holding it; a longer one, those where its
 * words stand at the phrase's distances from one place (as `tsv @@ phraseto_tsquery` matches).
 */
const groupHolders = named(`WITH p AS MATERIALIZED (
    SELECT u.g, u.ord, w.lexeme, w.at, count(*) OVER (PARTITION BY u.ord) AS words
    FROM unnest($2::int[], $3::text[]) WITH ORDINALITY AS u(g, p, ord),
    LATERAL (SELECT e.lexeme, at FROM unnest(to_tsvector('${textConfig}', u.p)) e, unnest(e.positions) at) w
  )
  SELECT h.g, count(DISTINCT h.n)::float8 AS holders FROM (
    SELECT p.g, t.n FROM p CROSS JOIN LATERAL ${holdersOf('p.lexeme')} t WHERE p.words = 1
    UNION ALL
    SELECT p.g, t.n FROM p CROSS JOIN LATERAL ${holdersOf('p.lexeme')} t, unnest(t.positions) x
    WHERE p.words > 1 GROUP BY p.g, p.ord, t.n, x - p.at HAVING count(*) = max(p.words)
  ) h GROUP BY h.g`)

/**
 * The candidates: documents holding any phrase of `$3` that the filters allow, best BM25 first
 * (FTS5's, idf floored at 1e-6, over the words of `$4`), with the BM25 of the query's own words
 * (`$5`) and which lists (`$2`) of phrases each holds. BM25 is summed over the words kept per
 * document; the documents are then read in that order, one by one through the primary key, until
 * `limit` pass the phrases and the filters.
 */
const rankedCandidates = (where: string, limit: string): { name: string; text: string } =>
  named(`WITH lists AS MATERIALIZED (
    SELECT l.list, string_agg('(' || l.q::text || ')', ' | ')::tsquery AS q
    FROM (SELECT list, phraseto_tsquery('${textConfig}', p) AS q FROM unnest($2::int[], $3::text[]) AS u(list, p)) l WHERE l.q::text <> '' GROUP BY l.list
  ), matching AS MATERIALIZED (SELECT string_agg('(' || q::text || ')', ' | ')::tsquery AS q FROM lists),
  terms AS MATERIALIZED (
    SELECT u.lexeme, greatest(1e-6, ln(($6::float8 - h.holders + 0.5) / (h.holders + 0.5))) AS idf,
      u.lexeme = ANY (tsvector_to_array(to_tsvector('${textConfig}', $5::text))) AS own
    FROM unnest(tsvector_to_array(to_tsvector('${textConfig}', $4::text))) u(lexeme),
    LATERAL (SELECT count(*)::float8 AS holders FROM mk_document_terms t WHERE t.scope = $1 AND t.lexeme = u.lexeme) h
  ), scored AS (
    SELECT t.n, sum(${termWeight('$7::float8')}) AS bm25, coalesce(sum(${termWeight('$7::float8')}) FILTER (WHERE k.own), 0) AS own
    FROM terms k CROSS JOIN LATERAL ${holdersOf('k.lexeme')} t GROUP BY t.n
  )
  SELECT s.n, s.bm25, s.own, d.id, d.layer, d.source, d.dedup_key, d.lists
  FROM (SELECT scored.n, scored.bm25, scored.own FROM scored ORDER BY scored.bm25 DESC, scored.n) s
  CROSS JOIN LATERAL (
    SELECT d.id, d.layer, d.source, d.dedup_key, ARRAY(SELECT l.list FROM lists l WHERE d.tsv @@ l.q) AS lists FROM mk_documents d
    WHERE d.scope = $1 AND d.n = s.n AND d.tsv @@ (SELECT matching.q FROM matching) AND ${where} LIMIT 1
  ) d
  ORDER BY s.bm25 DESC, s.n LIMIT ${limit}`)

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

  search(request: SearchRequest): Promise<SearchHit[]> {
    return rankFrom(this.candidates(request.queryVector), { ...request, mode: this.effectiveMode(request.mode) })
  }

  async nearDuplicates(text: string, filters: SearchFilters, minSimilarity: number, limit = 5): Promise<SearchHit[]> {
    const [query] = text.trim() === '' ? [] : await this.embed([text], 'query')
    if (query === undefined) return []
    const { scored, heads } = await this.nearest(query, filters, limit)
    const near = scored.filter((candidate) => candidate.score >= minSimilarity)
    return near.flatMap((candidate) => {
      const head = heads.get(candidate.rowid)
      return head === undefined ? [] : [{ ...head, score: candidate.score, confidence: candidate.score, scores: { vector: candidate.score } }]
    })
  }

  private candidates(queryVector: Float32Array | undefined): CandidateSource {
    // The vector candidates' heads come with them: fusion reads no row a second time.
    const known = new Map<number, DocumentHead>()
    return {
      text: (text, filters, limit) => this.textEvidence(text, filters, limit),
      vector: async (text, filters, limit) => {
        const [query] = queryVector !== undefined ? [queryVector] : text.trim() === '' ? [] : await this.embed([text], 'query')
        if (query === undefined || this.embedder === undefined) return []
        const nearest = await this.nearest(query, filters, limit)
        for (const { rowid } of nearest.scored) {
          const head = nearest.heads.get(rowid)
          if (head !== undefined) known.set(rowid, head)
        }
        const calibrate = calibrationFrom(query, await this.calibrationSample())
        return nearest.scored.map(({ rowid, score }) => ({ rowid, score: calibrate(score) }))
      },
      heads: async (rows) => {
        const unknown = rows.filter((row) => !known.has(row.rowid))
        return unknown.length === 0 ? known : new Map([...known, ...(await this.heads(unknown))])
      },
    }
  }

  /**
   * The same evidence as the SQLite index's, in two statements: how many documents hold each query
   * group, then the candidates with their heads, ranked by the BM25 of all the phrases, each with
   * the BM25 of the query's own words and the groups it holds.
   */
  private async textEvidence(text: string, filters: SearchFilters | undefined, limit: number): Promise<TextEvidence[]> {
    const groups = queryGroups(text)
    if (groups.length === 0) return []
    const { phrases, ownWords } = queryPhrases(groups)
    const scope = this.place.scope
    // One list per group and kind (full, partial): the lists hold the phrases, and the candidates say which lists they hold.
    const lists = groups.flatMap((group) => [group.full, group.partial])
    const listOf = lists.flatMap((list, position) => list.map(() => position))
    const listPhrases = lists.flat().map(asWords)
    // The scope's size and mean length as this replica holds them (read before the transaction, which
    // holds a connection): scanning every row per search cost 29 ms at 10,000 documents.
    const corpus = await this.vectors.corpus(this.place)
    return this.place.run(async (client) => {
      const counted = await client.query<{ g: number; holders: number }>(groupHolders, [scope, listOf.map((list) => Math.floor(list / 2)), listPhrases])
      const holders = new Map(counted.rows.map((row) => [row.g, row.holders]))
      const params: unknown[] = [scope, listOf, listPhrases, asWords(phrases.join(' ')), asWords(ownWords.join(' ')), corpus.docs, corpus.avglen]
      const where = filterCondition(filters, params)
      params.push(limit)
      const rows = await client.query<{ n: string; own: number; lists: number[]; id: string; layer: string; source: string | null; dedup_key: string }>(
        rankedCandidates(where, `$${params.length}`),
        params,
      )
      const candidates = rows.rows.map((row) => ({
        rowid: Number(row.n),
        head: { id: row.id, layer: row.layer, source: row.source ?? undefined, dedupKey: row.dedup_key },
      }))
      const holding = (list: number): Set<number> => new Set(rows.rows.filter((row) => row.lists.includes(list)).map((row) => Number(row.n)))
      const held = groups.map((_, position) => ({ full: holding(2 * position), partial: holding(2 * position + 1), holders: holders.get(position) ?? 0 }))
      const ownBm25 = new Map(rows.rows.map((row) => [Number(row.n), row.own]))
      return scoreTextEvidence(groups, held, corpus.docs, candidates, ownBm25)
    })
  }

  /**
   * The exact ranking by cosine of the held vectors the filters allow, equal scores in storage
   * order, with the heads of the rows kept. The held vectors are ranked first and the filters
   * asked of the nearest few only, in one statement; when the filters refuse too many of those,
   * of every document they allow.
   */
  private async nearest(
    query: Float32Array,
    filters: SearchFilters | undefined,
    limit: number,
  ): Promise<{ scored: Scored[]; heads: Map<number, DocumentHead> }> {
    const held = await this.vectors.of(this.place)
    if (held.rows.length === 0) return { scored: [], heads: new Map() }
    const rows = held.rows.map((row) => ({ rowid: row.n, vector: row.vector, norm: row.norm }))
    const k = Math.min(rows.length, limit * 4)
    const nearest = nearestByCosine(rows, query, k)
    const allowedAmong = async (among: readonly number[] | undefined): Promise<Map<number, DocumentHead>> => {
      const params: unknown[] = [this.place.scope]
      if (among !== undefined) params.push([...among])
      const only = among === undefined ? 'd.embedding IS NOT NULL' : 'd.n = ANY($2::bigint[])'
      const where = filterCondition(filters, params)
      const found = await this.place.run((client) =>
        client.query<{ n: string; id: string; layer: string; source: string | null; dedup_key: string }>(
          named(`SELECT d.n, d.id, d.layer, d.source, d.dedup_key FROM mk_documents d WHERE d.scope = $1 AND ${only} AND ${where}`),
          params,
        ),
      )
      return new Map(found.rows.map((row) => [Number(row.n), { id: row.id, layer: row.layer, source: row.source ?? undefined, dedupKey: row.dedup_key }]))
    }
    const heads = await allowedAmong(nearest.map((row) => row.rowid))
    const kept = nearest.filter((row) => heads.has(row.rowid))
    if (kept.length >= limit || k === rows.length) return { scored: kept.slice(0, limit), heads }
    const allowed = await allowedAmong(undefined)
    return {
      scored: nearestByCosine(
        rows.filter((row) => allowed.has(row.rowid)),
        query,
        limit,
      ),
      heads: allowed,
    }
  }

  /** The scope's first vectors in storage order, with the background sentences when there are few (as vectorCalibration samples). */
  private async calibrationSample(): Promise<Float32Array[]> {
    const sample = (await this.vectors.of(this.place)).rows.slice(0, backgroundSize).map((row) => row.vector)
    if (sample.length >= smallStore || this.embedder === undefined) return sample
    const model = this.embedder.modelId
    let background = backgroundByModel.get(model)
    if (background === undefined) {
      background = this.embed([...backgroundSentences], 'document')
      backgroundByModel.set(model, background)
      background.catch(() => backgroundByModel.delete(model))
    }
    return [...sample, ...(await background)]
  }

  private async heads(rows: readonly { rowid: number }[]): Promise<Map<number, DocumentHead>> {
    return this.place.run(async (client) => {
      const found = await client.query<{ n: string; id: string; layer: string; source: string | null; dedup_key: string }>(
        'SELECT n, id, layer, source, dedup_key FROM mk_documents WHERE scope = $1 AND n = ANY($2::bigint[])',
        [this.place.scope, rows.map((row) => row.rowid)],
      )
      return new Map(found.rows.map((row) => [Number(row.n), { id: row.id, layer: row.layer, source: row.source ?? undefined, dedupKey: row.dedup_key }]))
    })
  }

  async getMany(ids: readonly string[]): Promise<StoredDocument[]> {
    const rows = await this.place.run((client) =>
      client.query<DocumentRow>(`SELECT ${documentColumns} FROM mk_documents d WHERE d.scope = $1 AND d.id = ANY($2::text[])`, [this.place.scope, [...ids]]),
    )
    const byId = new Map(rows.rows.map((row) => [row.id, fromRow(row)]))
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

  async pendingCount(): Promise<number> {
    if (this.embedder === undefined) return 0
    const rows = await this.place.run((client) =>
      client.query<{ count: string }>('SELECT count(*) FROM mk_documents WHERE scope = $1 AND embedding IS NULL', [this.place.scope]),
    )
    return Number(rows.rows[0]?.count ?? 0)
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
        await client.query(`SELECT pg_notify('mk_documents', current_setting('mk.tenant', true) || '/' || $1)`, [this.place.scope])
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
