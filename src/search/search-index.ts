import { statSync } from 'node:fs'
import type Database from 'better-sqlite3'
import { explainCorruption, isCorruptionError } from './corruption.js'
import {
  emptyTables,
  findSameContent,
  getDocuments,
  idsOfSource,
  listDocuments,
  removeDocuments,
  upsertDocuments,
  type StoredDocument,
} from './documents.js'
import type { EmbeddingProvider } from './embedding/provider.js'
import { filterClause, hasNarrowingFilter } from './filters.js'
import { fuse, type Scored } from './fusion.js'
import { readMeta, readState, tableExists, writeState } from './meta.js'
import { openDatabase, recreateDatabase } from './open-database.js'
import { ftsQuery } from './query-text.js'
import { schemaVersion } from './schema.js'
import { embedPending, pendingCount, prepareVectorTable, type Embed } from './vector-store.js'
import type { IndexDocument, IndexStats, SearchFilters, SearchHit, SearchMode, SearchRequest } from './types.js'

export interface OpenIndexOptions {
  /** Needed for vector and hybrid search and for embedPending; without it the index is full text only. */
  embedder?: EmbeddingProvider | undefined
}

/** How many candidates each list contributes to fusion, at least. */
const minCandidates = 100
/** sqlite-vec's upper bound on k. */
const maxKnn = 4096

/** The one search index of a workspace: memories and knowledge, full text (FTS5 BM25) and vectors (sqlite-vec). */
export class SearchIndex {
  /** Notices for the user: why the index was rebuilt, that the model changed. */
  readonly notices: string[] = []
  private db: Database.Database
  private readonly embedder: EmbeddingProvider | undefined
  /** The embedder's embed, marking the model warm once it has answered. */
  private readonly embed: Embed | undefined
  private vectorTableReady = false
  /** Vectors of a previous model may exist even when this process has no embedder; removals must clear them too. */
  private hasVectorTable = false
  /** True once this process has embedded something: the model is loaded and more embedding is cheap. */
  embedderWarm = false

  constructor(
    readonly path: string,
    options: OpenIndexOptions,
  ) {
    const opened = openDatabase(path)
    this.db = opened.db
    const embedder = options.embedder
    this.embedder = embedder
    this.embed =
      embedder === undefined
        ? undefined
        : async (texts, kind) => {
            const vectors = await embedder.embed(texts, kind)
            this.embedderWarm = true
            return vectors
          }
    if (opened.rebuiltBecause !== undefined) {
      this.notices.push(`the search index ${path} was ${opened.rebuiltBecause}; it was recreated and is rebuilt from the files`)
    }
    this.attachVectors()
  }

  /** Make the vector table fit the embedder, and note whether one exists at all. */
  private attachVectors(): void {
    this.vectorTableReady = false
    if (this.embedder !== undefined) {
      const notice = prepareVectorTable(this.db, this.embedder)
      if (notice !== undefined) this.notices.push(notice)
      this.vectorTableReady = true
    }
    this.hasVectorTable = tableExists(this.db, 'vectors')
  }

  /** Insert or replace documents in one transaction. Never embeds: changed documents wait for embedPending. */
  upsert(docs: readonly IndexDocument[]): void {
    this.guard(() => upsertDocuments(this.db, docs, this.hasVectorTable))
  }

  /**
   * Empty every table but the metadata, so the next refresh reads all files again. A database
   * too damaged to empty (a corrupt page the cheap open check cannot see) is recreated instead.
   */
  clear(): void {
    try {
      emptyTables(this.db, this.hasVectorTable)
    } catch (error) {
      if (!isCorruptionError(error)) throw error
      this.db.close()
      this.db = recreateDatabase(this.path)
      this.notices.push(`the search index ${this.path} was corrupt (${(error as Error).message}); it was recreated`)
      this.attachVectors()
    }
  }

  /** Remove documents by id; unknown ids are ignored. Returns how many were removed. */
  remove(ids: readonly string[]): number {
    return removeDocuments(this.db, ids, this.hasVectorTable)
  }

  getMany(ids: readonly string[]): StoredDocument[] {
    return getDocuments(this.db, ids)
  }

  /** Documents matching the filters, newest first. */
  list(filters: SearchFilters & { limit?: number } = {}): StoredDocument[] {
    return listDocuments(this.db, filters)
  }

  /** Ids of the documents that came from one source (a memory folder or knowledge source). */
  idsOfSource(source: string): Set<string> {
    return idsOfSource(this.db, source)
  }

  /** A document of one of these sources whose normalised content equals this content. */
  findSameContent(content: string, sources: readonly string[]): StoredDocument | undefined {
    return findSameContent(this.db, content, sources)
  }

  /** Small bookkeeping values of the callers (freshness signatures), stored in the same database. */
  state(key: string): string | undefined {
    return readState(this.db, key)
  }

  setState(key: string, value: string | undefined): void {
    writeState(this.db, key, value)
  }

  get canSearchVectors(): boolean {
    return this.embedder !== undefined && this.vectorTableReady
  }

  /** The mode a request really runs in: without an embedder every search is full text. */
  effectiveMode(mode: SearchMode): SearchMode {
    return this.canSearchVectors ? mode : 'fulltext'
  }

  pendingCount(): number {
    return pendingCount(this.db)
  }

  /** Embed every document that has no vector yet. Returns how many were embedded. */
  async embedPending(onProgress?: (done: number, total: number) => void): Promise<number> {
    if (this.embed === undefined || !this.vectorTableReady) return 0
    return embedPending(this.db, this.embed, onProgress)
  }

  async search(request: SearchRequest): Promise<SearchHit[]> {
    try {
      return await this.rank(request)
    } catch (error) {
      throw explainCorruption(error, this.path)
    }
  }

  private guard<T>(work: () => T): T {
    try {
      return work()
    } catch (error) {
      throw explainCorruption(error, this.path)
    }
  }

  private async rank(request: SearchRequest): Promise<SearchHit[]> {
    const mode = this.effectiveMode(request.mode)
    const candidates = Math.max(request.limit, minCandidates)
    const textList = mode === 'vector' ? [] : this.textCandidates(request.text, request.filters, candidates)
    const vectorList = mode === 'fulltext' ? [] : await this.vectorCandidates(request.text, request.filters, candidates)
    const textWeight = mode === 'fulltext' ? 1 : mode === 'vector' ? 0 : (request.textWeight ?? 0.7)
    const fused = fuse(textList, vectorList, textWeight).slice(0, request.limit)
    const idOf = this.db.prepare('SELECT id FROM docs WHERE rowid = ?').pluck()
    return fused.map((hit) => ({
      id: idOf.get(hit.rowid) as string,
      score: hit.score,
      scores: {
        ...(hit.text === undefined ? {} : { text: hit.text }),
        ...(hit.vector === undefined ? {} : { vector: hit.vector }),
      },
    }))
  }

  private textCandidates(text: string, filters: SearchFilters | undefined, limit: number): Scored[] {
    const match = ftsQuery(text)
    if (match === undefined) return []
    const where = filterClause(filters)
    const rows = this.db
      .prepare(
        `SELECT d.rowid AS rowid, -bm25(docs_fts) AS score FROM docs_fts JOIN docs d ON d.rowid = docs_fts.rowid
         WHERE docs_fts MATCH ? AND ${where.sql} ORDER BY bm25(docs_fts) LIMIT ?`,
      )
      .all(match, ...where.params, limit) as Scored[]
    return rows
  }

  private async vectorCandidates(text: string, filters: SearchFilters | undefined, limit: number): Promise<Scored[]> {
    const embed = this.embed
    if (embed === undefined || text.trim() === '') return []
    const [query] = await embed([text], 'query')
    if (query === undefined) return []
    const where = filterClause(filters)
    const k = Math.min(maxKnn, hasNarrowingFilter(filters) ? limit * 4 : limit)
    const nearest = this.db.prepare('SELECT rowid, distance FROM vectors WHERE embedding MATCH ? AND k = ?').all(query, k) as {
      rowid: number
      distance: number
    }[]
    const allowed = this.db.prepare(`SELECT 1 FROM docs d WHERE d.rowid = ? AND ${where.sql}`)
    const kept = nearest.filter((row) => allowed.get(row.rowid, ...where.params) !== undefined)
    if (kept.length >= limit || nearest.length < k) {
      return kept.slice(0, limit).map((row) => ({ rowid: row.rowid, score: 1 - row.distance }))
    }
    // The filters are narrow: rank exactly the documents they allow.
    const exact = this.db
      .prepare(
        `SELECT d.rowid AS rowid, 1 - vec_distance_cosine(v.embedding, ?) AS score FROM docs d JOIN vectors v ON v.rowid = d.rowid
         WHERE ${where.sql} ORDER BY score DESC LIMIT ?`,
      )
      .all(query, ...where.params, limit) as Scored[]
    return exact
  }

  /** Documents whose vectors are within `minSimilarity` (cosine) of this text's, most similar first. Embeds the text. */
  async nearDuplicates(text: string, filters: SearchFilters, minSimilarity: number, limit = 5): Promise<SearchHit[]> {
    const candidates = await this.vectorCandidates(text, filters, limit)
    const idOf = this.db.prepare('SELECT id FROM docs WHERE rowid = ?').pluck()
    return candidates
      .filter((candidate) => candidate.score >= minSimilarity)
      .map((candidate) => ({ id: idOf.get(candidate.rowid) as string, score: candidate.score, scores: { vector: candidate.score } }))
  }

  stats(): IndexStats {
    const counts = this.db.prepare("SELECT count(*) AS documents, sum(kind = 'memory') AS memories, sum(kind = 'knowledge') AS knowledge FROM docs").get() as {
      documents: number
      memories: number | null
      knowledge: number | null
    }
    const dimensions = readMeta(this.db, 'dimensions')
    let sizeBytes = 0
    for (const file of [this.path, `${this.path}-wal`]) {
      try {
        sizeBytes += statSync(file).size
      } catch {
        // No WAL file at the moment.
      }
    }
    return {
      documents: counts.documents,
      memories: counts.memories ?? 0,
      knowledge: counts.knowledge ?? 0,
      pending: pendingCount(this.db),
      modelId: readMeta(this.db, 'model_id'),
      dimensions: dimensions === undefined ? undefined : Number(dimensions),
      schemaVersion,
      sizeBytes,
    }
  }

  close(): void {
    if (this.db.open) this.db.close()
  }
}

/** Open (or create) the index at `path`. A corrupt, truncated or foreign file is recreated empty, with a notice in `notices`. */
export function openIndex(path: string, options: OpenIndexOptions = {}): SearchIndex {
  return new SearchIndex(path, options)
}
