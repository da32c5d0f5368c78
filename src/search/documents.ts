import type Database from 'better-sqlite3'
import { filterClause } from './filters.js'
import { compoundWordParts } from './identifier-parts.js'
import { contentHash, dedupKey } from './normalise.js'
import { statement } from './statements.js'
import type { IndexDocument, SearchFilters } from './types.js'

// Document storage: each document is a `docs` row, its text in `docs_fts` and its tags in
// `doc_tags`, all under the same rowid; a vector in `vectors` under that rowid goes with them.

export type StoredDocument = IndexDocument

export interface DocRow {
  rowid: number
  id: string
  kind: IndexDocument['kind']
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
  meta: string | null
}

/** The text that is searched, by full text and by vector. */
export function searchableText(doc: Pick<IndexDocument, 'title' | 'content' | 'tags'>): string {
  return [doc.title ?? '', doc.content, doc.tags.join(' ')].filter((part) => part !== '').join('\n')
}

/** What the full-text index holds of a document's searchable text: the text and the parts of its camelCase words. */
export function fullText(text: string): string {
  const parts = compoundWordParts(text)
  return parts === '' ? text : `${text}\n${parts}`
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
    meta: row.meta ?? undefined,
  }
}

export function documentCount(db: Database.Database): number {
  return db.prepare('SELECT count(*) FROM docs').pluck().get() as number
}

/** Insert or replace documents in one transaction. A document whose text changed loses its vector and waits to be embedded again. */
export function upsertDocuments(db: Database.Database, docs: readonly IndexDocument[], hasVectorTable: boolean): void {
  // Nothing to write takes no write lock: a search's refresh that found nothing new must not wait for a writer.
  if (docs.length === 0) return
  const find = db.prepare('SELECT rowid, content_hash FROM docs WHERE id = ?')
  const insert = db.prepare(
    `INSERT INTO docs (id, kind, layer, source, path, type, status, title, content, tags, content_hash, dedup_key, updated_at, expires_at, embedded, meta)
     VALUES (@id, @kind, @layer, @source, @path, @type, @status, @title, @content, @tags, @contentHash, @dedupKey, @updatedAt, @expiresAt, 0, @meta)`,
  )
  const update = db.prepare(
    `UPDATE docs SET kind = @kind, layer = @layer, source = @source, path = @path, type = @type, status = @status, title = @title,
     content = @content, tags = @tags, content_hash = @contentHash, dedup_key = @dedupKey, updated_at = @updatedAt, expires_at = @expiresAt, meta = @meta,
     embedded = CASE WHEN content_hash = @contentHash THEN embedded ELSE 0 END
     WHERE rowid = @rowid`,
  )
  const deleteText = db.prepare('DELETE FROM docs_fts WHERE rowid = ?')
  const insertText = db.prepare('INSERT INTO docs_fts (rowid, text) VALUES (?, ?)')
  const deleteTags = db.prepare('DELETE FROM doc_tags WHERE doc = ?')
  const insertTag = db.prepare('INSERT OR IGNORE INTO doc_tags (tag, doc) VALUES (?, ?)')
  const deleteVector = hasVectorTable ? db.prepare('DELETE FROM vectors WHERE rowid = ?') : undefined
  db.transaction(() => {
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
        meta: doc.meta ?? null,
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
        if (existing.content_hash !== values.contentHash) deleteVector?.run(rowid)
      }
      insertText.run(rowid, fullText(text))
      for (const tag of doc.tags) insertTag.run(tag, rowid)
    }
  }).immediate()
}

/** Empty every table but the metadata, so the next refresh reads all files again. */
export function emptyTables(db: Database.Database, hasVectorTable: boolean): void {
  db.transaction(() => {
    for (const table of ['docs', 'docs_fts', 'doc_tags', 'sync_state', 'file_signatures']) db.exec(`DELETE FROM ${table}`)
    if (hasVectorTable) db.exec('DELETE FROM vectors')
  }).immediate()
}

/** Remove documents by id; unknown ids are ignored. Returns how many were removed. */
export function removeDocuments(db: Database.Database, ids: readonly string[], hasVectorTable: boolean): number {
  if (ids.length === 0) return 0
  const find = db.prepare('SELECT rowid FROM docs WHERE id = ?').pluck()
  const deleteVector = hasVectorTable ? db.prepare('DELETE FROM vectors WHERE rowid = ?') : undefined
  const statements = ['DELETE FROM docs_fts WHERE rowid = ?', 'DELETE FROM doc_tags WHERE doc = ?', 'DELETE FROM docs WHERE rowid = ?'].map((sql) =>
    db.prepare(sql),
  )
  return db
    .transaction(() => {
      let removed = 0
      for (const id of ids) {
        const rowid = find.get(id) as number | undefined
        if (rowid === undefined) continue
        for (const statement of statements) statement.run(rowid)
        deleteVector?.run(rowid)
        removed++
      }
      return removed
    })
    .immediate()
}

/** The documents with these ids, in the order of the ids; unknown ids are left out. */
export function getDocuments(db: Database.Database, ids: readonly string[]): StoredDocument[] {
  if (ids.length === 0) return []
  // One statement for all ids: a search fetches up to a thousand candidates, and a lookup each cost 6.5 ms of a 22 ms search.
  const rows = statement(db, 'SELECT * FROM docs WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as DocRow[]
  const byId = new Map(rows.map((row) => [row.id, fromRow(row)]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

export interface ListOptions {
  limit?: number
  /** Newest first (default), or in storage order when every match is wanted and sorting ten thousand rows would be wasted. */
  order?: 'newest' | 'any'
}

/** Documents matching the filters. */
export function listDocuments(db: Database.Database, filters: SearchFilters & ListOptions): StoredDocument[] {
  const where = filterClause(filters)
  const order = filters.order === 'any' ? '' : 'ORDER BY d.updated_at DESC, d.id DESC'
  const rows = db.prepare(`SELECT * FROM docs d WHERE ${where.sql} ${order} LIMIT ?`).all(...where.params, filters.limit ?? -1) as DocRow[]
  return rows.map(fromRow)
}

/**
 * Ids of the documents of one kind that came from one source. A memory folder and a knowledge
 * source may share a name (`mk init` calls both `project`), so the kind is part of the key.
 */
export function idsOfSource(db: Database.Database, kind: DocRow['kind'], source: string): Set<string> {
  return new Set(db.prepare('SELECT id FROM docs WHERE kind = ? AND source = ?').pluck().all(kind, source) as string[])
}

/** Each document of one source with its status (a memory's tier). */
export function statusesOfSource(db: Database.Database, kind: DocRow['kind'], source: string): Map<string, string> {
  const rows = db.prepare('SELECT id, status FROM docs WHERE kind = ? AND source = ?').raw().all(kind, source) as [string, string | null][]
  return new Map(rows.map(([id, status]) => [id, status ?? '']))
}

/**
 * A memory of one of these memory folders whose normalised content equals this content and that
 * has the same owners: another agent's private copy of a fact is neither returned nor revealed.
 */
export function findSameContent(
  db: Database.Database,
  content: string,
  sources: readonly string[],
  restriction: string | undefined,
): StoredDocument | undefined {
  const rows = db.prepare("SELECT * FROM docs WHERE kind = 'memory' AND dedup_key = ?").all(dedupKey(content)) as DocRow[]
  const row = rows.find((candidate) => candidate.source !== null && sources.includes(candidate.source) && (candidate.meta ?? undefined) === restriction)
  return row === undefined ? undefined : fromRow(row)
}

/** Change only the status of documents (a memory's tier): text, tags and vectors stay as they are. */
export function setStatuses(db: Database.Database, updates: readonly { id: string; status: string }[]): void {
  if (updates.length === 0) return
  const update = db.prepare('UPDATE docs SET status = ? WHERE id = ?')
  db.transaction(() => {
    for (const { id, status } of updates) update.run(status, id)
  }).immediate()
}
