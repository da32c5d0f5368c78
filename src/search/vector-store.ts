import type Database from 'better-sqlite3'
import { documentCount, searchableText, type DocRow } from './documents.js'
import type { EmbeddingProvider } from './embedding/provider.js'
import { readMeta, tableExists, writeMeta } from './meta.js'
import { filterClause } from './filters.js'
import { createVectorTable } from './schema.js'
import type { SearchFilters } from './types.js'

export type Embed = EmbeddingProvider['embed']

/** Text the encoders see: long documents are cut, as sentence encoders read only their first few hundred tokens anyway. */
const maxEmbeddedChars = 4000
const embedBatchSize = 32

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
      db.exec(createVectorTable(embedder.dimensions))
      db.prepare('UPDATE docs SET embedded = 0').run()
      writeMeta(db, 'model_id', embedder.modelId)
      writeMeta(db, 'dimensions', String(embedder.dimensions))
      if (recorded === undefined || documents === 0) return undefined
      return `the embedding model changed from ${recorded} to ${embedder.modelId}: re-embedding ${documents} documents`
    })
    .immediate()
}

export function pendingCount(db: Database.Database): number {
  return db.prepare('SELECT count(*) FROM docs WHERE embedded = 0').pluck().get() as number
}

/** Embed the documents waiting for a vector, a batch at a time; each batch is committed, so stopping (an aborted signal) loses nothing. */
export async function embedPending(
  db: Database.Database,
  embed: Embed,
  onProgress?: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<number> {
  const total = pendingCount(db)
  const next = db.prepare('SELECT rowid, id, title, content, tags, content_hash FROM docs WHERE embedded = 0 AND rowid > ? ORDER BY rowid LIMIT ?')
  const markEmbedded = db.prepare('UPDATE docs SET embedded = 1 WHERE rowid = ? AND content_hash = ?')
  const deleteVector = db.prepare('DELETE FROM vectors WHERE rowid = ?')
  const insertVector = db.prepare('INSERT INTO vectors (rowid, embedding) VALUES (?, ?)')
  let done = 0
  let after = 0
  for (;;) {
    signal?.throwIfAborted()
    const batch = next.all(after, embedBatchSize) as (Pick<DocRow, 'rowid' | 'id' | 'title' | 'content' | 'tags'> & { content_hash: string })[]
    if (batch.length === 0) break
    after = batch[batch.length - 1]?.rowid ?? after
    const texts = batch.map((row) =>
      searchableText({ title: row.title ?? undefined, content: row.content, tags: JSON.parse(row.tags) as string[] }).slice(0, maxEmbeddedChars),
    )
    const vectors = await embed(texts, 'document')
    db.transaction(() => {
      batch.forEach((row, index) => {
        const vector = vectors[index]
        if (vector === undefined) return
        // A document changed since it was read keeps waiting for its new text to be embedded.
        if (markEmbedded.run(row.rowid, row.content_hash).changes === 0) return
        deleteVector.run(BigInt(row.rowid))
        insertVector.run(BigInt(row.rowid), vector)
      })
    }).immediate()
    done += batch.length
    onProgress?.(done, total)
  }
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
