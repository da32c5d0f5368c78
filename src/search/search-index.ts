import type Database from 'better-sqlite3'
import { rmSync } from 'node:fs'
import { explainCorruption } from './corruption.js'
import {
  findSameContent,
  getDocuments,
  idsOfSource,
  statusesOfSource,
  listDocuments,
  removeDocuments,
  searchableText,
  setStatuses,
  upsertDocuments,
  type ListOptions,
  type StoredDocument,
} from './documents.js'
import type { DocumentRestriction } from './restriction.js'
import type { EmbeddingProvider } from './embedding/provider.js'
import { recordedSignatures, recordSignatures, type FileSignature } from './file-signature.js'
import { indexStats } from './index-stats.js'
import { readState, tableExists, writeState } from './meta.js'
import { integrityProblem } from './integrity.js'
import { closeWhole, openDatabase, rebuildPathOf, removeAbandonedRebuilds, swapInDatabase } from './open-database.js'
import { nearDuplicates, rank } from './ranking.js'
import { maintainPartitions, nearestVectors, type Nearest } from './vector-partitions.js'
import type { IndexDocument, IndexStats, SearchFilters, SearchHit, SearchMode, SearchRequest } from './types.js'
import { contentHash } from './normalise.js'
import {
  documentVectors,
  embeddedText,
  embedPending,
  pendingCount,
  prepareVectorTable,
  storeVectors,
  vectorsOf,
  type DocumentVectors,
  type Embed,
} from './vector-store.js'

export interface OpenIndexOptions {
  /** Needed for vector and hybrid search and for embedPending; without it the index is full text only. */
  embedder?: EmbeddingProvider | undefined
}

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

  /**
   * Insert or replace documents in one transaction, with the vectors of some of them (see
   * embedDocuments): no reader ever sees those without one. Never embeds: the other changed
   * documents wait for embedPending.
   */
  upsert(docs: readonly IndexDocument[], vectors?: DocumentVectors): void {
    this.guard(() => {
      if (vectors === undefined || vectors.size === 0 || !this.vectorTableReady) return upsertDocuments(this.db, docs, this.hasVectorTable)
      const stored = this.db
        .transaction(() => {
          upsertDocuments(this.db, docs, this.hasVectorTable)
          return storeVectors(this.db, vectors)
        })
        .immediate()
      if (stored > 0) maintainPartitions(this.db)
    })
  }

  /** The vectors of these documents' texts by id, as embedPending would store them, for upsert; undefined without a model. */
  async embedDocuments(docs: readonly IndexDocument[]): Promise<DocumentVectors | undefined> {
    const embed = this.embed
    if (embed === undefined || !this.vectorTableReady || docs.length === 0) return undefined
    const vectors = await embed(docs.map(embeddedText), 'document')
    return new Map(
      docs.flatMap((doc, position) => {
        const vector = vectors[position]
        return vector === undefined ? [] : [[doc.id, { contentHash: contentHash(searchableText(doc)), vector }] as const]
      }),
    )
  }

  /**
   * Build a new index from nothing with `fill`, in a file of its own, and swap it in whole when
   * it is done. Whatever state the old file is in (corrupt pages, a broken vector table), the
   * rebuild never reads it; until the swap, searches keep using it, and a rebuild killed
   * half-way leaves it as it was.
   */
  async rebuildFrom(fill: (fresh: SearchIndex) => Promise<void>): Promise<void> {
    removeAbandonedRebuilds(this.path)
    const newPath = rebuildPathOf(this.path)
    const fresh = new SearchIndex(newPath, { embedder: this.embedder })
    try {
      await fill(fresh)
      closeWhole(fresh.db)
    } catch (error) {
      fresh.close()
      for (const file of [newPath, `${newPath}-wal`, `${newPath}-shm`, `${newPath}-journal`]) rmSync(file, { force: true })
      throw error
    }
    this.close()
    swapInDatabase(newPath, this.path)
    this.db = openDatabase(this.path).db
    this.attachVectors()
  }

  /** Why the index file is damaged (SQLite's page checks, a probe of the vector table), or undefined. */
  integrityProblem(): string | undefined {
    return integrityProblem(this.db)
  }

  /** Remove documents by id; unknown ids are ignored. Returns how many were removed. */
  remove(ids: readonly string[]): number {
    return this.guard(() => removeDocuments(this.db, ids, this.hasVectorTable))
  }

  getMany(ids: readonly string[]): StoredDocument[] {
    return this.guard(() => getDocuments(this.db, ids))
  }

  /** Documents matching the filters, newest first. */
  list(filters: SearchFilters & ListOptions = {}): StoredDocument[] {
    return this.guard(() => listDocuments(this.db, filters))
  }

  /** Ids of the documents that came from one source (a memory folder or knowledge source). */
  idsOfSource(kind: IndexDocument['kind'], source: string): Set<string> {
    return this.guard(() => idsOfSource(this.db, kind, source))
  }

  statusesOfSource(kind: IndexDocument['kind'], source: string): Map<string, string> {
    return this.guard(() => statusesOfSource(this.db, kind, source))
  }

  /** A document of one of these sources whose normalised content equals this content. */
  /** `restriction` is the owners a memory is private to (its index meta), undefined for one everyone sees. */
  findSameContent(content: string, sources: readonly string[], restriction: DocumentRestriction | undefined): StoredDocument | undefined {
    return this.guard(() => findSameContent(this.db, content, sources, restriction === undefined ? undefined : JSON.stringify(restriction)))
  }

  /** The stat signatures of a memory folder's files as they were when last read (src/search/file-signature.ts). */
  fileSignatures(source: string): Map<string, FileSignature> {
    return this.guard(() => recordedSignatures(this.db, source))
  }

  /** Keep these files' signatures; an undefined one is forgotten, so the file is read again next time. */
  recordFileSignatures(source: string, entries: Iterable<[string, FileSignature | undefined]>): void {
    this.guard(() => recordSignatures(this.db, source, entries))
  }

  /** Small bookkeeping values of the callers (freshness signatures), stored in the same database. */
  state(key: string): string | undefined {
    return this.guard(() => readState(this.db, key))
  }

  setState(key: string, value: string | undefined): void {
    this.guard(() => writeState(this.db, key, value))
  }

  get canSearchVectors(): boolean {
    return this.embedder !== undefined && this.vectorTableReady
  }

  /** The mode a request really runs in: without an embedder every search is full text. */
  effectiveMode(mode: SearchMode): SearchMode {
    return this.canSearchVectors ? mode : 'fulltext'
  }

  pendingCount(): number {
    return this.guard(() => pendingCount(this.db))
  }

  /** Embed every document that has no vector yet. Returns how many were embedded. */
  async embedPending(onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<number> {
    const embed = this.embed
    if (embed === undefined || !this.vectorTableReady) return 0
    return this.guardAsync(() => embedPending(this.db, embed, onProgress, signal))
  }

  /** The model the vectors are in, when this index searches them. */
  get embeddingModel(): { modelId: string; dimensions: number } | undefined {
    return this.embedder === undefined || !this.vectorTableReady ? undefined : { modelId: this.embedder.modelId, dimensions: this.embedder.dimensions }
  }

  /**
   * Starts embedding a question a search is about to ask, so that the embedding thread works on
   * it while this thread brings the index up to date; the search then waits for the same vector
   * (withQueryCache keeps it). A hint: errors are the search's to report. Only once the model is
   * warm: a one-shot command embeds on its own thread, where starting early gains nothing and
   * measured slower (the model's load moved ahead of the refresh).
   */
  expectQuery(text: string): void {
    if (this.embed === undefined || !this.vectorTableReady || !this.embedderWarm || text.trim() === '') return
    this.embed([text], 'query').catch(() => undefined)
  }

  async search(request: SearchRequest): Promise<SearchHit[]> {
    const { queryVector } = request
    const embed = this.embed
    // A caller's vector stands for the query; documents (the calibration's background) are still embedded by the model.
    const searchEmbed: Embed | undefined =
      queryVector === undefined || embed === undefined
        ? embed
        : (texts, kind) => (kind === 'query' ? Promise.resolve(texts.map(() => queryVector)) : embed(texts, kind))
    return this.guardAsync(() => rank(this.db, searchEmbed, { ...request, mode: this.effectiveMode(request.mode) }))
  }

  /** SQLite's "database disk image is malformed", met in use, becomes an error that says to rebuild the index. */
  private guard<T>(work: () => T): T {
    try {
      return work()
    } catch (error) {
      throw explainCorruption(error, this.path)
    }
  }

  private async guardAsync<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      throw explainCorruption(error, this.path)
    }
  }

  /**
   * Documents whose vectors are within `minSimilarity` (cosine) of this text's, most similar
   * first. Embeds the text, unless the caller has its vector (`textVector`).
   */
  async nearDuplicates(text: string, filters: SearchFilters, minSimilarity: number, limit = 5, textVector?: Float32Array): Promise<SearchHit[]> {
    const embed = this.embed
    const withVector: Embed | undefined =
      textVector === undefined || embed === undefined
        ? embed
        : (texts, kind) => (kind === 'query' ? Promise.resolve(texts.map(() => textVector)) : embed(texts, kind))
    return this.guardAsync(() => nearDuplicates(this.db, withVector, text, filters, minSimilarity, limit))
  }

  /** The stored vectors nearest to a query vector: through the partitions once trained, or by an exact scan (to measure their recall). */
  nearestVectors(query: Float32Array, k: number, how: 'indexed' | 'exact' = 'indexed'): Nearest[] {
    return this.guard(() => nearestVectors(this.db, query, k, how))
  }

  setStatuses(updates: readonly { id: string; status: string }[]): void {
    this.guard(() => setStatuses(this.db, updates))
  }

  vectorsOf(ids: readonly string[]): { id: string; vector: Float32Array }[] {
    return this.guard(() => vectorsOf(this.db, ids))
  }

  documentVectors(filters: SearchFilters): { id: string; vector: Float32Array }[] {
    return this.guard(() => documentVectors(this.db, filters))
  }

  stats(): IndexStats {
    return this.guard(() => indexStats(this.db, this.path))
  }

  close(): void {
    if (this.db.open) this.db.close()
  }
}

/** Open (or create) the index at `path`. A corrupt, truncated or foreign file is recreated empty, with a notice in `notices`. */
export function openIndex(path: string, options: OpenIndexOptions = {}): SearchIndex {
  return new SearchIndex(path, options)
}
