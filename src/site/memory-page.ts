import { oneLine } from '../text.js'
import { layoutGraph } from './graph-layout.js'
import { svgFrame } from './graph-svg.js'
import { html, type Html } from './html.js'
import type { SiteMemoryFolder } from './memories.js'
import type { SiteData } from './model.js'
import { layout } from './pages.js'

const nodeWidth = 200
const nodeHeight = 44
const margin = 16

/** An anchor id for an entity of a folder: its position, so any name (spaces, quotes, other scripts) makes a valid id. */
const entityAnchor = (folderIndex: number, entityIndex: number): string => `f${folderIndex}-e${entityIndex}`

const centre = (corner: { x: number; y: number }): { x: number; y: number } => ({ x: corner.x + nodeWidth / 2, y: corner.y + nodeHeight / 2 })

/** Where the line from `from` to the centre `to` meets the border of the box around `to`, so the arrow head shows. */
function border(from: { x: number; y: number }, to: { x: number; y: number }): { x: number; y: number } {
  const dx = to.x - from.x
  const dy = to.y - from.y
  if (dx === 0 && dy === 0) return to
  const scale = Math.min(dx === 0 ? Infinity : nodeWidth / 2 / Math.abs(dx), dy === 0 ? Infinity : nodeHeight / 2 / Math.abs(dy))
  return { x: Math.round(to.x - dx * scale), y: Math.round(to.y - dy * scale) }
}

/** A folder's entities and relations as an SVG laid out at build time; each box links to the entity's section below. */
function entityGraph(folder: SiteMemoryFolder, folderIndex: number): Html {
  const layoutDone = layoutGraph(
    folder.entities.map((entity) => ({ id: entity.name })),
    folder.relations.map((relation) => ({ from: relation.from, to: relation.to, kind: 'relates' as const })),
    { nodeWidth, nodeHeight, columns: 4, gapX: 40, gapY: 36, layerGap: 36 },
  )
  const at = (name: string): { x: number; y: number } => {
    const node = layoutDone.nodes.get(name)
    return { x: (node?.x ?? 0) + margin, y: (node?.y ?? 0) + margin }
  }
  const marker = `arrow-${folderIndex}`
  const edges = folder.relations.map((relation) => {
    const from = centre(at(relation.from))
    const to = centre(at(relation.to))
    const start = border(to, from)
    const end = border(from, to)
    const d = `M${start.x},${start.y} L${end.x},${end.y}`
    return html`<path class="edge" d="${d}" marker-end="url(#${marker})"><title>${relation.from} ${relation.relationType} ${relation.to}</title></path>`
  })
  const nodes = folder.entities.map((entity, index) => {
    const { x, y } = at(entity.name)
    return html`<a href="#${entityAnchor(folderIndex, index)}" class="node"
      ><title>${entity.name} (${entity.entityType})</title><rect x="${x}" y="${y}" width="${nodeWidth}" height="${nodeHeight}" rx="6"></rect
      ><text x="${x + 10}" y="${y + 18}" class="node-title">${oneLine(entity.name, 24)}</text
      ><text x="${x + 10}" y="${y + 35}" class="node-id">${oneLine(entity.entityType, 26)}</text></a
    >`
  })
  const width = layoutDone.width + 2 * margin
  const height = layoutDone.height + 2 * margin
  const label = `Graph of ${folder.entities.length} entities and ${folder.relations.length} relations in ${folder.key}`
  return html`<div class="graph-wrap">${svgFrame({ width, height, label, marker, edges, nodes })}</div>`
}

function folderSection(folder: SiteMemoryFolder, folderIndex: number): Html {
  const indexOf = new Map(folder.entities.map((entity, index) => [entity.name, index]))
  const link = (name: string): Html => {
    const index = indexOf.get(name)
    return index === undefined ? html`${name}` : html`<a href="#${entityAnchor(folderIndex, index)}">${name}</a>`
  }
  const heading = `folder-${folderIndex}`
  return html`<section aria-labelledby="${heading}">
    <h2 id="${heading}">${folder.key} <span class="meta">(${folder.private ? 'private to you' : 'shared'})</span></h2>
    ${
      folder.entities.length === 0
        ? ''
        : html`<h3>Graph</h3>
            ${entityGraph(folder, folderIndex)}
            ${folder.entities.map(
              (entity, index) =>
                html`<h4 id="${entityAnchor(folderIndex, index)}">${entity.name} <span class="meta">${entity.entityType}</span></h4>
                  ${
                    entity.observations.length === 0
                      ? ''
                      : html`<ul>
                          ${entity.observations.map((observation) => html`<li>${observation}</li>`)}
                        </ul>`
                  }
                  ${(() => {
                    const touching = folder.relations.filter((relation) => relation.from === entity.name || relation.to === entity.name)
                    return touching.length === 0
                      ? ''
                      : html`<p class="meta">Relations:</p>
                          <ul>
                            ${touching.map((relation) => html`<li>${link(relation.from)} ${relation.relationType} ${link(relation.to)}</li>`)}
                          </ul>`
                  })()}`,
            )}`
    }
    ${
      folder.memories.length === 0
        ? ''
        : html`<h3>Memories</h3>
            <table>
              <caption class="skip">
                Memories in ${folder.key}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Updated</th>
                  <th scope="col">Memory</th>
                  <th scope="col">Tags</th>
                </tr>
              </thead>
              <tbody>
                ${folder.memories.map(
                  (memory) =>
                    html`<tr>
                      <td>${memory.updated.slice(0, 10)}</td>
                      <td>${memory.content}<br /><span class="meta">${memory.id}</span></td>
                      <td>${memory.tags.join(', ')}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
            ${folder.more ? html`<p class="meta">Only the newest ${folder.memories.length} are shown.</p>` : ''}`
    }
  </section>`
}

/** The memory graph of every folder the builder may read: entities with their relations drawn and listed, then the other memories. */
export function memoriesPage(data: SiteData): string {
  const folders = data.memories ?? []
  const body = html`<h1>Memories</h1>
    <p class="meta">
      The memories of the layers the builder of this site may read: shared layers, and the builder's own private ones. Nobody else's private memories are on it.
    </p>
    ${folders.length === 0 ? html`<p>No memories.</p>` : folders.map(folderSection)}`
  return layout(data, { title: 'Memories', root: '', section: 'memories', body })
}
