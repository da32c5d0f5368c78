import type { GraphEntity, KnowledgeGraph } from '../../memory/graph.js'
import type { MemoryFolder } from '../../memory/locations.js'
import type { StoredMemory } from '../../memory/store.js'
import type { SearchIndex } from '../../search/search-index.js'
import type { ToolContext } from '../context.js'
import { identityOf } from '../memory/schemas.js'
import { workspaceIndex } from '../search-index.js'

export interface GraphState {
  folder: MemoryFolder
  index: SearchIndex
  graph: KnowledgeGraph
  /** The memory behind each entity, by entity name. */
  byName: Map<string, StoredMemory & { entity: GraphEntity }>
}

/** The knowledge graph of the configured layer (.mkrc memory.graphLayer, default user): entity memories and the relations file. */
export async function loadGraphState(ctx: ToolContext): Promise<GraphState> {
  const [{ folderForLayer }, { ensureFresh }, { entityTag, readEntities, readRelations }] = await Promise.all([
    import('../../memory/locations.js'),
    import('../../stores/files/indexing/workspace-index.js'),
    import('../../memory/graph-store.js'),
  ])
  const identity = identityOf({}, ctx)
  const folder = folderForLayer(ctx.workspace, identity, ctx.workspace.config.memory.graphLayer)
  const index = await workspaceIndex(ctx)
  await ensureFresh(index, ctx.workspace, { identity, folders: [folder], knowledge: false, warn: ctx.warn })
  const ids = index
    .list({
      kind: 'memory',
      sources: [folder.key],
      tags: [entityTag],
      includeExpired: true,
      order: 'any',
      consumer: { agentId: identity.agentId, teamId: ctx.runtime.teamId },
    })
    .map((doc) => doc.id)
  const entities = await readEntities(ctx.workspace, folder, ids)
  const byName = new Map(entities.map((stored) => [stored.entity.name, stored]))
  return { folder, index, graph: { entities: entities.map((stored) => stored.entity), relations: await readRelations(folder) }, byName }
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2)
}
