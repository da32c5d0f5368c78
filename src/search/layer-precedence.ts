import { memoryLayers, type MemoryLayer } from '../config/layers.js'

export interface ShadowedMemory {
  memoryId: string
  layer: MemoryLayer
}

interface LayeredResult {
  memoryId: string
  layer: MemoryLayer
  /** The content's dedup key (src/search/normalise.ts): copies of one fact share it. */
  dedupKey: string
}

/**
 * The same fact stored in several layers is one result: the most specific layer's copy, at the
 * place of the best-ranked copy, listing the copies it shadows. The same precedence as knowledge
 * (a project item shadows a team item of the same id), read from one list of layers.
 */
export function collapseAcrossLayers<Result extends LayeredResult>(results: readonly Result[]): (Result & { shadows: ShadowedMemory[] })[] {
  const groups = new Map<string, Result[]>()
  for (const result of results) {
    const group = groups.get(result.dedupKey)
    if (group === undefined) groups.set(result.dedupKey, [result])
    else group.push(result)
  }
  const rank = (layer: MemoryLayer): number => memoryLayers.indexOf(layer)
  return [...groups.values()].map((group) => {
    const [winner, ...shadowed] = [...group].sort((a, b) => rank(a.layer) - rank(b.layer)) as [Result, ...Result[]]
    return { ...winner, shadows: shadowed.map((result) => ({ memoryId: result.memoryId, layer: result.layer })) }
  })
}
