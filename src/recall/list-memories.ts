import { memoryLayers, type MemoryLayer } from '../config/layers.js'
import type { Workspace } from '../config/workspace.js'
import { visibleFoldersOfLayers, type MemoryIdentity } from '../memory/locations.js'
import type { MemoryConsumer } from '../memory/visibility.js'
import type { Store } from '../stores/store.js'

export interface MemoryListRequest {
  layers: readonly MemoryLayer[] | undefined
  tags: readonly string[] | undefined
  includeExpired: boolean
  limit: number
  identity: MemoryIdentity
  consumer: MemoryConsumer
}

export interface MemoryListPlace {
  workspace: Workspace
  store: Store
  warn(message: string): void
}

export interface ListedMemory {
  memoryId: string
  layer: MemoryLayer
  content: string
  tags: string[]
  updated: string
  expires?: string
}

/** The memories the caller sees in the layers asked for, newest first, from the refreshed index. */
export async function listMemories(request: MemoryListRequest, place: MemoryListPlace): Promise<ListedMemory[]> {
  const { identity } = request
  const { store, warn } = place
  const folders = visibleFoldersOfLayers(place.workspace, identity, request.layers)
  const index = await store.index.open(warn)
  await store.index.refresh({ identity, folders, knowledge: false, warn })
  const documents = await index.list({
    kind: 'memory',
    sources: folders.map((folder) => folder.key),
    consumer: request.consumer,
    includeExpired: request.includeExpired,
    limit: request.limit,
    ...(request.tags === undefined ? {} : { tags: [...request.tags] }),
  })
  return documents.map((doc) => ({
    memoryId: doc.id,
    // Memory documents are indexed from memory folders, whose layer is always one of these.
    layer: memoryLayers.find((layer) => layer === doc.layer) ?? 'project',
    content: doc.content,
    tags: [...doc.tags],
    updated: new Date(doc.updatedAt).toISOString(),
    ...(doc.expiresAt === undefined ? {} : { expires: new Date(doc.expiresAt).toISOString() }),
  }))
}
