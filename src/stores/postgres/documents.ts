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
  // The last of two documents with one id wins, as when they were written one by one (one statement may not write a row twice).
  const unique = [...new Map(docs.map((doc) => [doc.id, doc])).values()]
  for (let start = 0; start < unique.length; start += rowsPerStatement) await upsertBatch(client, scope, unique.slice(start, start + rowsPerStatement))
  if (docs.length > 0) await announceChange(client, scope)
}

/** Documents per INSERT: one round trip for many rows (a 100,000-memory import was 100,000 round trips), a message of a few MB at most. */
const rowsPerStatement = 500

const documentColumns: readonly [name: string, type: string][] = [
  ['id', 'text'],
  ['kind', 'text'],
  ['layer', 'text'],
  ['title', 'text'],
  ['content', 'text'],
  ['tags', 'text'],
  ['source', 'text'],
  ['path', 'text'],
  ['updated_at', 'bigint'],
  ['expires_at', 'bigint'],
  ['type', 'text'],
  ['status', 'text'],
  ['meta', 'text'],
  ['dedup_key', 'text'],
  ['text_hash', 'text'],
  ['words', 'text'],
]

/** One INSERT of many documents: each column an array parameter, unnested in the documents' order (their `n`). */
async function upsertBatch(client: PoolClient, scope: string, docs: readonly IndexDocument[]): Promise<void> {
  const rows = docs.map((doc) => {
    const text = searchableText(doc)
    return [
      doc.id,
      doc.kind,
      doc.layer,
      doc.title ?? null,
      doc.content,
      JSON.stringify(doc.tags),
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
    ]
  })
  const columns = documentColumns.map((_, position) => rows.map((row) => row[position] ?? null))
  const unnested = documentColumns.map(([, type], position) => `$${position + 2}::${type}[]`).join(', ')
  await client.query(
    `INSERT INTO mk_documents (scope, id, kind, layer, title, content, tags, source, path, updated_at, expires_at, type, status, meta, dedup_key,
       text_hash, tsv, length)
     SELECT $1, u.id, u.kind, u.layer, u.title, u.content, ARRAY(SELECT jsonb_array_elements_text(u.tags::jsonb)), u.source, u.path, u.updated_at,
       u.expires_at, u.type, u.status, u.meta, u.dedup_key, u.text_hash, to_tsvector('${textConfig}', u.words), ${lengthOf('u.words')}
     FROM unnest(${unnested}) WITH ORDINALITY AS u(${documentColumns.map(([name]) => name).join(', ')}, ord)
     ORDER BY u.ord
     ON CONFLICT (tenant_id, scope, id) DO UPDATE SET kind = excluded.kind, layer = excluded.layer, title = excluded.title,
       content = excluded.content, tags = excluded.tags, source = excluded.source, path = excluded.path, updated_at = excluded.updated_at,
       expires_at = excluded.expires_at, type = excluded.type, status = excluded.status, meta = excluded.meta, dedup_key = excluded.dedup_key,
       text_hash = excluded.text_hash, tsv = excluded.tsv, length = excluded.length,
       embedding = CASE WHEN mk_documents.text_hash = excluded.text_hash THEN mk_documents.embedding ELSE NULL END`,
    [scope, ...columns],
  )
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
