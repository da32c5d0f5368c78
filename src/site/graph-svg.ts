import { oneLine } from '../text.js'
import { html, type Html } from './html.js'
import { layoutGraph, type GraphEdge } from './graph-layout.js'
import type { SiteItem } from './model.js'

const nodeWidth = 220
const nodeHeight = 48
const margin = 16

/** The decisions and their relations as an SVG drawn at build time; each node links to the item's page. */
export function graphSvg(items: readonly SiteItem[], pagePrefix: string): Html {
  const byId = new Map(items.map((site) => [site.item.id, site]))
  const edges: GraphEdge[] = []
  for (const { item, relatesTo } of items) {
    for (const older of item.supersedes) if (byId.has(older)) edges.push({ from: item.id, to: older, kind: 'supersedes' })
    for (const other of relatesTo) if (other > item.id && byId.has(other)) edges.push({ from: item.id, to: other, kind: 'relates' })
  }
  const layout = layoutGraph(
    items.map((site) => ({ id: site.item.id })),
    edges,
    { nodeWidth, nodeHeight, columns: 5, gapX: 28, gapY: 22, layerGap: 36 },
  )
  const width = layout.width + 2 * margin
  const height = layout.height + 2 * margin
  const at = (id: string): { x: number; y: number } => {
    const node = layout.nodes.get(id)
    return { x: (node?.x ?? 0) + margin, y: (node?.y ?? 0) + margin }
  }
  const lines = edges.map((edge) => {
    const from = at(edge.from)
    const to = at(edge.to)
    // Supersedes: from the newer item's top to the older item's bottom; relates: centre to centre.
    const start = edge.kind === 'supersedes' ? { x: from.x + nodeWidth / 2, y: from.y } : { x: from.x + nodeWidth / 2, y: from.y + nodeHeight / 2 }
    const end = edge.kind === 'supersedes' ? { x: to.x + nodeWidth / 2, y: to.y + nodeHeight } : { x: to.x + nodeWidth / 2, y: to.y + nodeHeight / 2 }
    const bend = (start.y + end.y) / 2
    const d = `M${start.x},${start.y} C${start.x},${bend} ${end.x},${bend} ${end.x},${end.y}`
    return html`<path class="edge edge-${edge.kind}" d="${d}" ${edge.kind === 'supersedes' ? html` marker-end="url(#arrow)"` : ''}
      ><title>${edge.from} ${edge.kind === 'supersedes' ? 'supersedes' : 'relates to'} ${edge.to}</title></path
    >`
  })
  const nodes = items.map(({ item, page }) => {
    const { x, y } = at(item.id)
    return html`<a href="${pagePrefix}${page}" class="node status-${item.status.replace(/[^a-z]/g, '-')}" data-id="${item.id}"
      ><title>${item.id}: ${item.title} (${item.status})</title><rect x="${x}" y="${y}" width="${nodeWidth}" height="${nodeHeight}" rx="6"></rect
      ><text x="${x + 10}" y="${y + 19}" class="node-title">${oneLine(item.title, 27)}</text
      ><text x="${x + 10}" y="${y + 37}" class="node-id">${oneLine(item.id, 22)} · ${item.status}</text></a
    >`
  })
  return svgFrame({ width, height, label: `Graph of ${items.length} knowledge items and their relations`, marker: 'arrow', edges: lines, nodes })
}

/** The SVG around a drawn graph: its size, its label for screen readers, the arrow head its edges point with. */
export function svgFrame(graph: { width: number; height: number; label: string; marker: string; edges: readonly Html[]; nodes: readonly Html[] }): Html {
  const { width, height, label, marker, edges, nodes } = graph
  return html`<svg
    class="graph"
    xmlns="http://www.w3.org/2000/svg"
    viewBox="0 0 ${width} ${height}"
    width="${width}"
    height="${height}"
    role="group"
    aria-label="${label}"
  >
    <defs>
      <marker id="${marker}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
        <path d="M0,0 L10,5 L0,10 z" class="arrow-head"></path>
      </marker>
    </defs>
    <g class="edges">${edges}</g>
    <g class="nodes">${nodes}</g>
  </svg>`
}
