import type { MemoryLayer } from '../config/layers.js'
import type { Workspace } from '../config/workspace.js'
import type { GraphEntity, GraphRelation } from '../memory/graph.js'
import { visibleFolders, type MemoryIdentity } from '../memory/locations.js'
import type { MemoryConsumer } from '../memory/visibility.js'
import { entityTag } from '../memory/graph-store.js'
import type { Store } from '../stores/store.js'

/** Most memories shown per folder: the newest, so a folder of years of notes still makes a page, not a book. */
export const memoriesPerFolder = 500

export interface SiteMemory {
  id: string
  content: string
  tags: string[]
  updated: string
}

/** One memory folder as the site shows it: its graph (entities, the relations between them) and its other memories. */
export interface SiteMemoryFolder {
  /** `project`, `user`, `agent/alice`, `team/platform`. */
  key: string
  layer: MemoryLayer
  private: boolean
  entities: GraphEntity[]
  relations: GraphRelation[]
  memories: SiteMemory[]
  /** Memories left out beyond memoriesPerFolder. */
  more: boolean
}

export interface MemoryReader {
  identity: MemoryIdentity
  consumer: MemoryConsumer
  warn(message: string): void
}

/**
 * The memory graph of every folder the reader may read, through the store: the same folders and the same
 * visibility as memory_list and read_graph, so another agent's layer, another person's user layer and a
 * private memory someone else owns in a shared layer are never read. A relation is kept only when both its
 * ends are entities the reader sees: a relation must not name a hidden entity.
 */
export async function collectMemories(workspace: Workspace, store: Store, reader: MemoryReader): Promise<SiteMemoryFolder[]> {
  const folders = visibleFolders(workspace, reader.identity)
  const index = await store.index.open(reader.warn)
  await store.index.refresh({ identity: reader.identity, folders, knowledge: false, warn: reader.warn })
  const collected: SiteMemoryFolder[] = []
  for (const folder of folders) {
    const entities = (await store.graph.entities(folder, { identity: reader.identity, teamId: reader.consumer.teamId, warn: reader.warn })).map(
      (stored) => stored.entity,
    )
    const names = new Set(entities.map((entity) => entity.name))
    const relations = (await store.graph.relations(folder)).filter((relation) => names.has(relation.from) && names.has(relation.to))
    const documents = await index.list({
      kind: 'memory',
      sources: [folder.key],
      consumer: reader.consumer,
      includeExpired: false,
      limit: memoriesPerFolder + 1,
    })
    const memories = documents
      .filter((doc) => !doc.tags.includes(entityTag))
      .map((doc) => ({ id: doc.id, content: doc.content, tags: [...doc.tags], updated: new Date(doc.updatedAt).toISOString() }))
    if (entities.length === 0 && memories.length === 0) continue
    collected.push({
      key: folder.key,
      layer: folder.layer,
      private: folder.private,
      entities,
      relations,
      memories: memories.slice(0, memoriesPerFolder),
      more: documents.length > memoriesPerFolder,
    })
  }
  return collected
}
