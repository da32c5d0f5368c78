import type Database from 'better-sqlite3'
import { statement } from './statements.js'
import { documentCount, searchableText, type DocRow } from './documents.js'
import type { EmbeddingProvider } from './embedding/provider.js'
import { readMeta, tableExists, writeMeta } from './meta.js'
import { filterClause } from './filters.js'
import { createVectorTables } from './schema.js'
import { maintainPartitions, nearestList, readCentroids } from './vector-partitions.js'
import type { IndexDocument, SearchFilters } from './types.js'

export type Embed = EmbeddingProvider['embed']

/** Text the encoders see: long documents are cut, as sentence encoders read only their first few hundred tokens anyway. */
export const maxEmbeddedChars = 4000
/**
 * Documents read, embedded and committed together: large enough for the provider to group texts
 * of similar length and keep every worker busy, small enough that an interrupted run loses little.
 */
export const embedWindow = 128

/**
 * Record the model; a different model than the one that built the vectors means dropping them and embedding again.
 * Returns a notice for the user when documents have to be embedded again.
 */
export function prepareVectorTable(db: Database.Database, embedder: EmbeddingProvider): string | undefined {
  const recorded = readMeta(db, 'model_id')
  const recordedDimensions = readMeta(db, 'dimensions')
  if (recorded === embedder.modelId && recordedDimensions === String(embedder.dimensions) && tableExists(db, 'vectors')) return undefined
  return db
    .transaction(() => {
      // Another process may have done this while we waited for the write lock.
      if (readMeta(db, 'model_id') === embedder.modelId && tableExists(db, 'vectors')) return undefined
      const documents = documentCount(db)
      db.exec('DROP TABLE IF EXISTS vectors')
      db.exec('DROP TABLE IF EXISTS background_vectors')
      db.exec('DROP TABLE IF EXISTS vector_centroids')
      db.prepare("DELETE FROM meta WHERE key = 'partitions_trained_at'").run()
      db.exec(createVectorTables)
      db.prepare('UPDATE docs SET embedded = 0').run()
      writeMeta(db, 'model_id', embedder.modelId)
      writeMeta(db, 'dimensions', String(embedder.dimensions))
      if (recorded === undefined || documents === 0) return undefined
      return `the embedding model changed from ${recorded} to ${embedder.modelId}: re-embedding ${documents} documents`
    })
    .immediate()
}

export function pendingCount(db: Database.Database): number {
  return statement(db, 'SELECT count(*) FROM docs WHERE embedded = 0', 'pluck').get() as number
}

/** Writes a document's vector in place of any it had; vectors added after the partitions were trained go into the nearest list. */
function vectorWriter(db: Database.Database): (rowid: number, vector: Float32Array) => void {
  const deleteVector = db.prepare('DELETE FROM vectors WHERE rowid = ?')
  const insertVector = db.prepare('INSERT INTO vectors (rowid, embedding, list) VALUES (?, ?, ?)')
  const centroids = readCentroids(db)
  return (rowid, vector) => {
    deleteVector.run(rowid)
    const list = centroids.length === 0 ? null : nearestList(centroids, vector)
    insertVector.run(rowid, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength), list)
  }
}

/** The text of a document the model embeds (what embedPending sends it). */
export function embeddedText(doc: Pick<IndexDocument, 'title' | 'content' | 'tags'>): string {
  return searchableText(doc).slice(0, maxEmbeddedChars)
}

/** Vectors by document id, each with the content hash of the text it embeds (see SearchIndex.embedDocuments). */
export type DocumentVectors = ReadonlyMap<string, { contentHash: string; vector: Float32Array }>

/**
 * Stores the vectors of documents still waiting for one whose text is still the one embedded, in
 * the caller's transaction (see SearchIndex.upsert). Returns how many were stored; the caller maintains the partitions after.
 */
export function storeVectors(db: Database.Database, vectors: DocumentVectors): number {
  const markEmbedded = db.prepare('UPDATE docs SET embedded = 1 WHERE id = ? AND content_hash = ? AND embedded = 0 RETURNING rowid').pluck()
  const writeVector = vectorWriter(db)
  let stored = 0
  for (const [id, { contentHash, vector }] of vectors) {
    const rowid = markEmbedded.get(id, contentHash) as number | undefined
    if (rowid === undefined) continue
    writeVector(rowid, vector)
    stored++
  }
  return stored
}

type PendingRow = Pick<DocRow, 'rowid' | 'id' | 'title' | 'content' | 'tags'> & { content_hash: string }

interface EmbeddingWindow {
  rows: PendingRow[]
  /** Vectors by content hash: stored ones now, the model's once `vectors` settles. */
  known: Map<string, Float32Array>
  /** The content hashes of the texts sent to the model, in order. */
  hashes: string[]
  vectors: Promise<Float32Array[]>
}

/**
 * Embed the documents waiting for a vector, a window at a time; each window is committed, so
 * stopping (an aborted signal, a killed process) loses at most the two windows in flight. A text already
 * embedded for another document (a copy in another folder, a file moved) takes its vector
 * instead of going through the model.
 */
export async function embedPending(
  db: Database.Database,
  embed: Embed,
  onProgress?: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<number> {
  const total = pendingCount(db)
  const next = db.prepare('SELECT rowid, id, title, content, tags, content_hash FROM docs WHERE embedded = 0 AND rowid > ? ORDER BY rowid LIMIT ?')
  const sameText = db.prepare('SELECT v.embedding FROM docs d JOIN vectors v ON v.rowid = d.rowid WHERE d.content_hash = ? AND d.embedded = 1 LIMIT 1').pluck()
  const markEmbedded = db.prepare('UPDATE docs SET embedded = 1 WHERE rowid = ? AND content_hash = ?')
  const writeVector = vectorWriter(db)
  let after = 0
  /** The next window of pending documents, its new texts already handed to the model; undefined when none is left. */
  const startWindow = (): EmbeddingWindow | undefined => {
    const rows = next.all(after, embedWindow) as PendingRow[]
    if (rows.length === 0) return undefined
    after = rows[rows.length - 1]?.rowid ?? after
    const known = new Map<string, Float32Array>()
    for (const row of rows) {
      const stored = sameText.get(row.content_hash) as Buffer | undefined
      if (stored !== undefined) known.set(row.content_hash, new Float32Array(stored.buffer, stored.byteOffset, stored.byteLength / 4))
    }
    // Each distinct new text once.
    const toEmbed = new Map<string, string>()
    for (const row of rows) {
      if (known.has(row.content_hash) || toEmbed.has(row.content_hash)) continue
      toEmbed.set(row.content_hash, embeddedText({ title: row.title ?? undefined, content: row.content, tags: JSON.parse(row.tags) as string[] }))
    }
    const vectors = embed([...toEmbed.values()], 'document')
    // Awaited later, or dropped when an earlier window fails: never an unhandled rejection.
    vectors.catch(() => undefined)
    return { rows, known, hashes: [...toEmbed.keys()], vectors }
  }
  let done = 0
  signal?.throwIfAborted()
  let current = startWindow()
  while (current !== undefined) {
    // The next window is with the model while this one is written, so the model never waits for
    // the write, nor (on worker threads) for the slowest batch of a window.
    const following = signal?.aborted === true ? undefined : startWindow()
    const { rows, known, hashes } = current
    const vectors = await current.vectors
    hashes.forEach((hash, position) => {
      const vector = vectors[position]
      if (vector !== undefined) known.set(hash, vector)
    })
    db.transaction(() => {
      for (const row of rows) {
        const vector = known.get(row.content_hash)
        if (vector === undefined) continue
        // A document changed since it was read keeps waiting for its new text to be embedded.
        if (markEmbedded.run(row.rowid, row.content_hash).changes === 0) continue
        writeVector(row.rowid, vector)
      }
    }).immediate()
    done += rows.length
    onProgress?.(done, total)
    // Stopped between windows: what was embedded is kept.
    signal?.throwIfAborted()
    // Read again after the last write: another writer may have added documents while this window was with the model.
    current = following ?? startWindow()
  }
  if (done > 0) maintainPartitions(db)
  return done
}

/** The stored vector of every document matching the filters that has one, for comparing documents with each other (consolidation). */
export function documentVectors(db: Database.Database, filters: SearchFilters): { id: string; vector: Float32Array }[] {
  if (!tableExists(db, 'vectors')) return []
  const where = filterClause(filters)
  const rows = db
    .prepare(`SELECT d.id AS id, v.embedding AS embedding FROM docs d JOIN vectors v ON v.rowid = d.rowid WHERE ${where.sql}`)
    .all(...where.params) as {
    id: string
    embedding: Buffer
  }[]
  return rows.map((row) => ({ id: row.id, vector: new Float32Array(row.embedding.buffer, row.embedding.byteOffset, row.embedding.byteLength / 4) }))
}

/** The stored vectors of these documents (those that have one). */
export function vectorsOf(db: Database.Database, ids: readonly string[]): { id: string; vector: Float32Array }[] {
  if (ids.length === 0 || !tableExists(db, 'vectors')) return []
  const rows = db
    .prepare(`SELECT d.id AS id, v.embedding AS embedding FROM docs d JOIN vectors v ON v.rowid = d.rowid WHERE d.id IN (${ids.map(() => '?').join(', ')})`)
    .all(...ids) as { id: string; embedding: Buffer }[]
  return rows.map((row) => ({ id: row.id, vector: new Float32Array(row.embedding.buffer, row.embedding.byteOffset, row.embedding.byteLength / 4) }))
}
