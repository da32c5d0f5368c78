/** Memory layers, most specific first. */
export const memoryLayers = ['agent', 'session', 'user', 'project', 'team', 'org', 'company'] as const
export type MemoryLayer = (typeof memoryLayers)[number]

/** Knowledge layers, most specific first: a project item shadows a team item of the same id. */
export const knowledgeLayers = ['project', 'team', 'org', 'company'] as const
export type KnowledgeLayer = (typeof knowledgeLayers)[number]

export function layerRank(layer: KnowledgeLayer): number {
  return knowledgeLayers.indexOf(layer)
}
