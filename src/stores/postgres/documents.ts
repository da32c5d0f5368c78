import type { PoolClient } from 'pg'
import { markAnnounced } from './connection.js'
import { fullText, searchableText } from '../../search/documents.js'
import { contentHash, dedupKey } from '../../search/normalise.js'
import type { IndexDocument } from '../../search/types.js'

/** The channel a write announces changed documents on, so every replica drops its vectors of that tenant and scope. */
export const documentsChannel = 'mk_documents'

/** Announce (at commit) that a tenant's scope changed its documents. */
export async function announceChange(client: PoolClient, scope: string): Promise<void> {
  markAnnounced(client)
  await client.query(`SELECT pg_notify('${documentsChannel}', current_setting('mk.tenant', true) || '/' || $1)`, [scope])
}

/**
 * The text search configuration of every text vector and query (migration 3): English stems,
 * as FTS5's porter tokenizer stems, and no stop words, as FTS5 keeps every word.
 */
export const textConfig = 'mk_english'

/**
 * A text as FTS5's unicode61 tokenizer reads it: runs of letters and digits, diacritics removed,
 * separated by spaces. PostgreSQL's own parser would keep `a/b.sh`, `on-call` or an address as
 * extra tokens; given only words, it yields the words FTS5 yields.
 */
export const asWords = (text: string): string =>
  (
    text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).join(' ')

/** How many words the text vector holds (what BM25 calls a document's length). */
const lengthOf = (param: string): string => `(SELECT coalesce(sum(array_length(positions, 1)), 0) FROM unnest(to_tsvector('${textConfig}', ${param}::text)))`

/**
 * Insert or replace documents of one scope. The searched text is the SQLite index's (title,
 * content, tags and the parts of camelCase words: fullText); a document whose text changed loses its vector and is embedded again.
 */
export async function upsertDocuments(client: PoolClient, scope: string, docs: readonly IndexDocument[]): Promise<void> {
  for (const doc of docs) {
    const text = searchableText(doc)
    await client.query(
      `INSERT INTO mk_documents (scope, id, kind, layer, title, content, tags, source, path, updated_at, expires_at, type, status, meta, dedup_key,
         text_hash, tsv, length)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, to_tsvector('${textConfig}', $17::text), ${lengthOf('$17')})
       ON CONFLICT (tenant_id, scope, id) DO UPDATE SET kind = excluded.kind, layer = excluded.layer, title = excluded.title,
         content = excluded.content, tags = excluded.tags, source = excluded.source, path = excluded.path, updated_at = excluded.updated_at,
         expires_at = excluded.expires_at, type = excluded.type, status = excluded.status, meta = excluded.meta, dedup_key = excluded.dedup_key,
         text_hash = excluded.text_hash, tsv = excluded.tsv, length = excluded.length,
         embedding = CASE WHEN mk_documents.text_hash = excluded.text_hash THEN mk_documents.embedding ELSE NULL END`,
      [
        scope,
        doc.id,
        doc.kind,
        doc.layer,
        doc.title ?? null,
        doc.content,
        [...doc.tags],
        doc.source ?? null,
        doc.path ?? null,
        doc.updatedAt,
        doc.expiresAt ?? null,
        doc.type ?? null,
        doc.status ?? null,
        doc.meta ?? null,
        dedupKey(doc.content),
        contentHash(text),
        asWords(fullText(text)),
      ],
    )
  }
  if (docs.length > 0) await announceChange(client, scope)
}

export async function removeDocuments(client: PoolClient, scope: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0
  const removed = (await client.query('DELETE FROM mk_documents WHERE scope = $1 AND id = ANY($2)', [scope, [...ids]])).rowCount ?? 0
  if (removed > 0) await announceChange(client, scope)
  return removed
}

/** Change only the status of documents (a memory's tier): text, tags and vectors stay. */
export async function setStatuses(client: PoolClient, scope: string, updates: readonly { id: string; status: string }[]): Promise<void> {
  for (const { id, status } of updates) await client.query('UPDATE mk_documents SET status = $3 WHERE scope = $1 AND id = $2', [scope, id, status])
}
