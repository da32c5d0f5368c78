import type { IndexDocument } from '../search/types.js'
import type { MemoryFolder } from './locations.js'
import type { MemoryRecord } from './model.js'
import { restrictionOf } from './visibility.js'

/** A memory as a search index holds it, whichever store keeps the index. */
export function memoryDocument(record: MemoryRecord, folder: MemoryFolder): IndexDocument {
  const expires = record.expires === undefined ? undefined : Date.parse(record.expires)
  const restriction = restrictionOf(record, folder)
  return {
    id: record.id,
    kind: 'memory',
    layer: record.layer,
    content: record.content,
    tags: record.tags,
    source: folder.key,
    path: `${record.id}.md`,
    updatedAt: Date.parse(record.updated) || Date.parse(record.created) || 0,
    expiresAt: expires === undefined || Number.isNaN(expires) ? undefined : expires,
    // A memory's tier is its status (an alias's is `alias`): default recall filters on it like knowledge on accepted.
    status: record.aliasOf === undefined ? (record.tier ?? 'hot') : 'alias',
    // Read by the visibility filter (src/search/filters.ts): only the owners find a restricted memory.
    meta: restriction === undefined ? undefined : JSON.stringify(restriction),
  }
}
