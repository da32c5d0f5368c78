export interface GraphNode {
  id: string
}

export interface GraphEdge {
  from: string
  to: string
  kind: 'supersedes' | 'relates'
}

export interface PlacedNode {
  id: string
  x: number
  y: number
}

export interface GraphLayout {
  nodes: Map<string, PlacedNode>
  width: number
  height: number
}

export interface LayoutOptions {
  nodeWidth: number
  nodeHeight: number
  columns: number
  gapX: number
  gapY: number
  /** Extra space between one layer's band and the next, for the edges between them. */
  layerGap: number
}

/**
 * A layered layout, done once at build time: a superseded item stands one layer above the item that
 * supersedes it (longest path, so a chain reads top to bottom); within a layer, nodes are ordered by the mean
 * position of the nodes above them that they link to (one barycentre sweep) and wrapped into rows of
 * `columns`, so a few hundred unrelated decisions make a grid rather than one endless row.
 */
export function layoutGraph(nodes: readonly GraphNode[], edges: readonly GraphEdge[], options: LayoutOptions): GraphLayout {
  const ids = new Set(nodes.map((node) => node.id))
  const above = new Map<string, string[]>(nodes.map((node) => [node.id, []]))
  for (const edge of edges) {
    // `from` supersedes `to`: the older `to` stands above.
    if (edge.kind === 'supersedes' && ids.has(edge.from) && ids.has(edge.to) && edge.from !== edge.to) above.get(edge.from)?.push(edge.to)
  }
  const layerOf = new Map<string, number>()
  const visiting = new Set<string>()
  const layer = (id: string): number => {
    const known = layerOf.get(id)
    if (known !== undefined) return known
    // A supersede cycle (a file error the lint reports) must not loop: the node closing it counts as a root.
    if (visiting.has(id)) return 0
    visiting.add(id)
    const value = Math.max(-1, ...(above.get(id) ?? []).map(layer)) + 1
    visiting.delete(id)
    layerOf.set(id, value)
    return value
  }
  for (const node of nodes) layer(node.id)

  const layers: string[][] = []
  for (const node of nodes) (layers[layerOf.get(node.id) ?? 0] ??= []).push(node.id)
  const neighbours = new Map<string, string[]>(nodes.map((node) => [node.id, []]))
  for (const edge of edges) {
    if (!ids.has(edge.from) || !ids.has(edge.to)) continue
    neighbours.get(edge.from)?.push(edge.to)
    neighbours.get(edge.to)?.push(edge.from)
  }

  const placed = new Map<string, PlacedNode>()
  const columnOf = new Map<string, number>()
  const rowHeight = options.nodeHeight + options.gapY
  const columnWidth = options.nodeWidth + options.gapX
  let y = 0
  for (const members of layers) {
    if (members === undefined) continue
    const order = members.map((id, index) => {
      const placedNeighbours = (neighbours.get(id) ?? []).flatMap((other) => {
        const column = columnOf.get(other)
        return column === undefined ? [] : [column]
      })
      const centre =
        placedNeighbours.length === 0 ? Number.POSITIVE_INFINITY : placedNeighbours.reduce((sum, column) => sum + column, 0) / placedNeighbours.length
      return { id, centre, index }
    })
    order.sort((a, b) => a.centre - b.centre || a.index - b.index)
    order.forEach(({ id }, position) => {
      const column = position % options.columns
      const row = Math.floor(position / options.columns)
      columnOf.set(id, column)
      placed.set(id, { id, x: column * columnWidth, y: y + row * rowHeight })
    })
    y += Math.ceil(members.length / options.columns) * rowHeight + options.layerGap
  }
  const usedColumns = Math.min(options.columns, Math.max(1, ...layers.map((members) => members?.length ?? 0)))
  return { nodes: placed, width: usedColumns * columnWidth - options.gapX, height: Math.max(0, y - options.layerGap - options.gapY) }
}
