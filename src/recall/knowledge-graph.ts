import type { Workspace } from '../config/workspace.js'
import { MkError } from '../errors.js'
import type { GitIdentity } from '../git/identity.js'
import { sameRelation, type GraphEntity, type GraphRelation, type KnowledgeGraph } from '../memory/graph.js'
import { folderForLayer, type MemoryFolder, type MemoryIdentity } from '../memory/locations.js'
import type { StoredMemory } from '../memory/store.js'
import type { Store } from '../stores/store.js'

/**
 * The knowledge graph of the reference MCP memory server, kept as mk memories of one layer
 * (.mkrc memory.graphLayer, default user): each entity is a memory, relations a file beside them.
 */

export interface GraphPlace {
  workspace: Workspace
  store: Store
  identity: MemoryIdentity
  teamId: string | undefined
  /** The writing agent, named as the source of the entities it creates. */
  agentId: string | undefined
  author: GitIdentity | undefined
  warn(message: string): void
}

export interface GraphState {
  folder: MemoryFolder
  graph: KnowledgeGraph
  /** The memory behind each entity, by entity name. */
  byName: Map<string, StoredMemory & { entity: GraphEntity }>
}

export async function loadGraph(place: GraphPlace): Promise<GraphState> {
  const { store, identity } = place
  const folder = folderForLayer(place.workspace, identity, place.workspace.config.memory.graphLayer)
  const entities = await store.graph.entities(folder, { identity, teamId: place.teamId, warn: place.warn })
  const byName = new Map(entities.map((stored) => [stored.entity.name, stored]))
  return { folder, graph: { entities: entities.map((stored) => stored.entity), relations: await store.graph.relations(folder) }, byName }
}

/** Creates the entities whose names are new; returns those it created. */
export async function createEntities(entities: readonly GraphEntity[], place: GraphPlace): Promise<GraphEntity[]> {
  const state = await loadGraph(place)
  const source = place.agentId === undefined ? 'graph' : `agent:${place.agentId}`
  const created: GraphEntity[] = []
  for (const entity of entities) {
    if (state.byName.has(entity.name) || created.some((other) => other.name === entity.name)) continue
    await place.store.graph.addEntity(state.folder, entity, source, { author: place.author, warn: place.warn })
    created.push(entity)
  }
  return created
}

/** Appends the relations not there yet (each once); returns those it appended. */
export async function createRelations(relations: readonly GraphRelation[], place: GraphPlace): Promise<GraphRelation[]> {
  const state = await loadGraph(place)
  const created = relations.filter(
    (relation, position) =>
      !state.graph.relations.some((existing) => sameRelation(existing, relation)) &&
      !relations.slice(0, position).some((earlier) => sameRelation(earlier, relation)),
  )
  await place.store.graph.appendRelations(state.folder, created)
  return created
}

/** Adds the observations an entity does not have yet; every entity must exist (NOT_FOUND). */
export async function addObservations(
  observations: readonly { entityName: string; contents: readonly string[] }[],
  place: GraphPlace,
): Promise<{ entityName: string; addedObservations: string[] }[]> {
  const state = await loadGraph(place)
  const missing = observations.find((entry) => !state.byName.has(entry.entityName))
  if (missing !== undefined)
    throw new MkError('NOT_FOUND', `Entity with name ${missing.entityName} not found`, { details: { field: 'observations.entityName' } })
  const results = observations.map((entry) => {
    const stored = state.byName.get(entry.entityName)
    const entity = stored?.entity ?? { name: entry.entityName, entityType: '', observations: [] }
    const added = entry.contents.filter((content, position) => !entity.observations.includes(content) && entry.contents.indexOf(content) === position)
    entity.observations.push(...added)
    return { entityName: entry.entityName, addedObservations: added }
  })
  const changed = [...state.byName.values()].filter((stored) =>
    results.some((result) => result.entityName === stored.entity.name && result.addedObservations.length > 0),
  )
  await place.store.graph.saveEntities(state.folder, changed, `add observations (${state.folder.key})`, { author: place.author, warn: place.warn })
  return results
}

/** Deletes the entities (their memories can be restored) and the relations touching them; names that are not there are ignored. */
export async function deleteEntities(names: readonly string[], place: GraphPlace): Promise<void> {
  const state = await loadGraph(place)
  for (const name of names) {
    const stored = state.byName.get(name)
    if (stored !== undefined) await place.store.memories.delete(stored, { author: place.author, warn: place.warn })
  }
  await place.store.graph.replaceRelations(state.folder, (relation) => !names.includes(relation.from) && !names.includes(relation.to))
}

export async function deleteObservations(deletions: readonly { entityName: string; observations: readonly string[] }[], place: GraphPlace): Promise<void> {
  const state = await loadGraph(place)
  const changed = deletions.flatMap((deletion) => {
    const stored = state.byName.get(deletion.entityName)
    if (stored === undefined) return []
    const kept = stored.entity.observations.filter((observation) => !deletion.observations.includes(observation))
    if (kept.length === stored.entity.observations.length) return []
    stored.entity.observations = kept
    return [stored]
  })
  await place.store.graph.saveEntities(state.folder, changed, `delete observations (${state.folder.key})`, { author: place.author, warn: place.warn })
}

export async function deleteRelations(relations: readonly GraphRelation[], place: GraphPlace): Promise<void> {
  const state = await loadGraph(place)
  await place.store.graph.replaceRelations(state.folder, (relation) => !relations.some((deleted) => sameRelation(deleted, relation)))
}
