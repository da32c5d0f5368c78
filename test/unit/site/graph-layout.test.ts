import { describe, expect, it } from 'vitest'
import { layoutGraph } from '../../../src/site/graph-layout.js'

const options = { nodeWidth: 100, nodeHeight: 40, columns: 3, gapX: 10, gapY: 10, layerGap: 20 }

describe('layoutGraph', () => {
  it('puts a superseded item above the one that supersedes it', () => {
    const layout = layoutGraph(
      [{ id: 'new' }, { id: 'old' }, { id: 'oldest' }],
      [
        { from: 'new', to: 'old', kind: 'supersedes' },
        { from: 'old', to: 'oldest', kind: 'supersedes' },
      ],
      options,
    )
    const y = (id: string): number => layout.nodes.get(id)?.y ?? Number.NaN
    expect(y('oldest')).toBeLessThan(y('old'))
    expect(y('old')).toBeLessThan(y('new'))
  })

  it('wraps a layer of unrelated items into rows and places every node once, apart', () => {
    const nodes = Array.from({ length: 7 }, (_, index) => ({ id: `n${index}` }))
    const layout = layoutGraph(nodes, [], options)
    const spots = new Set([...layout.nodes.values()].map((node) => `${node.x},${node.y}`))
    expect(spots.size).toBe(7)
    expect(layout.width).toBe(3 * 110 - 10)
    expect(layout.height).toBe(3 * 50 - 10)
  })

  it('survives a supersede cycle', () => {
    const layout = layoutGraph(
      [{ id: 'a' }, { id: 'b' }],
      [
        { from: 'a', to: 'b', kind: 'supersedes' },
        { from: 'b', to: 'a', kind: 'supersedes' },
      ],
      options,
    )
    expect(layout.nodes.size).toBe(2)
  })
})
