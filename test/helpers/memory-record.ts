import { newMemoryId } from '../../src/memory/ids.js'
import type { MemoryFolder } from '../../src/memory/locations.js'
import type { MemoryRecord } from '../../src/memory/model.js'

/** A new memory for `folder` as mk writes one from the command line, with `extra` over its fields. */
export function memoryRecord(folder: MemoryFolder, content: string, extra: Partial<MemoryRecord> = {}): MemoryRecord {
  const now = new Date().toISOString()
  return {
    id: newMemoryId(),
    layer: folder.layer,
    content,
    tags: [],
    created: now,
    updated: now,
    source: 'cli',
    refs: [],
    supersedes: [],
    expires: undefined,
    lane: folder.private ? 'private' : 'shared',
    owner: folder.owner,
    metadata: {},
    ...extra,
  }
}
