import type { MemoryRecord } from './model.js'

/** The reference MCP memory server's shapes: entities with observations, and typed relations between entity names. */
export interface GraphEntity {
  name: string
  entityType: string
  observations: string[]
}

export interface GraphRelation {
  from: string
  to: string
  relationType: string
}

export interface KnowledgeGraph {
  entities: GraphEntity[]
  relations: GraphRelation[]
}

/** Metadata keys that make a memory an entity. */
export const entityNameKey = 'graph_entity'
export const entityTypeKey = 'graph_entity_type'

/**
 * An entity is one memory a person can read: a heading line, then one line per observation
 * ("- text", continuation lines indented), so search finds it by any observation.
 */
export function entityContent(entity: GraphEntity): string {
  const lines = entity.observations.map((observation) => `- ${observation.replace(/\n/g, '\n  ')}`)
  return [`${entity.name} (${entity.entityType})`, ...lines].join('\n')
}

export function isEntityMemory(record: Pick<MemoryRecord, 'metadata'>): boolean {
  return typeof record.metadata[entityNameKey] === 'string'
}

/** The entity a memory holds: its name and type from the metadata, its observations from the lines after the heading. */
export function entityOf(record: Pick<MemoryRecord, 'metadata' | 'content'>): GraphEntity {
  const observations: string[] = []
  for (const line of record.content.split('\n').slice(1)) {
    if (line.startsWith('- ')) observations.push(line.slice(2))
    else if (line.startsWith('  ') && observations.length > 0) observations[observations.length - 1] += `\n${line.slice(2)}`
  }
  return { name: String(record.metadata[entityNameKey]), entityType: String(record.metadata[entityTypeKey] ?? ''), observations }
}

export const sameRelation = (a: GraphRelation, b: GraphRelation): boolean => a.from === b.from && a.to === b.to && a.relationType === b.relationType

/** The reference server's search: the query, case-insensitive, in a name, a type or an observation; relations touching a match. */
export function searchGraph(graph: KnowledgeGraph, query: string): KnowledgeGraph {
  const wanted = query.toLowerCase()
  const entities = graph.entities.filter(
    (entity) =>
      entity.name.toLowerCase().includes(wanted) ||
      entity.entityType.toLowerCase().includes(wanted) ||
      entity.observations.some((observation) => observation.toLowerCase().includes(wanted)),
  )
  return withTouchingRelations(graph, entities)
}

export function openGraphNodes(graph: KnowledgeGraph, names: readonly string[]): KnowledgeGraph {
  return withTouchingRelations(
    graph,
    graph.entities.filter((entity) => names.includes(entity.name)),
  )
}

function withTouchingRelations(graph: KnowledgeGraph, entities: GraphEntity[]): KnowledgeGraph {
  const names = new Set(entities.map((entity) => entity.name))
  return { entities, relations: graph.relations.filter((relation) => names.has(relation.from) || names.has(relation.to)) }
}
