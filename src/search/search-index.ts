import { statSync } from 'node:fs'
import type Database from 'better-sqlite3'
import { explainCorruption, isCorruptionError } from './corruption.js'
import type { EmbeddingProvider } from './embedding/provider.js'
import { filterClause, hasNarrowingFilter } from './filters.js'
import { fuse, type Scored } from './fusion.js'
import { readMeta, readState, tableExists, writeMeta, writeState } from './meta.js'
import { contentHash, dedupKey } from './normalise.js'
import { openDatabase, recreateDatabase } from './open-database.js'
import { ftsQuery } from './query-text.js'
import { createVectorTable, schemaVersion } from './schema.js'
import type { IndexDocument, IndexStats, SearchFilters, SearchHit, SearchMode, SearchRequest } from './types.js'

export interface OpenIndexOptions {
  /** Needed for vector and hybrid search and for embedPending; without it the index is full text only. */
  embedder?: EmbeddingProvider | undefined
}

export type StoredDocument = IndexDocument

interface DocRow {
  rowid: number
  id: string
  kind: 'memory' | 'knowledge'
  layer: string
  source: string | null
  path: string | null
  type: string | null
  status: string | null
  title: string | null
  content: string
  tags: string
  updated_at: number
  expires_at: number | null
  embedded: number
}

/** Text the encoders see: long documents are cut, as sentence encoders read only their first few hundred tokens anyway. */
const maxEmbeddedChars = 4000
const embedBatchSize = 32
/** How many candidates each list contributes to fusion, at least. */
const minCandidates = 100
/** sqlite-vec's upper bound on k. */
const maxKnn = 4096

function searchableText(doc: Pick<IndexDocument, 'title' | 'content' | 'tags'>): string {
  return [doc.title ?? '', doc.content, doc.tags.join(' ')].filter((part) => part !== '').join('\n')
}

function fromRow(row: DocRow): StoredDocument {
  return {
    id: row.id,
    kind: row.kind,
    layer: row.layer,
    title: row.title ?? undefined,
    content: row.content,
    tags: JSON.parse(row.tags) as string[],
    source: row.source ?? undefined,
    path: row.path ?? undefined,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at ?? undefined,
    type: row.type ?? undefined,
    status: row.status ?? undefined,
  }
}

/** The one search index of a workspace: memories and knowledge, full text (FTS5 BM25) and vectors (sqlite-vec). */
export class SearchIndex {
  /** Notices for the user: why the index was rebuilt, that the model changed. */
  readonly notices: string[] = []
  private db: Database.Database
  private readonly embedder: EmbeddingProvider | undefined
  private vectorTableReady = false
  /** Vectors of a previous model may exist even when this process has no embedder; removals must clear them too. */
  private hasVectorTable: boolean
  /** True once this process has embedded something: the model is loaded and more embedding is cheap. */
  embedderWarm = false

  constructor(
    readonly path: string,
    options: OpenIndexOptions,
  ) {
    const opened = openDatabase(path)
    this.db = opened.db
    this.embedder = options.embedder
    if (opened.rebuiltBecause !== undefined) {
      this.notices.push(`the search index ${path} was ${opened.rebuiltBecause}; it was recreated and is rebuilt from the files`)
    }
    if (this.embedder !== undefined) this.prepareVectors(this.embedder)
    this.hasVectorTable = tableExists(this.db, 'vectors')
  }

  /** Record the model; a different model than the one that built the vectors means dropping them and embedding again. */
  private prepareVectors(embedder: EmbeddingProvider): void {
    const recorded = readMeta(this.db, 'model_id')
    const recordedDimensions = readMeta(this.db, 'dimensions')
    if (recorded === embedder.modelId && recordedDimensions === String(embedder.dimensions) && tableExists(this.db, 'vectors')) {
      this.vectorTableReady = true
      return
    }
    this.db
      .transaction(() => {
        // Another process may have done this while we waited for the write lock.
        if (readMeta(this.db, 'model_id') === embedder.modelId && tableExists(this.db, 'vectors')) return
        const documents = this.count()
        if (recorded !== undefined && documents > 0) {
          this.notices.push(`the embedding model changed from ${recorded} to ${embedder.modelId}: re-embedding ${documents} documents`)
        }
        this.db.exec('DROP TABLE IF EXISTS vectors')
        this.db.exec(createVectorTable(embedder.dimensions))
        this.db.prepare('UPDATE docs SET embedded = 0').run()
        writeMeta(this.db, 'model_id', embedder.modelId)
        writeMeta(this.db, 'dimensions', String(embedder.dimensions))
      })
      .immediate()
    this.vectorTableReady = true
  }

  private count(): number {
    return this.db.prepare('SELECT count(*) FROM docs').pluck().get() as number
  }

  /** Insert or replace documents in one transaction. Never embeds: changed documents wait for embedPending. */
  upsert(docs: readonly IndexDocument[]): void {
    this.guard(() => this.upsertAll(docs))
  }

  private upsertAll(docs: readonly IndexDocument[]): void {
    const find = this.db.prepare('SELECT rowid, content_hash FROM docs WHERE id = ?')
    const insert = this.db.prepare(
      `INSERT INTO docs (id, kind, layer, source, path, type, status, title, content, tags, content_hash, dedup_key, updated_at, expires_at, embedded)
       VALUES (@id, @kind, @layer, @source, @path, @type, @status, @title, @content, @tags, @contentHash, @dedupKey, @updatedAt, @expiresAt, 0)`,
    )
    const update = this.db.prepare(
      `UPDATE docs SET kind = @kind, layer = @layer, source = @source, path = @path, type = @type, status = @status, title = @title,
       content = @content, tags = @tags, content_hash = @contentHash, dedup_key = @dedupKey, updated_at = @updatedAt, expires_at = @expiresAt,
       embedded = CASE WHEN content_hash = @contentHash THEN embedded ELSE 0 END
       WHERE rowid = @rowid`,
    )
    const deleteText = this.db.prepare('DELETE FROM docs_fts WHERE rowid = ?')
    const insertText = this.db.prepare('INSERT INTO docs_fts (rowid, text) VALUES (?, ?)')
    const deleteTags = this.db.prepare('DELETE FROM doc_tags WHERE doc = ?')
    const insertTag = this.db.prepare('INSERT OR IGNORE INTO doc_tags (tag, doc) VALUES (?, ?)')
    const deleteVector = this.hasVectorTable ? this.db.prepare('DELETE FROM vectors WHERE rowid = ?') : undefined
    this.db
      .transaction(() => {
        for (const doc of docs) {
          const text = searchableText(doc)
          const values = {
            id: doc.id,
            kind: doc.kind,
            layer: doc.layer,
            source: doc.source ?? null,
            path: doc.path ?? null,
            type: doc.type ?? null,
            status: doc.status ?? null,
            title: doc.title ?? null,
            content: doc.content,
            tags: JSON.stringify(doc.tags),
            contentHash: contentHash(text),
            dedupKey: dedupKey(doc.content),
            updatedAt: doc.updatedAt,
            expiresAt: doc.expiresAt ?? null,
          }
          const existing = find.get(doc.id) as { rowid: number; content_hash: string } | undefined
          let rowid: number
          if (existing === undefined) {
            rowid = Number(insert.run(values).lastInsertRowid)
          } else {
            rowid = existing.rowid
            update.run({ ...values, rowid })
            deleteText.run(rowid)
            deleteTags.run(rowid)
            if (existing.content_hash !== values.contentHash) deleteVector?.run(BigInt(rowid))
          }
          insertText.run(rowid, text)
          for (const tag of doc.tags) insertTag.run(tag, rowid)
        }
      })
      .immediate()
  }

  /**
   * Empty every table but the metadata, so the next refresh reads all files again. A database
   * too damaged to empty (a corrupt page the cheap open check cannot see) is recreated instead.
   */
  clear(): void {
    try {
      this.db
        .transaction(() => {
          for (const table of ['docs', 'docs_fts', 'doc_tags', 'sync_state']) this.db.exec(`DELETE FROM ${table}`)
          if (this.hasVectorTable) this.db.exec('DELETE FROM vectors')
        })
        .immediate()
    } catch (error) {
      if (!isCorruptionError(error)) throw error
      this.db.close()
      this.db = recreateDatabase(this.path)
      this.notices.push(`the search index ${this.path} was corrupt (${(error as Error).message}); it was recreated`)
      this.vectorTableReady = false
      if (this.embedder !== undefined) this.prepareVectors(this.embedder)
      this.hasVectorTable = tableExists(this.db, 'vectors')
    }
  }

  /** Remove documents by id; unknown ids are ignored. Returns how many were removed. */
  remove(ids: readonly string[]): number {
    const find = this.db.prepare('SELECT rowid FROM docs WHERE id = ?').pluck()
    const deleteVector = this.hasVectorTable ? this.db.prepare('DELETE FROM vectors WHERE rowid = ?') : undefined
    const statements = ['DELETE FROM docs_fts WHERE rowid = ?', 'DELETE FROM doc_tags WHERE doc = ?', 'DELETE FROM docs WHERE rowid = ?'].map((sql) =>
      this.db.prepare(sql),
    )
    return this.db
      .transaction(() => {
        let removed = 0
        for (const id of ids) {
          const rowid = find.get(id) as number | undefined
          if (rowid === undefined) continue
          for (const statement of statements) statement.run(rowid)
          deleteVector?.run(BigInt(rowid))
          removed++
        }
        return removed
      })
      .immediate()
  }

  getMany(ids: readonly string[]): StoredDocument[] {
    const byId = new Map<string, StoredDocument>()
    const statement = this.db.prepare('SELECT * FROM docs WHERE id = ?')
    for (const id of ids) {
      const row = statement.get(id) as DocRow | undefined
      if (row !== undefined) byId.set(id, fromRow(row))
    }
    return ids.flatMap((id) => byId.get(id) ?? [])
  }

  /** Documents matching the filters, newest first. */
  list(filters: SearchFilters & { limit?: number } = {}): StoredDocument[] {
    const where = filterClause(filters)
    const rows = this.db
      .prepare(`SELECT * FROM docs d WHERE ${where.sql} ORDER BY d.updated_at DESC, d.id DESC LIMIT ?`)
      .all(...where.params, filters.limit ?? -1) as DocRow[]
    return rows.map(fromRow)
  }

  /** Ids of the documents that came from one source (a memory folder or knowledge source). */
  idsOfSource(source: string): Set<string> {
    return new Set(this.db.prepare('SELECT id FROM docs WHERE source = ?').pluck().all(source) as string[])
  }

  /** A document of one of these sources whose normalised content equals this content. */
  findSameContent(content: string, sources: readonly string[]): StoredDocument | undefined {
    const rows = this.db.prepare('SELECT * FROM docs WHERE dedup_key = ?').all(dedupKey(content)) as DocRow[]
    const row = rows.find((candidate) => candidate.source !== null && sources.includes(candidate.source))
    return row === undefined ? undefined : fromRow(row)
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
    return this.db.prepare('SELECT count(*) FROM docs WHERE embedded = 0').pluck().get() as number
  }

  /** Embed every document that has no vector yet. Returns how many were embedded. */
  async embedPending(onProgress?: (done: number, total: number) => void): Promise<number> {
    const embedder = this.embedder
    if (embedder === undefined || !this.vectorTableReady) return 0
    const total = this.pendingCount()
    const next = this.db.prepare('SELECT rowid, id, title, content, tags, content_hash FROM docs WHERE embedded = 0 AND rowid > ? ORDER BY rowid LIMIT ?')
    const markEmbedded = this.db.prepare('UPDATE docs SET embedded = 1 WHERE rowid = ? AND content_hash = ?')
    const deleteVector = this.db.prepare('DELETE FROM vectors WHERE rowid = ?')
    const insertVector = this.db.prepare('INSERT INTO vectors (rowid, embedding) VALUES (?, ?)')
    let done = 0
    let after = 0
    for (;;) {
      const batch = next.all(after, embedBatchSize) as (Pick<DocRow, 'rowid' | 'id' | 'title' | 'content' | 'tags'> & { content_hash: string })[]
      if (batch.length === 0) break
      after = batch[batch.length - 1]?.rowid ?? after
      const texts = batch.map((row) =>
        searchableText({ title: row.title ?? undefined, content: row.content, tags: JSON.parse(row.tags) as string[] }).slice(0, maxEmbeddedChars),
      )
      const vectors = await embedder.embed(texts, 'document')
      this.embedderWarm = true
      this.db
        .transaction(() => {
          batch.forEach((row, index) => {
            const vector = vectors[index]
            if (vector === undefined) return
            // A document changed since it was read keeps waiting for its new text to be embedded.
            if (markEmbedded.run(row.rowid, row.content_hash).changes === 0) return
            deleteVector.run(BigInt(row.rowid))
            insertVector.run(BigInt(row.rowid), vector)
          })
        })
        .immediate()
      done += batch.length
      onProgress?.(done, total)
    }
    return done
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
    const embedder = this.embedder
    if (embedder === undefined || text.trim() === '') return []
    const [query] = await embedder.embed([text], 'query')
    this.embedderWarm = true
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
      pending: this.pendingCount(),
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
