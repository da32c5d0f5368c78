import { describe, expect, it } from 'vitest'
import { buildRecallGraph, type RecallNode, type RecallSources } from '../../../src/memory/recall-graph.js'
import { composeRecallPack } from '../../../src/memory/recall-pack.js'

type MemoryNode = Extract<RecallNode, { type: 'memory' }>
const memory = (id: string, fields: Partial<MemoryNode> = {}): MemoryNode => ({
  id,
  type: 'memory',
  layer: 'project',
  content: `fact ${id}`,
  tier: 'hot',
  tags: [],
  refs: [],
  aliasOf: undefined,
  mergedFrom: [],
  stale: undefined,
  ...fields,
})

const table: Record<string, MemoryNode> = {
  m1: memory('m1', { refs: ['k1', 'docs/a.md'], tags: ['db'], mergedFrom: ['m4'] }),
  m2: memory('m2', { tags: ['db'] }),
  m3: memory('m3', { tags: ['db'] }),
  m4: memory('m4', { aliasOf: 'm1' }),
}
const sources: RecallSources = {
  memories: async (ids) => ids.flatMap((id) => table[id] ?? []),
  knowledge: async (ids) =>
    ids.flatMap((id) =>
      id === 'k1' || id === 'k2'
        ? [
            {
              id,
              type: 'knowledge' as const,
              title: `Item ${id}`,
              status: id === 'k1' ? 'superseded' : 'accepted',
              path: `knowledge/${id}.md`,
              summary: undefined,
              supersededBy: id === 'k1' ? ['k2'] : [],
            },
          ]
        : [],
    ),
  taggedWith: async (tag) => (tag === 'db' ? ['m1', 'm2', 'm3'] : []),
  isFileRef: (ref) => ref.includes('/'),
}

describe('recall graph', () => {
  it('follows every kind of link within two hops, and every edge joins two nodes', async () => {
    const graph = await buildRecallGraph([{ id: 'm1', score: 0.8 }], sources, { hops: 2, maxNodes: 50, maxEdges: 100 })
    const ids = new Set(graph.nodes.map((node) => node.id))
    expect(ids).toEqual(new Set(['m1', 'k1', 'docs/a.md', 'm4', 'm2', 'm3', 'k2']))
    for (const edge of graph.edges) expect(ids.has(edge.from_id) && ids.has(edge.to_id)).toBe(true)
    expect(graph.edges.map((edge) => `${edge.from_id} ${edge.type} ${edge.to_id}`)).toEqual(
      expect.arrayContaining(['m1 refs k1', 'm1 refs_file docs/a.md', 'm1 merged_from m4', 'm1 shares_tag m2', 'k2 supersedes k1', 'm4 alias_of m1']),
    )
    expect(graph.scores.get('k1')).toBe(0.4)
    expect(graph.scores.get('k2')).toBe(0.2)
  })

  it('keeps to the node and edge limits and to one hop', async () => {
    const small = await buildRecallGraph([{ id: 'm1', score: 0.8 }], sources, { hops: 2, maxNodes: 3, maxEdges: 2 })
    expect(small.nodes.length).toBeLessThanOrEqual(3)
    expect(small.edges.length).toBeLessThanOrEqual(2)
    const oneHop = await buildRecallGraph([{ id: 'm1', score: 0.8 }], sources, { hops: 1, maxNodes: 50, maxEdges: 100 })
    expect(oneHop.nodes.map((node) => node.id)).not.toContain('k2')
  })

  it('packs memories then knowledge, leaves aliases out, and shows a superseded item as its successor', async () => {
    const graph = await buildRecallGraph([{ id: 'm1', score: 0.8 }], sources, { hops: 2, maxNodes: 50, maxEdges: 100 })
    const pack = composeRecallPack('db', graph.nodes, graph.scores, { tokenBudget: 1000, countTokens: (text) => text.split(/\s+/).length })
    expect(pack.items).not.toContain('m4')
    expect(pack.items.filter((id) => id.startsWith('k'))).toEqual(['k2'])
    expect(pack.text).toContain('- Item k2 (accepted; replaces k1, which it superseded) [')
  })
})
