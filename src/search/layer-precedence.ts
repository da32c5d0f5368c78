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
 * (a project item shadows a team item of the same id), read from one list of layers. Only the
 * first `limit` results are built (a search ranks a thousand hits to show ten), with how many
 * there are in all.
 */
export function collapseAcrossLayers<Result extends LayeredResult>(
  results: readonly Result[],
  limit: number,
): { page: (Result & { shadows: ShadowedMemory[] })[]; total: number } {
  const groups = new Map<string, Result[]>()
  for (const result of results) {
    const group = groups.get(result.dedupKey)
    if (group === undefined) groups.set(result.dedupKey, [result])
    else group.push(result)
  }
  const rank = (layer: MemoryLayer): number => memoryLayers.indexOf(layer)
  const page: (Result & { shadows: ShadowedMemory[] })[] = []
  for (const group of groups.values()) {
    if (page.length >= limit) break
    const [winner, ...shadowed] = [...group].sort((a, b) => rank(a.layer) - rank(b.layer)) as [Result, ...Result[]]
    page.push({ ...winner, shadows: shadowed.map((result) => ({ memoryId: result.memoryId, layer: result.layer })) })
  }
  return { page, total: groups.size }
}
