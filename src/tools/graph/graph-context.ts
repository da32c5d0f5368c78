import type { GraphEntity, KnowledgeGraph } from '../../memory/graph.js'
import type { MemoryFolder } from '../../memory/locations.js'
import type { StoredMemory } from '../../memory/store.js'
import type { ToolContext } from '../context.js'
import { identityOf } from '../memory/schemas.js'

export interface GraphState {
  folder: MemoryFolder
  graph: KnowledgeGraph
  /** The memory behind each entity, by entity name. */
  byName: Map<string, StoredMemory & { entity: GraphEntity }>
}

/** The knowledge graph of the configured layer (.mkrc memory.graphLayer, default user): entity memories and their relations. */
export async function loadGraphState(ctx: ToolContext): Promise<GraphState> {
  const { folderForLayer } = await import('../../memory/locations.js')
  const identity = identityOf({}, ctx)
  const folder = folderForLayer(ctx.workspace, identity, ctx.workspace.config.memory.graphLayer)
  const entities = await ctx.store.graph.entities(folder, { identity, teamId: ctx.runtime.teamId, warn: ctx.warn })
  const byName = new Map(entities.map((stored) => [stored.entity.name, stored]))
  return { folder, graph: { entities: entities.map((stored) => stored.entity), relations: await ctx.store.graph.relations(folder) }, byName }
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2)
}
