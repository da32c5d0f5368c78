/** A node of the recall graph: what mk already knows, made explicit. Never carries an embedding. */
export type RecallNode =
  | {
      id: string
      type: 'memory'
      layer: string
      content: string
      tier: string
      tags: readonly string[]
      refs: readonly string[]
      aliasOf: string | undefined
      mergedFrom: readonly string[]
      /** Why it can no longer be trusted (a ref to retired knowledge or a deleted file). */
      stale: string | undefined
    }
  | { id: string; type: 'knowledge'; title: string; status: string; path: string; summary: string | undefined; supersededBy: readonly string[] }
  | { id: string; type: 'file'; path: string }

export const edgeTypes = ['refs', 'refs_file', 'supersedes', 'alias_of', 'merged_from', 'shares_tag'] as const
export type EdgeType = (typeof edgeTypes)[number]

export interface RecallEdge {
  from_id: string
  to_id: string
  type: EdgeType
  weight: number
}

/** How the graph reads what it expands: the tool answers from the index and the files, tests from a table. */
export interface RecallSources {
  memories(ids: readonly string[]): Promise<Extract<RecallNode, { type: 'memory' }>[]>
  knowledge(ids: readonly string[]): Promise<Extract<RecallNode, { type: 'knowledge' }>[]>
  /** Other memories carrying a tag, at most `limit`. */
  taggedWith(tag: string, limit: number): Promise<string[]>
  /** Whether a ref names a file rather than a knowledge item. */
  isFileRef(ref: string): boolean
}

const weights: Readonly<Record<EdgeType, number>> = { refs: 1, refs_file: 0.5, supersedes: 1, alias_of: 1, merged_from: 0.8, shares_tag: 0.4 }
/** A neighbour counts this share of the score that reached it. */
const decay = 0.5
const taggedPerMemory = 3

/**
 * The seeds and their neighbourhood, hop by hop, within the node and edge limits: memory → the
 * knowledge and files it refs, alias and merge links, memories sharing a tag; knowledge → what
 * superseded it. Every edge joins two nodes of the graph. Scores spread from the seeds by edge weight.
 */
export async function buildRecallGraph(
  seeds: readonly { id: string; score: number }[],
  sources: RecallSources,
  options: { hops: number; maxNodes: number; maxEdges: number },
): Promise<{ nodes: RecallNode[]; edges: RecallEdge[]; scores: Map<string, number> }> {
  const nodes = new Map<string, RecallNode>()
  const scores = new Map<string, number>()
  const edges: RecallEdge[] = []
  const edgeKeys = new Set<string>()
  for (const node of await sources.memories(seeds.map((seed) => seed.id))) {
    if (nodes.size >= options.maxNodes) break
    nodes.set(node.id, node)
    scores.set(node.id, seeds.find((seed) => seed.id === node.id)?.score ?? 0)
  }
  let frontier = [...nodes.keys()]
  for (let hop = 0; hop < options.hops && frontier.length > 0; hop++) {
    const wanted: { from: string; to: string; type: EdgeType; kind: 'memory' | 'knowledge' | 'file' }[] = []
    for (const id of frontier) {
      const node = nodes.get(id)
      if (node?.type === 'memory') {
        for (const ref of node.refs)
          wanted.push({ from: id, to: ref, type: sources.isFileRef(ref) ? 'refs_file' : 'refs', kind: sources.isFileRef(ref) ? 'file' : 'knowledge' })
        if (node.aliasOf !== undefined) wanted.push({ from: id, to: node.aliasOf, type: 'alias_of', kind: 'memory' })
        for (const merged of node.mergedFrom) wanted.push({ from: id, to: merged, type: 'merged_from', kind: 'memory' })
        for (const tag of node.tags) {
          for (const other of await sources.taggedWith(tag, taggedPerMemory + 1)) {
            if (other !== id) wanted.push({ from: id, to: other, type: 'shares_tag', kind: 'memory' })
          }
        }
      } else if (node?.type === 'knowledge') {
        for (const newer of node.supersededBy) wanted.push({ from: newer, to: id, type: 'supersedes', kind: 'knowledge' })
      }
    }
    const missing = (kind: 'memory' | 'knowledge'): string[] => [
      ...new Set(
        wanted
          .filter((edge) => edge.kind === kind)
          .map((edge) => (edge.type === 'supersedes' ? edge.from : edge.to))
          .filter((target) => !nodes.has(target)),
      ),
    ]
    const loaded: RecallNode[] = [...(await sources.memories(missing('memory'))), ...(await sources.knowledge(missing('knowledge')))]
    const loadedById = new Map(loaded.map((node) => [node.id, node]))
    const next: string[] = []
    for (const edge of wanted) {
      if (edges.length >= options.maxEdges) break
      const source = edge.type === 'supersedes' ? edge.to : edge.from
      const target = edge.type === 'supersedes' ? edge.from : edge.to
      if (!nodes.has(target)) {
        const node: RecallNode | undefined = edge.kind === 'file' ? { id: target, type: 'file', path: target } : loadedById.get(target)
        if (node === undefined || nodes.size >= options.maxNodes) continue
        nodes.set(target, node)
        next.push(target)
      }
      const key = `${edge.from}\u0000${edge.to}\u0000${edge.type}`
      if (edgeKeys.has(key)) continue
      edgeKeys.add(key)
      const weight = weights[edge.type]
      edges.push({ from_id: edge.from, to_id: edge.to, type: edge.type, weight })
      const reached = (scores.get(source) ?? 0) * weight * decay
      if (reached > (scores.get(target) ?? 0)) scores.set(target, reached)
    }
    frontier = next
  }
  return { nodes: [...nodes.values()], edges, scores }
}
