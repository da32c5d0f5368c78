import { MkError } from '../errors.js'
import type { MemoryIdentity } from '../memory/locations.js'
import type { StoredMemory } from '../memory/store.js'
import type { MemoryConsumer } from '../memory/visibility.js'
import type { Store } from '../stores/store.js'

/** The memories behind ids, in order and once each; ids that name no memory this reader may see are `missing`. */
export async function resolveMemoryIds(
  store: Store,
  identity: MemoryIdentity,
  consumer: MemoryConsumer,
  ids: readonly string[],
): Promise<{ resolved: StoredMemory[]; missing: string[] }> {
  const resolved: StoredMemory[] = []
  const missing: string[] = []
  for (const id of new Set(ids)) {
    try {
      resolved.push(await store.memories.findVisible(identity, consumer, id))
    } catch (error) {
      if (!(error instanceof MkError) || error.code !== 'NOT_FOUND') throw error
      missing.push(id)
    }
  }
  return { resolved, missing }
}

/** Stored memories grouped by their folder, for one lock and one commit per folder. */
export function byFolder(stored: readonly StoredMemory[]): StoredMemory[][] {
  const groups = new Map<string, StoredMemory[]>()
  for (const entry of stored) groups.set(entry.folder.key, [...(groups.get(entry.folder.key) ?? []), entry])
  return [...groups.values()]
}
