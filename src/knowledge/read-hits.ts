import { resolve } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { knowledgeLayers, type KnowledgeLayer } from '../config/layers.js'
import type { KnowledgeItem } from './model.js'
import { parseKnowledgeFile } from './parse.js'
import type { StoredDocument } from '../search/documents.js'
import { readRulesText } from '../fs/read-capped.js'

function isKnowledgeLayer(layer: string): layer is KnowledgeLayer {
  return (knowledgeLayers as readonly string[]).includes(layer)
}

/** The full items behind a few search hits: only their files are read and parsed, in hit order. */
export async function readKnowledgeItems(workspace: Workspace, docs: readonly StoredDocument[], warn: (message: string) => void): Promise<KnowledgeItem[]> {
  const items = await Promise.all(
    docs.map(async (doc) => {
      if (doc.path === undefined || doc.source === undefined || !isKnowledgeLayer(doc.layer)) return undefined
      const absolutePath = resolve(workspace.root, doc.path)
      const text = await readRulesText(absolutePath, doc.path).catch((error: unknown) => {
        warn(`${doc.path}: left out of the results, cannot read it: ${(error as Error).message}`)
        return undefined
      })
      if (text === undefined) return undefined
      const parsed = await parseKnowledgeFile({
        path: doc.path,
        absolutePath,
        source: doc.source,
        layer: doc.layer,
        text,
        statusMap: workspace.config.knowledge.statusMap,
      })
      return parsed.item
    }),
  )
  return items.filter((item): item is KnowledgeItem => item !== undefined)
}
